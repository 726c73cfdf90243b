import type { RuleResult } from '../engine/index.js'
import { admissionWarnings, type FailedRule } from './admission-warnings.js'
import { auditAnnotations } from './audit-annotations.js'
import { denialMessage } from './denial-message.js'
import type { PolicyJudgement } from './judge-request.js'

export interface AdmissionDecision {
  allowed: boolean
  /** Why it was denied; set exactly when `allowed` is false. */
  message?: string
  warnings: string[]
  auditAnnotations: Record<string, string>
}

/**
 * Any failed rule of a Deny policy denies; failed rules of Warn policies become warnings (also on
 * a denial: they tell the user what to fix next); Audit policies only leave their audit. A rule
 * error counts as a failure unless its policy's failurePolicy is Ignore.
 */
export function decideAdmission(judgements: readonly PolicyJudgement[]): AdmissionDecision {
  const denials: FailedRule[] = []
  const warnings: FailedRule[] = []
  const failures: FailedRule[] = []
  for (const judgement of judgements) {
    for (const result of judgement.output.results) {
      if (!countsAsFailure(result, judgement.ignoreErrors)) continue
      const failure = { policy: judgement.policy, result }
      failures.push(failure)
      if (judgement.action === 'Deny') denials.push(failure)
      else if (judgement.action === 'Warn') warnings.push(failure)
    }
  }
  const decision: AdmissionDecision = {
    allowed: denials.length === 0,
    warnings: admissionWarnings(warnings),
    auditAnnotations: auditAnnotations(
      judgements.map((judgement) => judgement.policy),
      failures,
      judgements.flatMap((judgement) => judgement.output.results.flatMap((result) => (result.exception === undefined ? [] : [result.exception]))),
      judgements.flatMap((judgement) => judgement.output.results.flatMap((result) => (result.disabled === true ? [{ policy: judgement.policy, result }] : []))),
      judgements.flatMap((judgement) => judgement.output.results.flatMap((result) => (result.judgedBy === undefined ? [] : [{ policy: judgement.policy, result }]))),
    ),
  }
  if (denials.length > 0) decision.message = denialMessage(denials)
  return decision
}

/** A failed rule, or an erring one unless its policy ignores errors. */
export function countsAsFailure(result: RuleResult, ignoreErrors: boolean): boolean {
  return result.status === 'fail' || (result.status === 'error' && !ignoreErrors)
}
