import { afterEach, describe, expect, it } from 'vitest'
import { getCelLimits, setCelLimits } from '../../../src/engine/cel/index.js'
import { evalCel, evalError } from './helpers.js'

const DEFAULTS = getCelLimits()
afterEach(() => setCelLimits(DEFAULTS))

describe('string functions that charge their result before building it', () => {
  it('replace keeps Go semantics for the empty pattern, with and without a limit', () => {
    expect(evalCel("''.replace('', '_')")).toBe('_')
    expect(evalCel("'abc'.replace('', '_')")).toBe('_a_b_c_')
    expect(evalCel("'abc'.replace('', '_', 2)")).toBe('_a_bc')
    expect(evalCel("'abc'.replace('', '_', 3)")).toBe('_a_b_c')
    expect(evalCel("'abc'.replace('', '_', 4)")).toBe('_a_b_c_')
    expect(evalCel("'a-b-c'.replace('-', '+', 1)")).toBe('a+b-c')
  })

  it('join with a separator keeps cel-js semantics', () => {
    expect(evalCel("['a', 'b', 'c'].join(', ')")).toBe('a, b, c')
    expect(evalCel("[].join(', ')")).toBe('')
    expect(evalCel("['a'].join(', ')")).toBe('a')
    expect(evalError("[1, 'b'].join(', ')").message).toMatch(/list must contain only strings/)
  })

  it('refuses a replace or join whose result would exceed the budget, before building it', () => {
    setCelLimits({ maxCost: 10_000, maxMillis: 600_000 })
    const spent = 'cost budget exceeded: the expression used more than 10000 cost units'
    expect(evalError("'abcdefgh'.replace('', object.sep)", { object: { sep: 'x'.repeat(20_000) } }).message).toBe(spent)
    expect(evalError("'a,b,c,d,e,f,g,h'.replace(',', object.sep)", { object: { sep: 'x'.repeat(20_000) } }).message).toBe(spent)
    expect(evalError("['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].join(object.sep)", { object: { sep: 'x'.repeat(20_000) } }).message).toBe(spent)
  })
})
