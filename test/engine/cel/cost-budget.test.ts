import { afterEach, describe, expect, it } from 'vitest'
import { CelEvaluationError, compileCel, getCelLimits, setCelLimits, toCelValue, type CelActivation } from '../../../src/engine/cel/index.js'
import { evalCel, evalError } from './helpers.js'

const items = Array.from({ length: 2000 }, (_, i) => i)
const DEFAULTS = getCelLimits()

afterEach(() => setCelLimits(DEFAULTS))

describe('cost budget', () => {
  it('defaults to 100,000 units and 50 ms', () => {
    expect(DEFAULTS).toEqual({ maxCost: 100_000, maxMillis: 50 })
  })

  it('stops a runaway nested comprehension with an error', () => {
    const error = evalError('object.items.all(a, object.items.all(b, object.items.all(c, a + b + c >= 0)))', { object: { items } })
    expect(error).toBeInstanceOf(CelEvaluationError)
    expect(error.message).toMatch(/^cost budget exceeded: /)
  })

  it('counts iterations against maxCost', () => {
    setCelLimits({ maxCost: 5_000, maxMillis: 60_000 })
    expect(evalCel('object.items.all(a, a >= 0)', { object: { items } })).toBe(true)
    expect(evalError('object.items.all(a, object.items.all(b, true))', { object: { items } }).message).toBe(
      'cost budget exceeded: the expression used more than 5000 cost units',
    )
  })

  it('stops on the time limit', () => {
    setCelLimits({ maxCost: 1e12, maxMillis: 5 })
    expect(evalError('object.items.all(a, object.items.all(b, a + b >= 0))', { object: { items } }).message).toBe(
      'cost budget exceeded: the expression ran longer than 5 ms',
    )
  })

  it('is not swallowed by || or by an enclosing all()', () => {
    setCelLimits({ maxCost: 5_000, maxMillis: 60_000 })
    const runaway = 'object.items.all(a, object.items.all(b, true))'
    expect(evalError(`${runaway} || true`, { object: { items } }).message).toMatch(/^cost budget exceeded/)
    expect(evalError(`[1, 2].all(x, x == 2 || ${runaway})`, { object: { items } }).message).toMatch(/^cost budget exceeded/)
  })

  it('charges string and list functions by size', () => {
    setCelLimits({ maxCost: 2_000, maxMillis: 60_000 })
    const big = 'a'.repeat(40_000)
    expect(evalError("object.s.matches('b')", { object: { s: big } }).message).toMatch(/^cost budget exceeded/)
    expect(evalError('object.items.sum() > 0 && object.items.sum() > 0', { object: { items } }).message).toMatch(/^cost budget exceeded/)
  })

  it('starts afresh for every evaluation', () => {
    setCelLimits({ maxCost: 3_000, maxMillis: 60_000 })
    const program = compileCel('object.items.all(a, a >= 0)')
    const activation: CelActivation = { object: toCelValue({ items }) }
    for (let i = 0; i < 5; i++) expect(program.evaluate(activation)).toBe(true)
  })

  it('shares the budget with lazily evaluated variables', () => {
    setCelLimits({ maxCost: 3_000, maxMillis: 60_000 })
    const inner = compileCel('object.items.all(a, a >= 0)')
    const activation: CelActivation = { object: toCelValue({ items }) }
    activation.variables = Object.defineProperty({}, 'check', { enumerable: true, get: () => inner.evaluate(activation) })
    expect(compileCel('variables.check').evaluate(activation)).toBe(true)
    expect(() => compileCel('object.items.all(a, a >= 0) && variables.check').evaluate(activation)).toThrow(/cost budget exceeded/)
  })

  it('ends the short-circuiting example at once', () => {
    // a == b == c for the first elements, so the innermost all() is false immediately.
    expect(evalCel('object.items.all(a, object.items.all(b, object.items.all(c, a != b || b != c)))', { object: { items } })).toBe(false)
  })

  it('rejects non-positive limits', () => {
    expect(() => setCelLimits({ maxCost: 0 })).toThrow(RangeError)
  })
})
