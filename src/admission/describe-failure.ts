import type { RuleResult } from '../engine/index.js'

/**
 * `policy/ruleset/rule` (just `policy/ruleset` for a missing ruleset): the path a user follows
 * to the rule that stopped them, the same in denials, warnings and audit annotations.
 */
export function rulePath(policy: string, result: RuleResult): string {
  return result.rule ? `${policy}/${result.ruleset}/${result.rule}` : `${policy}/${result.ruleset}`
}

/**
 * `policy/ruleset/rule: message` on one line. Messages may hold newlines and tabs (CEL
 * messageExpression builds them); denials list one rule per line and warnings travel in HTTP
 * Warning headers, which must not contain control characters, so every run of whitespace or
 * control characters becomes one space.
 */
export function describeFailure(policy: string, result: RuleResult): string {
  const fallback = result.status === 'error' ? 'the rule could not be evaluated' : 'the rule failed'
  const message = singleLine(result.message ?? '') || fallback
  return `${rulePath(policy, result)}: ${message}`
}

export function singleLine(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what must go
  return text.replace(/[\s\u0000-\u001f\u007f-\u009f]+/g, ' ').trim()
}
