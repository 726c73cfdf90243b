import { describe, expect, it } from 'vitest'
import { goDeepEqual } from '../../../src/engine/conditions/go-deep-equal.js'
import { toGoValue } from '../../../src/engine/conditions/go-value.js'

describe('toGoValue', () => {
  it('makes whole keys and values float64, whatever their origin', () => {
    expect(toGoValue(3, 3)).toBe(3)
    expect(toGoValue('{{ n }}', 3)).toBe(3)
  })

  it('makes integral numbers written inside a list or map int64', () => {
    expect(toGoValue([1, 1.5, 'a'], [1, 1.5, 'a'])).toEqual([1n, 1.5, 'a'])
    expect(toGoValue({ port: 80, nested: [[2]] }, { port: 80, nested: [[2]] })).toEqual({ port: 80n, nested: [[2n]] })
    expect(toGoValue([2 ** 63], [2 ** 63])).toEqual([2 ** 63])
  })

  it('keeps numbers produced by substitution float64, also inside a literal list', () => {
    expect(toGoValue('{{ ports }}', [80, 443])).toEqual([80, 443])
    expect(toGoValue(['{{ a }}', 2], [1, 2])).toEqual([1, 2n])
    expect(toGoValue({ a: '{{ a }}' }, { a: 5, b: 6 })).toEqual({ a: 5, b: 6 })
  })

  it('maps what JSON cannot hold to null', () => {
    expect(toGoValue(undefined, undefined)).toBeNull()
    expect(toGoValue('{{ f }}', () => 1)).toBeNull()
    expect(toGoValue('{{ n }}', 5n)).toBe(5n)
  })
})

describe('goDeepEqual', () => {
  it('compares like reflect.DeepEqual on decoded JSON', () => {
    expect(goDeepEqual({ a: [1n, 'x'] }, { a: [1n, 'x'] })).toBe(true)
    expect(goDeepEqual([1n], [1])).toBe(false)
    expect(goDeepEqual([1, 2], [2, 1])).toBe(false)
    expect(goDeepEqual({ a: null }, { b: null })).toBe(false)
    expect(goDeepEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false)
    expect(goDeepEqual([], {})).toBe(false)
    expect(goDeepEqual(null, null)).toBe(true)
    expect(goDeepEqual(NaN, NaN)).toBe(false)
  })
})
