import { counted, lastDays, recommendation, type Recommendation, type RecommendationWindow } from './recommendation.js'
import { byCountThenName, ruleOf, scanEvidence, type RuleResultScan, type RulesetWithRules } from './rule-results.js'

export interface ErroringRuleFigures {
  scan: RuleResultScan
  /** Ruleset audits per ruleset name in the window. */
  rulesetAudits: ReadonlyMap<string, number>
  /** Policies applying each ruleset (see ruleset-usage.ts). */
  policiesByRuleset: ReadonlyMap<string, readonly string[]>
}

/**
 * A rule whose evaluation ended in `error` (an expression that fails on some input, a missing
 * field read without `?`, a blown cost budget) judges nothing for those inputs: under
 * failurePolicy Fail the resource is refused for a bug, under Ignore it passes unchecked.
 * Errors recorded before the ruleset's last change are left out: that change may have fixed them.
 */
export function erroringRules(rulesets: readonly RulesetWithRules[], figures: ErroringRuleFigures, window: RecommendationWindow): Recommendation[] {
  const byName = new Map(rulesets.map((ruleset) => [ruleset.name, ruleset]))
  return figures.scan.tallies
    .filter((tally) => tally.status === 'error' && ruleOf(byName, tally) !== undefined)
    .filter((tally) => tally.lastAt.getTime() >= Date.parse(byName.get(tally.ruleset)?.updatedAt ?? ''))
    .sort(byCountThenName)
    .map((tally) => {
      const latest = tally.latestMessage === null ? '' : ` (latest: ${tally.latestMessage})`
      return recommendation(
        'erroring-rule',
        { kind: 'rule', name: tally.rule, ruleset: tally.ruleset },
        `Rule "${tally.rule}" of ruleset "${tally.ruleset}" ended in error in ${counted(tally.audits, 'evaluation')} ${lastDays(window)}${latest}: fix its expressions so they judge every input they match.`,
        {
          errors: tally.audits,
          rulesetAudits: figures.rulesetAudits.get(tally.ruleset) ?? 0,
          lastErrorAt: tally.lastAt.toISOString(),
          latestMessage: tally.latestMessage,
          policies: figures.policiesByRuleset.get(tally.ruleset) ?? [],
          ...scanEvidence(figures.scan),
        },
      )
    })
}
