import { matchesGlob } from '../match/glob.js'

/**
 * Kyverno's wildcard match (IGLOU-EU/go-wildcard v1): `*` any run of characters, `?` exactly one
 * character (a code point, as Go counts runes), everything else literal; an empty pattern matches
 * only the empty string. Linear-bounded like match/glob.ts, since values come from the cluster.
 */
export function matchesWildcard(pattern: string, text: string): boolean {
  if (pattern === '') return text === ''
  if (pattern === '*') return true
  if (!SURROGATE.test(pattern) && !SURROGATE.test(text)) return matchesGlob(text, pattern)
  return matchesCodePoints(Array.from(pattern), Array.from(text))
}

const SURROGATE = /[\uD800-\uDFFF]/

export function containsWildcard(text: string): boolean {
  return text.includes('*') || text.includes('?')
}

/** The greedy method of glob.ts over code points, where `?` must not take half a surrogate pair. */
function matchesCodePoints(pattern: readonly string[], text: readonly string[]): boolean {
  let at = 0
  let next = 0
  let star = -1
  let resumeAt = 0
  while (at < text.length) {
    const expected = pattern[next]
    if (expected === '*') {
      star = next++
      resumeAt = at
    } else if (expected !== undefined && (expected === '?' || expected === text[at])) {
      at++
      next++
    } else if (star >= 0) {
      next = star + 1
      at = ++resumeAt
    } else {
      return false
    }
  }
  while (pattern[next] === '*') next++
  return next === pattern.length
}
