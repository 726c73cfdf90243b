import { describe, expect, it } from 'vitest'
import { isRangePattern, matchesStringPattern } from '../../../src/engine/conditions/string-pattern.js'

describe('isRangePattern', () => {
  it.each([
    ['1-10', true],
    ['-5-5', true],
    ['0.5-1.5', true],
    ['256Mi-1Gi', true],
    ['+1-+2', true],
    ['a-b', false],
    ['1-', false],
    ['1!-10', false],
    ['>1-10', false],
    ['kube-system', false],
    ['1.1.1.1', false],
  ])('%s: %s', (text, expected) => {
    expect(isRangePattern(text)).toBe(expected)
  })
})

describe('matchesStringPattern', () => {
  it('checks inclusive ranges by number, quantity or duration', () => {
    expect(matchesStringPattern('5', '1-10')).toBe(true)
    expect(matchesStringPattern('1', '1-10')).toBe(true)
    expect(matchesStringPattern('10.5', '1-10')).toBe(false)
    expect(matchesStringPattern('512Mi', '256Mi-1Gi')).toBe(true)
    expect(matchesStringPattern('5', 'x')).toBe(false)
  })

  it('checks exclusions, comparisons, alternatives and conjunctions', () => {
    expect(matchesStringPattern('11', '1!-10')).toBe(true)
    expect(matchesStringPattern('5', '1!-10')).toBe(false)
    expect(matchesStringPattern('5', '>3 & <7')).toBe(true)
    expect(matchesStringPattern('8', '>3 & <7')).toBe(false)
    expect(matchesStringPattern('8', '<3 | >7')).toBe(true)
    expect(matchesStringPattern('90s', '>= 1m')).toBe(true)
    expect(matchesStringPattern('2Gi', '<= 1Gi')).toBe(false)
  })

  it('compares plain strings by glob for equality and negation only', () => {
    expect(matchesStringPattern('nginx', 'ng*')).toBe(true)
    expect(matchesStringPattern('nginx', '!ng*')).toBe(false)
    expect(matchesStringPattern('b', '>a')).toBe(false)
    expect(matchesStringPattern('>', '>')).toBe(true)
  })
})
