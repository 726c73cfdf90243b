import { describe, expect, it } from 'vitest'
import { evaluateConditions } from '../../../../src/engine/conditions/index.js'
import { holds, resolverOf } from '../support.js'

describe('In (deprecated)', () => {
  it('finds a scalar key in a list, numbers as Go prints them, globs either way', () => {
    expect(holds('In', 1, [1, 2, 3])).toBe(true)
    expect(holds('In', 1.5, [1, 1.5, 2, 3])).toBe(true)
    expect(holds('In', 5, [1, 2, 3])).toBe(false)
    expect(holds('In', '1', ['1', '2', '3'])).toBe(true)
    expect(holds('In', true, ['true', 'false'])).toBe(true)
    expect(holds('In', '1.1.1.1', ['1*'])).toBe(true)
    expect(holds('In', 'grape', [])).toBe(false)
  })

  it('finds a scalar key in a string value by glob, or in the JSON list of strings it holds', () => {
    expect(holds('In', 'hello-world', 'hello-*')).toBe(true)
    expect(holds('In', 'apple', '["apple", "banana"]')).toBe(true)
    expect(holds('In', 'grape', '["apple", "banana"]')).toBe(false)
  })

  it('wants every element of a list key, exactly (no globs), among the values', () => {
    expect(holds('In', ['1.1.1.1', '2.2.2.2'], ['1.1.1.1', '2.2.2.2', '3.3.3.3'])).toBe(true)
    expect(holds('In', ['1.1.1.1', '4.4.4.4'], ['1.1.1.1', '2.2.2.2', '3.3.3.3'])).toBe(false)
    expect(holds('In', ['a', 'b'], '["a", "b", "c"]')).toBe(true)
    expect(holds('In', ['a*'], ['abc'])).toBe(false)
    expect(holds('In', [], ['a'])).toBe(true)
  })

  it('is false for a value it cannot read: a number, a string that is neither a match nor JSON, a list with a non-string for a list key', () => {
    expect(holds('In', 'apple', 12345)).toBe(false)
    expect(holds('In', 'a', 'b')).toBe(false)
    expect(holds('In', ['a'], ['a', 1])).toBe(false)
    expect(holds('In', { a: 'b' }, ['a'])).toBe(false)
  })

  it('fails, as Kyverno does, on a list key holding anything but strings', () => {
    const result = evaluateConditions({ any: [{ key: [1, 2], operator: 'In', value: ['1', '2'] }] }, resolverOf(), 'spec.rules[0].preconditions')
    expect(result.error?.path).toBe('spec.rules[0].preconditions.any[0]')
    expect(result.error?.message).toMatch(/In takes a list key only of strings/)
  })
})

describe('NotIn (deprecated)', () => {
  it('negates In for readable values', () => {
    expect(holds('NotIn', 1, [1, 2, 3])).toBe(false)
    expect(holds('NotIn', 5, [1, 2, 3])).toBe(true)
    expect(holds('NotIn', '5', ['1', '2', '3'])).toBe(true)
    expect(holds('NotIn', ['1.1.1.1', '2.2.2.2'], ['1.1.1.1', '2.2.2.2', '3.3.3.3'])).toBe(false)
    expect(holds('NotIn', ['1.1.1.1', '4.4.4.4'], ['1.1.1.1', '2.2.2.2', '3.3.3.3'])).toBe(true)
  })

  it('keeps Kyverno\'s odd answers: false for unreadable values, and a one-element key equal to the value is "not in"', () => {
    expect(holds('NotIn', 'a', 'b')).toBe(false)
    expect(holds('NotIn', 'apple', 12345)).toBe(false)
    expect(holds('NotIn', ['a'], 'a')).toBe(true)
  })
})
