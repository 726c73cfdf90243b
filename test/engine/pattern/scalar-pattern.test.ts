import { describe, expect, it } from 'vitest'
import { toCelValue } from '../../../src/engine/cel/values.js'
import { matchesScalar, scalarPatternOf, type ScalarValue } from '../../../src/engine/pattern/scalar-pattern.js'

/** Whether a field holding `value` (absent when undefined) matches the leaf `pattern`, numbers held as the engine holds them. */
function matches(pattern: ScalarValue, value: unknown): boolean {
  return matchesScalar(value === undefined ? undefined : toCelValue(value), scalarPatternOf(pattern))
}

describe('leaf patterns (Kyverno pkg/engine/pattern)', () => {
  describe('wildcards: * any run, ? one character, ?* at least one', () => {
    it.each([
      ['*', 'anything', true],
      ['*', '', true],
      ['?', 'a', true],
      ['?', '', false],
      ['?', 'ab', false],
      ['?*', 'a', true],
      ['?*', '', false],
      ['nginx:*', 'nginx:1.27', true],
      ['nginx:*', 'redis:7', false],
      ['*:latest', 'nginx:latest', true],
      ['*.corp.com/*', 'registry.corp.com/app:1', true],
      ['v?.?', 'v1.2', true],
      ['v?.?', 'v1.22', false],
      // `?` is one character as Go counts runes, so a character outside the BMP is one.
      ['?', '😀', true],
      ['a?c', 'a😀c', true],
    ])('%j against %j: %s', (pattern, value, expected) => {
      expect(matches(pattern, value)).toBe(expected)
    })

    it('"*" and "?*" need the field: a missing value is never matched by a wildcard', () => {
      expect(matches('?*', undefined)).toBe(false)
      expect(matches('*:latest', undefined)).toBe(false)
    })
  })

  describe('null and the empty string', () => {
    it('null matches an unset field, null, "", 0 and false, and never a map or a list', () => {
      for (const value of [undefined, null, '', 0, 0.0, false]) expect(matches(null, value), JSON.stringify(value)).toBe(true)
      for (const value of ['x', 1, true, {}, [], { a: 1 }, ['a']]) expect(matches(null, value), JSON.stringify(value)).toBe(false)
    })

    it('"" matches only the empty string: unlike null, an unset field does not match it (Kyverno compares no text with a missing value)', () => {
      expect(matches('', '')).toBe(true)
      expect(matches('', 'x')).toBe(false)
      expect(matches('', undefined)).toBe(false)
    })
  })

  describe('booleans and numbers, as Kyverno compares them with strings', () => {
    it('a boolean pattern matches only a boolean', () => {
      expect(matches(false, false)).toBe(true)
      expect(matches(false, 'false')).toBe(false)
      expect(matches(true, undefined)).toBe(false)
    })

    it('a string pattern matches a boolean by its text', () => {
      expect(matches('false', false)).toBe(true)
      expect(matches('true', false)).toBe(false)
      expect(matches('!true', false)).toBe(true)
    })

    it('a whole-number pattern matches the number, a float without fraction, and a string holding the integer', () => {
      expect(matches(80, 80)).toBe(true)
      expect(matches(80, '80')).toBe(true)
      expect(matches(80, '+80')).toBe(true)
      expect(matches(80, '80.0')).toBe(false)
      expect(matches(80, 81)).toBe(false)
      expect(matches(80, 80.5)).toBe(false)
      expect(matches(0, undefined)).toBe(false)
    })

    it('a fractional pattern matches the float and a string parsing to it', () => {
      expect(matches(0.5, 0.5)).toBe(true)
      expect(matches(0.5, '0.5')).toBe(true)
      expect(matches(0.5, '5e-1')).toBe(true)
      expect(matches(0.5, 1)).toBe(false)
    })

    it('a string pattern matches a number through quantities: "80" matches 80, "1e3" matches 1000', () => {
      expect(matches('80', 80)).toBe(true)
      expect(matches('1e3', 1000)).toBe(true)
      expect(matches('1k', 1000)).toBe(true)
      expect(matches('80', 81)).toBe(false)
    })
  })

  describe('operators', () => {
    it.each([
      ['>1', 2, true],
      ['>1', 1, false],
      ['<1', 0, true],
      ['>=2', 2, true],
      ['>=2', 1, false],
      ['<=2', 2, true],
      ['<=2', 3, false],
      ['!2', 3, true],
      ['!2', 2, false],
      ['>= 2', 3, true],
    ])('%s with %j: %s', (pattern, value, expected) => {
      expect(matches(pattern, value)).toBe(expected)
    })

    it('orderings compare quantities by value across suffixes', () => {
      expect(matches('<=1Gi', '512Mi')).toBe(true)
      expect(matches('<=1Gi', '2Gi')).toBe(false)
      expect(matches('>100m', '0.2')).toBe(true)
      expect(matches('>100m', '50m')).toBe(false)
      expect(matches('<1', '500m')).toBe(true)
    })

    it('orderings compare durations by value', () => {
      expect(matches('<1h', '30m')).toBe(true)
      expect(matches('<1h', '1h30m')).toBe(false)
      expect(matches('>=90m', '1h30m')).toBe(true)
      expect(matches('1h30m', '90m')).toBe(true)
      expect(matches('>1s', '1500ms')).toBe(true)
    })

    it('orderings never hold for text that is neither a quantity nor a duration', () => {
      expect(matches('>1', 'abc')).toBe(false)
      expect(matches('<1h', 'soon')).toBe(false)
    })

    it('a missing field reads as 0 for an ordering (Kyverno converts no value to "0")', () => {
      expect(matches('<10', undefined)).toBe(true)
      expect(matches('>0', undefined)).toBe(false)
    })

    it('! negates a wildcard match, and never matches a missing field', () => {
      expect(matches('!*:latest', 'nginx:1.27')).toBe(true)
      expect(matches('!*:latest', 'nginx:latest')).toBe(false)
      expect(matches('!*:latest', undefined)).toBe(false)
      expect(matches('!default', 'kube-system')).toBe(true)
    })

    it('| is or, & is and; spaces around each part are ignored', () => {
      expect(matches('RuntimeDefault | Localhost', 'Localhost')).toBe(true)
      expect(matches('RuntimeDefault | Localhost', 'Unconfined')).toBe(false)
      expect(matches('>1 & <5', 3)).toBe(true)
      expect(matches('>1 & <5', 5)).toBe(false)
      expect(matches('<2 | >10 & <20', 15)).toBe(true)
      expect(matches('<2 | >10 & <20', 25)).toBe(false)
    })

    it('a-b is the closed range [a, b]; a!-b is outside it', () => {
      expect(matches('1-10', 1)).toBe(true)
      expect(matches('1-10', 10)).toBe(true)
      expect(matches('1-10', 11)).toBe(false)
      expect(matches('1!-10', 11)).toBe(true)
      expect(matches('1!-10', 0)).toBe(true)
      expect(matches('1!-10', 5)).toBe(false)
      expect(matches('100Mi-1Gi', '512Mi')).toBe(true)
      expect(matches('-10-10', -5)).toBe(true)
      expect(matches('30000-32767', 31000)).toBe(true)
    })

    it('a value equal to the whole pattern matches before the pattern is read as operators', () => {
      // `2020-01` reads as a range that nothing is in, but the very string matches.
      expect(matches('2020-01', '2020-01')).toBe(true)
      expect(matches('2020-01', '2020')).toBe(false)
    })

    it('a one-character pattern is literal text', () => {
      expect(matches('>', '>')).toBe(true)
      expect(matches('!', 'x')).toBe(false)
    })
  })

  it('does not read a value longer than 1000 characters as a quantity (it compares as text), so a hostile number cannot stall matching', () => {
    const huge = '9'.repeat(1_000_001)
    expect(matches('>0', huge)).toBe(false)
    expect(matches('>0', '9'.repeat(1000))).toBe(true)
  })
})
