import type { Severity } from '../model/rule.js'

export type RuleStatus = 'pass' | 'fail' | 'error' | 'skip'

/** How one rule judged one input. `results` lists fail and error; verbose output adds pass and skip. */
export interface RuleResult {
  ruleset: string
  rule: string
  status: RuleStatus
  severity: Severity
  message?: string
  remediation?: string
  /** Set when the rule judged a controller's pod template rather than the object itself. */
  autogen?: string
  /**
   * For a failed pattern rule, the field where the resource departs from the pattern, in the
   * submitted document: `spec.containers[0].securityContext.privileged`.
   */
  path?: string
  /** Set on a `skip` when a PolicyException let the rule through: the exception's name. */
  exception?: string
}

export function isViolation(result: RuleResult): boolean {
  return result.status === 'fail' || result.status === 'error'
}

/** What audits and answers always list: violations, and rules an exception let through (never silently absent). */
export function isReported(result: RuleResult): boolean {
  return isViolation(result) || result.exception !== undefined
}
