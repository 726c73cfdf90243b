import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { evaluateConditions, evaluatePreparedConditions, prepareConditions, type Condition } from '../../../src/engine/conditions/index.js'
import { parseGoDuration } from '../../../src/engine/conditions/go-duration.js'
import { parseGoFloat } from '../../../src/engine/conditions/go-parse-float.js'
import { formatGoFloat } from '../../../src/engine/conditions/go-sprint.js'
import { holds } from './support.js'

/** Strings that exercise every reading: globs, numbers, quantities, durations, versions, JSON. */
const text = fc.oneof(
  fc.string({ unit: fc.constantFrom('a', 'b', '*', '?', '1', '0', '.', '-'), maxLength: 6 }),
  fc.constantFrom('1Gi', '1024Mi', '500m', '0.5', '1h', '60m', '3600', '1.2.3', '1.10.0', '0', '["a","b"]', 'null', 'true', '1-10', ''),
)
const scalar = fc.oneof(text, fc.integer({ min: -5, max: 5 }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean())
const json = fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }), fc.dictionary(fc.constantFrom('a', 'b'), scalar, { maxKeys: 2 }))
/** Items without digits or dashes, so no string reads as a number, quantity, range or JSON. */
const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '*', '?'), maxLength: 4 })
const item = fc.oneof(word, fc.boolean(), fc.integer({ min: 0, max: 3 }))
const runs = { numRuns: 500 }

describe('properties of the operators', () => {
  it('NotEquals is the negation of Equals for every key but null', () => {
    fc.assert(
      fc.property(json, json, (key, value) => {
        expect(holds('NotEquals', key, value)).toBe(!holds('Equals', key, value))
      }),
      runs,
    )
  })

  it('Equals holds between any string, number or boolean and itself', () => {
    fc.assert(
      fc.property(fc.oneof(text, fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean()), (value) => {
        expect(holds('Equals', value, value)).toBe(true)
      }),
      runs,
    )
  })

  it('AnyNotIn is the negation of AllIn, and AllNotIn of AnyIn, for lists of plain items', () => {
    fc.assert(
      fc.property(fc.oneof(item, fc.array(word, { maxLength: 3 })), fc.array(item, { maxLength: 3 }), (key, value) => {
        expect(holds('AnyNotIn', key, value)).toBe(!holds('AllIn', key, value))
        expect(holds('AllNotIn', key, value)).toBe(!holds('AnyIn', key, value))
      }),
      runs,
    )
  })

  it('a single key item is in a value for AnyIn exactly when it is for AllIn', () => {
    fc.assert(
      fc.property(item, fc.oneof(word, fc.array(item, { maxLength: 3 })), (key, value) => {
        expect(holds('AnyIn', key, value)).toBe(holds('AllIn', key, value))
      }),
      runs,
    )
  })

  it('AnyIn over a list key is some element in, AllIn every element in', () => {
    fc.assert(
      fc.property(fc.array(word, { maxLength: 3 }), fc.array(word, { maxLength: 3 }), (key, value) => {
        const each = key.map((element) => holds('AnyIn', element, value))
        expect(holds('AnyIn', key, value)).toBe(each.some(Boolean))
        expect(holds('AllIn', key, value)).toBe(each.every(Boolean))
      }),
      runs,
    )
  })

  it('a range a-b holds the integers from a to b, and AnyNotIn asks the opposite (for a lower bound of at least 0)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 50 }), fc.integer({ min: -60, max: 60 }), (low, width, n) => {
        const range = `${low}-${low + width}`
        const inside = n >= low && n <= low + width
        expect(holds('AnyIn', n, range)).toBe(inside)
        expect(holds('AnyIn', [n], range)).toBe(inside)
        expect(holds('AnyNotIn', [n], range)).toBe(!inside)
        expect(holds('AllNotIn', [n], range)).toBe(!inside)
      }),
      runs,
    )
  })

  it('orders quantities as their amounts', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4096 }), fc.integer({ min: 0, max: 4096 }), (a, b) => {
        expect(holds('GreaterThan', `${a}Mi`, `${b}Mi`)).toBe(a > b)
        expect(holds('LessThanOrEquals', `${a}Ki`, `${b * 1024}`)).toBe(a <= b)
        expect(holds('Equals', `${a}Gi`, `${a * 1024}Mi`)).toBe(true)
      }),
      runs,
    )
  })

  it('orders durations as their lengths, however they are split into units', () => {
    fc.assert(
      fc.property(fc.nat(48), fc.nat(120), fc.nat(120), fc.nat(10_000), (h, m, s, seconds) => {
        const total = h * 3600 + m * 60 + s
        const written = `${h}h${m}m${s}s`
        expect(parseGoDuration(written)).toBe(BigInt(total) * 1_000_000_000n)
        expect(holds('Equals', written, total)).toBe(true)
        expect(holds('GreaterThan', written, seconds)).toBe(total > seconds)
        expect(holds('DurationLessThan', written, `${seconds}s`)).toBe(total < seconds)
      }),
      runs,
    )
  })

  it('reads back every float it prints', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        expect(parseGoFloat(formatGoFloat(value))).toBe(value)
      }),
      { numRuns: 2000 },
    )
  })
})

describe('properties of any and all', () => {
  const condition = (holdsIt: boolean): Condition => ({ key: 'x', operator: 'Equals', value: holdsIt ? 'x' : 'y' })

  it('any is some, all is every, and both must hold', () => {
    fc.assert(
      fc.property(fc.option(fc.array(fc.boolean(), { maxLength: 4 }), { nil: undefined }), fc.option(fc.array(fc.boolean(), { maxLength: 4 }), { nil: undefined }), (any, all) => {
        const block = { ...(any === undefined ? {} : { any: any.map(condition) }), ...(all === undefined ? {} : { all: all.map(condition) }) }
        const expected = (any === undefined || any.some(Boolean)) && (all === undefined || all.every(Boolean))
        expect(evaluateConditions(block, (raw) => raw).passed).toBe(expected)
        if (any === undefined && all !== undefined) expect(evaluateConditions(all.map(condition), (raw) => raw).passed).toBe(expected)
      }),
      runs,
    )
  })
})

describe('conditions prepared with their literal operands read once', () => {
  const operators = ['Equals', 'NotEquals', 'AnyIn', 'AllIn', 'AnyNotIn', 'AllNotIn', 'anynotin', 'In', 'NotIn', 'GreaterThan', 'DurationLessThan'] as const
  // What a rule compiling in the classic engine does: operands without `{{` are literals, prepared before any request.
  const literals = { isLiteral: (raw: unknown) => typeof raw !== 'string' || !raw.includes('{{') }

  it('agree with conditions read at every evaluation, for every operator and operand', () => {
    fc.assert(
      fc.property(fc.constantFrom(...operators), json, json, (operator, key, value) => {
        const block = { all: [{ key, operator, value }] }
        const identity = (raw: unknown): unknown => raw
        expect(evaluatePreparedConditions(prepareConditions(block, '', literals), identity)).toEqual(evaluateConditions(block, identity))
      }),
      runs,
    )
  })
})
