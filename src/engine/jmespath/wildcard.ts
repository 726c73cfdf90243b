import { charge } from './budget.js'
import { runes } from './text.js'

/**
 * Kyverno's wildcard match (IGLOU-EU/go-wildcard v1, used by pattern_match): `*` matches any run
 * of runes, `?` exactly one rune, everything else itself; the whole string must match.
 *
 * go-wildcard recurses on every `*` and backtracks exponentially (`a*a*a*...b` on a long run of
 * `a`). The greedy two-pointer method used here gives the same answers and retries only the last
 * `*`, so the work is at most the product of the two lengths, and is charged as it goes.
 */
export function matchesWildcard(pattern: string, text: string): boolean {
  if (pattern === '') return text === ''
  if (pattern === '*') return true
  const p = runes(pattern)
  const s = runes(text)
  let at = 0
  let next = 0
  let star = -1
  let resumeAt = 0
  while (at < s.length) {
    charge(1)
    const expected = p[next]
    if (expected === '*') {
      star = next++
      resumeAt = at
    } else if (expected !== undefined && (expected === '?' || expected === s[at])) {
      at++
      next++
    } else if (star >= 0) {
      next = star + 1
      at = ++resumeAt
    } else {
      return false
    }
  }
  while (p[next] === '*') next++
  return next === p.length
}
