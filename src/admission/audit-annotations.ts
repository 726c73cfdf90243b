import type { FailedRule } from './admission-warnings.js'
import { rulePath } from './describe-failure.js'
import { truncateText } from './truncate-text.js'

/** Longest annotation value: they end up in every audit event of the API server's log. */
export const ANNOTATION_LENGTH = 1024

/**
 * The AdmissionResponse's auditAnnotations. The API server prefixes every key with the webhook's
 * name and rejects keys holding a `/` themselves, so the keys are plain: registered as webhook
 * `verdict.dev`, they land in the API server's audit log as `verdict.dev/policies`,
 * `verdict.dev/failed-rules`, `verdict.dev/exceptions` (the PolicyExceptions that let rules
 * through), `verdict.dev/disabled-rules` (rules switched off that would have judged the
 * request) and `verdict.dev/vap-judged-rules` (rules a generated ValidatingAdmissionPolicy judged
 * instead of the webhook). Values are comma-separated lists.
 */
export function auditAnnotations(
  judgedPolicies: readonly string[],
  failures: readonly FailedRule[],
  exceptions: readonly string[] = [],
  disabled: readonly FailedRule[] = [],
  judgedByVap: readonly FailedRule[] = [],
): Record<string, string> {
  const annotations: Record<string, string> = {}
  if (judgedPolicies.length > 0) annotations.policies = truncateText(judgedPolicies.join(','), ANNOTATION_LENGTH)
  const failed = [...new Set(failures.map(({ policy, result }) => rulePath(policy, result)))]
  if (failed.length > 0) annotations['failed-rules'] = truncateText(failed.join(','), ANNOTATION_LENGTH)
  const applied = [...new Set(exceptions)]
  if (applied.length > 0) annotations.exceptions = truncateText(applied.join(','), ANNOTATION_LENGTH)
  const switchedOff = [...new Set(disabled.map(({ policy, result }) => rulePath(policy, result)))]
  if (switchedOff.length > 0) annotations['disabled-rules'] = truncateText(switchedOff.join(','), ANNOTATION_LENGTH)
  const leftToVaps = [...new Set(judgedByVap.map(({ policy, result }) => rulePath(policy, result)))]
  if (leftToVaps.length > 0) annotations['vap-judged-rules'] = truncateText(leftToVaps.join(','), ANNOTATION_LENGTH)
  return annotations
}
