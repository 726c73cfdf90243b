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
  /** Set on a `skip` when the rule is switched off (`enabled: false`), with the rule's `disabledReason`. */
  disabled?: true
  disabledReason?: string
  /**
   * Set on a `skip` when the API server judged the request by a ValidatingAdmissionPolicy
   * generated from the rule (docs/generated-vaps.md), so the webhook did not judge it again; the
   * policy's name is in `validatingAdmissionPolicy`.
   */
  judgedBy?: 'ValidatingAdmissionPolicy'
  validatingAdmissionPolicy?: string
}

export function isViolation(result: RuleResult): boolean {
  return result.status === 'fail' || result.status === 'error'
}

/** A skip that stands for a rule that would have judged: one an exception let through, one switched off, or one the API server judged. */
export function isNotedSkip(result: RuleResult): boolean {
  return result.exception !== undefined || result.disabled === true || result.judgedBy !== undefined
}

/** Whether the rule judged the input, or would have: anything but a skip saying it does not apply. */
export function appliedTo(result: RuleResult): boolean {
  return result.status !== 'skip' || isNotedSkip(result)
}

/** What audits and answers always list: violations, rules an exception let through, rules switched off and rules the API server judged (never silently absent). */
export function isReported(result: RuleResult): boolean {
  return isViolation(result) || isNotedSkip(result)
}
