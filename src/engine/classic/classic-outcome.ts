import type { PathSegment } from '../autogen/pod-template-path.js'
import type { RuleStatus } from '../results/rule-result.js'

/**
 * What a classic rule (or one foreach element) decided. Kyverno also has "no response", when a
 * foreach judged no element or patterns met a request without an object: that is `undefined`
 * where an outcome is expected, and the rule then reports itself skipped.
 */
export interface ClassicOutcome {
  status: RuleStatus
  message?: string
  /** Where a pattern failed, in the submitted document (rule-level patterns only). */
  path?: PathSegment[]
}

export function outcome(status: RuleStatus, message?: string): ClassicOutcome {
  return message === undefined || message === '' ? { status } : { status, message }
}

/** Kyverno's RuleError message: what failed, then why. */
export function errorOutcome(what: string, error: unknown): ClassicOutcome {
  return { status: 'error', message: `${what}: ${error instanceof Error ? error.message : String(error)}` }
}
