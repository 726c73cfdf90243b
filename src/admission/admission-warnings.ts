import type { RuleResult } from '../engine/index.js'
import { describeFailure } from './describe-failure.js'
import { truncateText } from './truncate-text.js'

/**
 * Kubernetes asks webhooks to keep each warning to 120 characters; the API server cuts warnings to
 * 256 and drops what exceeds 4 KiB in total. Keeping within 120 x MAX_WARNINGS stays clear of both,
 * so what the user sees is what Verdict chose to show, not what the API server cut.
 */
export const WARNING_LENGTH = 120
export const MAX_WARNINGS = 20

export interface FailedRule {
  policy: string
  result: RuleResult
}

/** One warning per failed rule of a Warn policy, `policy/ruleset/rule: message`, each within WARNING_LENGTH. */
export function admissionWarnings(failures: readonly FailedRule[]): string[] {
  const unique = [...new Set(failures.map(({ policy, result }) => truncateText(describeFailure(policy, result), WARNING_LENGTH)))]
  if (unique.length <= MAX_WARNINGS) return unique
  const shown = unique.slice(0, MAX_WARNINGS - 1)
  shown.push(`and ${unique.length - shown.length} more Verdict warnings (see the audit of this request)`)
  return shown
}
