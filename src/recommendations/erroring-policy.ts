import type { Policy } from '../engine/index.js'
import { counted, lastDays, recommendation, type Recommendation, type RecommendationWindow } from './recommendation.js'
import type { NamedRuleset } from './ruleset-usage.js'

/**
 * A policy naming rulesets that do not exist (possible when Kubernetes objects are applied out of
 * order or a Ruleset object is deleted) ends every evaluation with an error result per missing
 * ruleset: with failurePolicy Fail it refuses everything it matches, with Ignore it checks less
 * than it says. Errors of the rules themselves are `erroring-rule` findings.
 */
export function erroringPolicies(
  policies: readonly Policy[],
  rulesets: readonly NamedRuleset[],
  policyAudits: ReadonlyMap<string, number>,
  window: RecommendationWindow,
): Recommendation[] {
  const existing = new Set(rulesets.map((ruleset) => ruleset.name))
  return policies.flatMap((policy) => {
    const missing = [...new Set((policy.rulesets ?? []).filter((name) => !existing.has(name)))]
    if (missing.length === 0) return []
    const audits = policyAudits.get(policy.name) ?? 0
    const failurePolicy = policy.failurePolicy ?? 'Fail'
    const effect = failurePolicy === 'Fail' ? 'so it fails every resource it matches' : 'which its failurePolicy Ignore lets pass unchecked'
    return [
      recommendation(
        'erroring-policy',
        { kind: 'policy', name: policy.name },
        `Policy "${policy.name}" names ${missing.length === 1 ? 'a ruleset that does' : 'rulesets that do'} not exist (${missing.join(', ')}): every evaluation of it ends in error, ${effect} (${counted(audits, 'evaluation')} ${lastDays(window)}). Create the ${missing.length === 1 ? 'ruleset' : 'rulesets'} or remove ${missing.length === 1 ? 'it' : 'them'} from the policy.`,
        { missingRulesets: missing, audits, failurePolicy },
      ),
    ]
  })
}
