import { matchesGlob, matchesGlobUnits } from '../match/glob.js'

/**
 * Kyverno's wildcard match (IGLOU-EU/go-wildcard v1): `*` any run of characters, `?` exactly one
 * character (a code point, as Go counts runes), everything else literal; an empty pattern matches
 * only the empty string. Linear-bounded like match/glob.ts, since values come from the cluster.
 */
export function matchesWildcard(pattern: string, text: string): boolean {
  if (pattern === '') return text === ''
  if (pattern === '*') return true
  if (!SURROGATE.test(pattern) && !SURROGATE.test(text)) return matchesGlob(text, pattern)
  // Over code points, so `?` never takes half a surrogate pair.
  return matchesGlobUnits(Array.from(pattern), Array.from(text))
}

const SURROGATE = /[\uD800-\uDFFF]/

export function containsWildcard(text: string): boolean {
  return text.includes('*') || text.includes('?')
}
