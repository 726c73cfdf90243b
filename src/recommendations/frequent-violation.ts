import { counted, lastDays, percent, ratio, recommendation, type Recommendation, type RecommendationWindow } from './recommendation.js'
import { byCountThenName, ruleOf, scanEvidence, type RuleResultScan, type RulesetWithRules } from './rule-results.js'

/** How many of the most frequent violations are listed. */
export const FREQUENT_VIOLATIONS = 10

export interface FrequentViolationFigures {
  scan: RuleResultScan
  /** Ruleset audits per ruleset name in the window. */
  rulesetAudits: ReadonlyMap<string, number>
}

/**
 * The rules that fail most often, with what to do about them: fixing the resources behind the
 * top few removes most of the noise. `share` is the rule's part of every rule failure counted
 * (rules since deleted included, so shares stay honest), not of all evaluations.
 */
export function frequentViolations(rulesets: readonly RulesetWithRules[], figures: FrequentViolationFigures, window: RecommendationWindow): Recommendation[] {
  const byName = new Map(rulesets.map((ruleset) => [ruleset.name, ruleset]))
  const failures = figures.scan.tallies.filter((tally) => tally.status === 'fail')
  const total = failures.reduce((sum, tally) => sum + tally.audits, 0)
  return failures
    .filter((tally) => ruleOf(byName, tally) !== undefined)
    .sort(byCountThenName)
    .slice(0, FREQUENT_VIOLATIONS)
    .map((tally) => {
      const rule = ruleOf(byName, tally)
      const share = ratio(tally.audits, total)
      const remediation = rule?.remediation
      const advice = remediation ? `Remediation: ${remediation}` : `The rule reports: ${rule?.message ?? tally.latestMessage ?? 'no message'}`
      return recommendation(
        'frequent-violation',
        { kind: 'rule', name: tally.rule, ruleset: tally.ruleset },
        `Rule "${tally.rule}" of ruleset "${tally.ruleset}" failed ${counted(tally.audits, 'time')} ${lastDays(window)} (${percent(share)} of rule failures). ${advice}`,
        {
          failures: tally.audits,
          share,
          rulesetAudits: figures.rulesetAudits.get(tally.ruleset) ?? 0,
          lastFailedAt: tally.lastAt.toISOString(),
          remediation: remediation ?? null,
          ...scanEvidence(figures.scan),
        },
      )
    })
}
