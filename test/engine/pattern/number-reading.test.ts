import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { toCelValue } from '../../../src/engine/cel/values.js'
import { compilePattern, matchPattern, type PatternOutcome } from '../../../src/engine/pattern/index.js'

/** Outcomes compared with BigInts read as numbers: a field's actual value is a BigInt on one side and a number on the other. */
function comparable(outcome: PatternOutcome): unknown {
  return JSON.parse(JSON.stringify(outcome, (_key, value: unknown) => (typeof value === 'bigint' ? Number(value) : value)))
}

const numbers = fc.oneof(
  fc.integer({ min: -70_000, max: 70_000 }),
  fc.constantFrom(0, -0, 1.5, -2.25, 8080, 1e20, 2 ** 63, -(2 ** 63), 2 ** 53 + 2, 1e-7, 0.1),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
)
const scalars = fc.oneof(numbers, fc.constantFrom('8080', '1', '', 'x', '1.5', '3m', '100Mi'), fc.boolean(), fc.constant(null))
const patternLeaves = fc.oneof(
  fc.constantFrom('80*', '>0', '<=10', '!5', '1-10', '!1-10', '?*', '*', '8.08e+03', '1*|x', '>=1Ki', '<1h', 'null', 'true', '1.5', '1'),
  fc.constantFrom(null, true, false, 0, 1, 8080, 1.5, -3, 1e20),
)
const patterns = fc.record({ a: patternLeaves, b: fc.array(patternLeaves, { minLength: 1, maxLength: 1 }), c: fc.record({ d: patternLeaves }) }, { requiredKeys: [] })
const resources = fc.record({ a: fc.oneof(scalars, fc.array(scalars, { maxLength: 3 })), b: fc.array(scalars, { maxLength: 3 }), c: fc.oneof(fc.record({ d: scalars }), scalars) }, { requiredKeys: [] })

describe('how patterns read numbers', () => {
  it('a JSON resource judges as the same resource decoded with int64 whole numbers', () => {
    fc.assert(
      fc.property(patterns, resources, (pattern, resource) => {
        const { pattern: compiled, problems } = compilePattern(pattern)
        if (problems.length > 0) return
        expect(comparable(matchPattern(compiled, resource))).toEqual(comparable(matchPattern(compiled, toCelValue(resource))))
      }),
      { numRuns: 3_000 },
    )
  })

  it('whole numbers are int64 in a resource and float64 in a JMESPath value, in matching and in messages', () => {
    const wildcard = compilePattern({ port: '80*' }).pattern
    expect(matchPattern(wildcard, { port: 8080 })).toEqual({ status: 'pass' })
    // Go prints a float64 as 8.08e+03 for the wildcard, while %v in the message reads 8080.
    expect(matchPattern(wildcard, { port: 8080 }, { wholeNumbers: 'float64' })).toEqual({
      status: 'fail',
      path: ['port'],
      reason: "resource value '8080' does not match '80*' at path /port/",
      field: { path: ['port'], actual: 8080, requirement: { kind: 'match', pattern: '80*' } },
    })
    const map = compilePattern({ spec: { limits: {} } }).pattern
    expect(matchPattern(map, { spec: { limits: 5 } })).toMatchObject({ reason: 'pattern and resource have different structures. Path: /spec/limits/. Expected map[string]interface {}, found int64' })
    expect(matchPattern(map, { spec: { limits: 5 } }, { wholeNumbers: 'float64' })).toMatchObject({ reason: 'pattern and resource have different structures. Path: /spec/limits/. Expected map[string]interface {}, found float64' })
    // Beyond int64 a whole number stays a float64, as Kubernetes decodes it.
    expect(matchPattern(map, { spec: { limits: 1e20 } })).toMatchObject({ reason: expect.stringMatching(/found float64$/) })
    const list = compilePattern({ ports: ['1-10'] }).pattern
    expect(matchPattern(list, { ports: [1, 20] })).toMatchObject({ reason: "resource value '[1 20]' does not match '1-10' at path /ports/" })
    expect(matchPattern(list, { ports: [1, 2.5e7] }, { wholeNumbers: 'float64' })).toMatchObject({ reason: "resource value '[1 2.5e+07]' does not match '1-10' at path /ports/" })
  })
})
