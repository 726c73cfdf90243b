/**
 * Shell-style glob over a whole string: `*` any run, `?` one character; everything else literal.
 *
 * Matched by the greedy two-pointer method rather than a regular expression: `a*a*a*...b`
 * compiled to `^a.*a.*a.*...b$` backtracks exponentially on a long run of `a`, and patterns come
 * from definitions while values come from the cluster. Here only the last `*` is ever retried, so
 * the work is at most the product of the two lengths.
 */
export function matchesGlob(value: string, pattern: string): boolean {
  if (pattern === '*') return true
  if (!pattern.includes('*') && !pattern.includes('?')) return value === pattern
  return matchesGlobUnits(pattern, value)
}

/**
 * The greedy method over any sequence of units: UTF-16 code units for a string, or code points
 * (Go's runes) for an array of them. `onStep` is called once per step, so a caller can charge a budget.
 */
export function matchesGlobUnits(pattern: ArrayLike<string>, value: ArrayLike<string>, onStep?: () => void): boolean {
  let at = 0
  let next = 0
  let star = -1
  let resumeAt = 0
  while (at < value.length) {
    onStep?.()
    const expected = next < pattern.length ? pattern[next] : undefined
    if (expected === '*') {
      star = next++
      resumeAt = at
    } else if (expected !== undefined && (expected === '?' || expected === value[at])) {
      at++
      next++
    } else if (star >= 0) {
      // The last star takes one more unit and the rest of the pattern is tried again.
      next = star + 1
      at = ++resumeAt
    } else {
      return false
    }
  }
  while (next < pattern.length && pattern[next] === '*') next++
  return next === pattern.length
}

export function matchesAnyGlob(value: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => matchesGlob(value, pattern))
}
