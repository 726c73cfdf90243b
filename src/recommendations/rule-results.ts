/**
 * Rule results counted from the failed ruleset audits of the window (the store's scan, see
 * src/store/recommendation-figures.ts), which erroring-rule and frequent-violation both read.
 */
export interface RuleTally {
  ruleset: string
  rule: string
  status: 'fail' | 'error'
  /** Ruleset audits in which the rule ended with this status. */
  audits: number
  /** The newest of those audits. */
  lastAt: Date
  /** The message of the newest of those results, if it had one. */
  latestMessage: string | null
}

export interface RuleResultScan {
  tallies: readonly RuleTally[]
  /** Failed ruleset audits read. */
  scannedAudits: number
  /** True when the scan stopped at its limit: the tallies cover only the newest failed audits, from `countedFrom`. */
  sampled: boolean
  /** The start of what was counted: the window's start, or the oldest audit read when sampled. */
  countedFrom: Date
}

/** A rule of a stored ruleset, as far as these recommendations read it. */
export interface RuleDefinition {
  name: string
  message?: string
  remediation?: string
  severity?: string
}

export interface RulesetWithRules {
  name: string
  /** ISO 8601: the last change of the ruleset. */
  updatedAt: string
  rules: readonly RuleDefinition[]
}

/** The rule of a tally in today's definitions; tallies of rules since deleted or renamed have none. */
export function ruleOf(rulesets: ReadonlyMap<string, RulesetWithRules>, tally: { ruleset: string; rule: string }): RuleDefinition | undefined {
  return rulesets.get(tally.ruleset)?.rules.find((rule) => rule.name === tally.rule)
}

/** The evidence every rule-level finding carries about how it was counted. */
export function scanEvidence(scan: RuleResultScan): { countedFrom: string; sampled: boolean; scannedAudits: number } {
  return { countedFrom: scan.countedFrom.toISOString(), sampled: scan.sampled, scannedAudits: scan.scannedAudits }
}

/** Most first; ties by ruleset then rule, so the order is the same on every call. */
export function byCountThenName(a: RuleTally, b: RuleTally): number {
  return b.audits - a.audits || a.ruleset.localeCompare(b.ruleset) || a.rule.localeCompare(b.rule)
}
