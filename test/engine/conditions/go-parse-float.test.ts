import { describe, expect, it } from 'vitest'
import { parseGoFloat } from '../../../src/engine/conditions/go-parse-float.js'

describe('parseGoFloat', () => {
  it.each([
    ['1', 1],
    ['-1.5', -1.5],
    ['+2', 2],
    ['.5', 0.5],
    ['5.', 5],
    ['1e3', 1000],
    ['1E-2', 0.01],
    ['1.e2', 100],
    ['1_000', 1000],
    ['1_000.000_1', 1000.0001],
    ['0x1p4', 16],
    ['0x1.8p1', 3],
    ['-0x_1p-2', -0.25],
    ['inf', Infinity],
    ['-Infinity', -Infinity],
    ['+INF', Infinity],
    ['1e-400', 0],
  ])('reads %s', (text, value) => {
    expect(parseGoFloat(text)).toBe(value)
  })

  it('reads NaN in any case, but not with a sign', () => {
    expect(parseGoFloat('NaN')).toBeNaN()
    expect(parseGoFloat('nan')).toBeNaN()
    expect(parseGoFloat('+nan')).toBeUndefined()
  })

  it.each(['', ' 1', '1 ', '1e', '1e+', '.', '+', '_1', '1_', '1__0', '1_.5', '0x10', '0x', '0b101', '0o7', 'infin', '1e400', '1.2.3', 'Infinityx', '１'])('refuses %j', (text) => {
    expect(parseGoFloat(text)).toBeUndefined()
  })

  it('answers a long run of digits from the cluster in linear time', () => {
    // No clock here: a backtracking or quadratic implementation would not end within the test's timeout.
    expect(parseGoFloat(`${'1'.repeat(300_000)}x`)).toBeUndefined()
    expect(parseGoFloat(`0x${'1'.repeat(300_000)}x`)).toBeUndefined()
    expect(parseGoFloat(`${'1'.repeat(300_000)}.5`)).toBeUndefined()
  })
})
