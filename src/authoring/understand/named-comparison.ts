import type { Rule } from '../../engine/index.js'

/**
 * Whether named (catalog) rules drop a comparison the clause asks for: "memory requests equal to
 * limits" read by the template that asks only for requests and limits to be set, or "one of
 * livenessProbe, readinessProbe or startupProbe" read by one that asks for all of them. A clause
 * with a comparison or choice cue may be read by named rules only when one of their checks compares.
 */
const COMPARISON_CUE = /\b(?:(?:at least )?(?:one|any) of|equal to|equals|the same as|greater than|less than|more than|fewer than|lower than|higher than|at least|at most|no more than|no less than|exceeds?|exceeding)\b/i

const COMPARES = /==|!=|<=|>=|<|>|\bin \[|matches\(|startsWith\(|endsWith\(|contains\(/

/** "no more than 3 ports", "at least 2": a bound, which only an ordering (or a count) checks; a rule testing `!= 3` drops it. */
const BOUND_CUE = /\b(?:greater than|less than|more than|fewer than|lower than|higher than|at least|at most|no more than|no less than|no fewer than|exceeds?|exceeding|up to)\b/i
const ORDERS = /<=|>=|<|>|\bsize\(|compareTo\(/

export function dropsComparison(text: string, rules: readonly Rule[]): boolean {
  if (!COMPARISON_CUE.test(text) && !BOUND_CUE.test(text)) return false
  const checks = rules.flatMap((rule) => (rule.validate?.cel ?? []).map((check) => check.expression))
  if (BOUND_CUE.test(text) && !checks.some((expression) => ORDERS.test(expression))) return true
  return !checks.some((expression) => COMPARES.test(expression))
}
