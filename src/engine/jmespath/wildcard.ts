import { matchesGlobUnits } from '../match/glob.js'
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
  return matchesGlobUnits(runes(pattern), runes(text), () => charge(1))
}
