import type { Policy } from '../engine/index.js'
import { counted, lastDays, recommendation, type Recommendation, type RecommendationWindow } from './recommendation.js'
import { policiesByRuleset, type NamedRuleset } from './ruleset-usage.js'

export interface RulesetDefinition extends NamedRuleset {
  rules: readonly unknown[]
}

/**
 * A ruleset no policy applies, by name or by rulesetSelector, is never used by the webhook and
 * only judges what is sent to `POST /api/eval/rulesets/{name}` directly: the evidence says how
 * often that happened, so a ruleset kept for direct evaluation is easy to tell apart.
 */
export function unusedRulesets(
  policies: readonly Policy[],
  rulesets: readonly RulesetDefinition[],
  rulesetAudits: ReadonlyMap<string, number>,
  window: RecommendationWindow,
): Recommendation[] {
  const users = policiesByRuleset(policies, rulesets)
  return rulesets
    .filter((ruleset) => (users.get(ruleset.name) ?? []).length === 0)
    .map((ruleset) => {
      const audits = rulesetAudits.get(ruleset.name) ?? 0
      const direct = audits === 0 ? `and was not evaluated ${lastDays(window)}` : `(evaluated directly ${counted(audits, 'time')} ${lastDays(window)})`
      return recommendation(
        'unused-ruleset',
        { kind: 'ruleset', name: ruleset.name },
        `No policy applies ruleset "${ruleset.name}" by name or by rulesetSelector ${direct}: add it to a policy or delete it.`,
        { policies: 0, rules: ruleset.rules.length, rulesetAudits: audits },
      )
    })
}
