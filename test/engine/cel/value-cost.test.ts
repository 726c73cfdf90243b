import { describe, expect, it } from 'vitest'
import { resultCost, walkCost } from '../../../src/engine/cel/value-cost.js'

describe('what a value costs', () => {
  it('charges an operation one unit plus one per 16 characters or 4 slots it built', () => {
    expect(resultCost(true)).toBe(1)
    expect(resultCost(7n)).toBe(1)
    expect(resultCost('a'.repeat(15))).toBe(1)
    expect(resultCost('a'.repeat(160))).toBe(11)
    expect(resultCost(Array.from({ length: 40 }, () => 0))).toBe(11)
    expect(resultCost(new Map([['a', 1]]))).toBe(1)
  })

  it('walks every part of a value: strings by length, lists and maps by entries', () => {
    expect(walkCost(12n)).toBe(0)
    expect(walkCost('a'.repeat(64))).toBe(4)
    expect(walkCost({ name: 'a'.repeat(32), items: [1, 2, 3, 4] })).toBe(1 + 0 + 2 + (1 + 1))
  })

  it('counts a shared part as often as it appears, without walking it again', () => {
    let list: unknown[] = ['a'.repeat(16)]
    for (let i = 0; i < 60; i++) list = [list, list]
    // Sixty doublings of a one-unit string: 2^60 units, worked out in sixty steps.
    expect(walkCost(list)).toBeGreaterThan(2 ** 60)
  })
})
