import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { matchesAnyGlob, matchesGlob } from '../../../src/engine/match/glob.js'

/** The meaning of a glob, written the obvious way; fine for the short strings generated here. */
function reference(value: string, pattern: string): boolean {
  const body = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')
  return new RegExp(`^${body}$`, 's').test(value)
}

describe('matchesGlob', () => {
  it('matches whole strings with * and ?', () => {
    expect(matchesGlob('kube-system', 'kube-*')).toBe(true)
    expect(matchesGlob('kube-system', '*-system')).toBe(true)
    expect(matchesGlob('kube-system', 'kube-?ystem')).toBe(true)
    expect(matchesGlob('kube-system', 'kube')).toBe(false)
    expect(matchesGlob('prod-a.b', 'prod-a?b')).toBe(true)
    expect(matchesGlob('prod-a.b', 'prod-a.*')).toBe(true)
    expect(matchesGlob('', '*')).toBe(true)
    expect(matchesGlob('', '?')).toBe(false)
    expect(matchesAnyGlob('web', ['api', 'w*'])).toBe(true)
  })

  it('agrees with the regular-expression reading on generated values and patterns', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'b', '.', '-'), maxLength: 12 }), fc.string({ unit: fc.constantFrom('a', 'b', '.', '*', '?'), maxLength: 8 }), (value, pattern) => {
        expect(matchesGlob(value, pattern)).toBe(reference(value, pattern))
      }),
      { numRuns: 2000 },
    )
  })

  it('answers a pattern of many stars against a long run of one letter (exponential for a backtracking regex)', () => {
    expect(matchesGlob('a'.repeat(5000), `${'*a'.repeat(40)}*b`)).toBe(false)
    expect(matchesGlob(`${'a'.repeat(5000)}b`, `${'*a'.repeat(40)}*b`)).toBe(true)
  })
})
