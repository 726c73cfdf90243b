import { describeFailure } from './describe-failure.js'
import type { FailedRule } from './admission-warnings.js'

/** Beyond this, a denial names how many more rules failed instead of listing them. */
export const MAX_DENIAL_LINES = 20

/**
 * The `status.message` of a denial: one failed rule per line, `policy/ruleset/rule: message`.
 * kubectl prints it after `admission webhook "..." denied the request: `, so a single failure reads
 * as one line and several as a list starting on that line.
 */
export function denialMessage(failures: readonly FailedRule[]): string {
  const lines = [...new Set(failures.map(({ policy, result }) => describeFailure(policy, result)))]
  if (lines.length <= MAX_DENIAL_LINES) return lines.join('\n')
  const shown = lines.slice(0, MAX_DENIAL_LINES - 1)
  shown.push(`and ${lines.length - shown.length} more failed rules (see the audit of this request)`)
  return shown.join('\n')
}
