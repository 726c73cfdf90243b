import { describe, expect, it } from 'vitest'
import { compileCel } from '../../../src/engine/cel/index.js'
import { evalCel, evalError } from './helpers.js'

describe('Kubernetes list library', () => {
  it('isSorted', () => {
    expect(evalCel('[1, 2, 2, 3].isSorted()')).toBe(true)
    expect(evalCel('[3, 1].isSorted()')).toBe(false)
    expect(evalCel("['a', 'b'].isSorted()")).toBe(true)
    expect(evalCel('[].isSorted()')).toBe(true)
    expect(evalCel('object.l.isSorted()', { object: { l: [1, 1.5, 2] } })).toBe(true)
  })

  it('sum', () => {
    expect(evalCel('[1, 2, 3].sum()')).toBe(6n)
    expect(evalCel('[1.5, 2.25].sum()')).toBe(3.75)
    expect(evalCel('[].sum()')).toBe(0n)
    expect(evalCel('[uint(1), uint(2)].sum() == uint(3)')).toBe(true)
    expect(evalCel("[duration('1m'), duration('30s')].sum() == duration('90s')")).toBe(true)
    expect(evalError('object.l.sum()', { object: { l: [1, 'a'] } }).message).toBe('no such overload: sum() over a list mixing int with other types (at 1:1)')
    expect(evalError('[9223372036854775807, 1].sum()').message).toBe('integer overflow in sum() (at 1:1)')
  })

  it('min and max', () => {
    expect(evalCel('[3, 1, 2].min()')).toBe(1n)
    expect(evalCel('[3, 1, 2].max()')).toBe(3n)
    expect(evalCel("['b', 'a', 'c'].max()")).toBe('c')
    expect(evalCel('object.l.max()', { object: { l: [1, 2.5, 2] } })).toBe(2.5)
    expect(evalError("object.l.max()", { object: { l: [1, 'a'] } }).message).toBe('no such overload: cannot compare string with int (at 1:1)')
    expect(evalError('[].min()').message).toBe('min called on empty list (at 1:1)')
    expect(evalError('object.l.max()', { object: { l: [{}, {}] } }).message).toBe("found no matching overload for 'list.max()' (at 1:1)")
  })

  it('indexOf and lastIndexOf', () => {
    expect(evalCel('[1, 2, 3, 2].indexOf(2)')).toBe(1n)
    expect(evalCel('[1, 2, 3, 2].lastIndexOf(2)')).toBe(3n)
    expect(evalCel('[1, 2].indexOf(4)')).toBe(-1n)
    expect(evalCel('[1, 2].indexOf(2.0)')).toBe(1n)
    expect(evalCel("[{'a': 1}, {'a': 2}].indexOf({'a': 2})")).toBe(1n)
    expect(evalCel("object.l.indexOf('b')", { object: { l: ['a', 'b'] } })).toBe(1n)
  })

  it('includes', () => {
    expect(evalCel('[1, 2].includes(2)')).toBe(true)
    expect(evalCel("['a'].includes('b')")).toBe(false)
  })

  it('keeps join from cel-js', () => {
    expect(evalCel("['a', 'b'].join('-')")).toBe('a-b')
    expect(evalCel("['a', 'b'].join()")).toBe('ab')
  })
})

describe('cel-go ext lists', () => {
  it('distinct, flatten, reverse, slice, sort', () => {
    expect(evalCel('[1, 2, 1, 2.0, 3].distinct()')).toEqual([1n, 2n, 3n])
    expect(evalCel('[1, [2, [3]], 4].flatten()')).toEqual([1n, 2n, [3n], 4n])
    expect(evalCel('[1, [2, [3]], 4].flatten(2)')).toEqual([1n, 2n, 3n, 4n])
    expect(evalCel('[1, 2, 3].reverse()')).toEqual([3n, 2n, 1n])
    expect(evalCel('[1, 2, 3, 4].slice(1, 3)')).toEqual([2n, 3n])
    expect(evalError('[1].slice(0, 2)').message).toBe('cannot slice(0, 2), list is length 1 (at 1:1)')
    expect(evalCel("['b', 'c', 'a'].sort()")).toEqual(['a', 'b', 'c'])
  })

  it('first, last and lists.range', () => {
    expect(evalCel('[1, 2].first().value()')).toBe(1n)
    expect(evalCel('[1, 2].last().value()')).toBe(2n)
    expect(evalCel('[].first().hasValue()')).toBe(false)
    expect(evalCel('lists.range(3)')).toEqual([0n, 1n, 2n])
  })

  it('type-checks the result of typed lists', () => {
    expect(() => compileCel("[1, 2].max() + 'a'")).toThrow('no such overload: int + string')
  })
})
