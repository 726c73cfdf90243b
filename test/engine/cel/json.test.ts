import { afterEach, describe, expect, it } from 'vitest'
import { CelCompileError, CelEvaluationError, compileCel, getCelLimits, setCelLimits } from '../../../src/engine/cel/index.js'
import { MAX_JSON_DEPTH, MAX_JSON_LENGTH } from '../../../src/engine/cel/libraries/json.js'
import { evalCel, evalError } from './helpers.js'

const DEFAULTS = getCelLimits()

afterEach(() => setCelLimits(DEFAULTS))

const decode = (text: string): unknown => evalCel('json.decode(object.text)', { object: { text } })
const decodeError = (text: string): Error => evalError('json.decode(object.text)', { object: { text } })

describe('json.decode', () => {
  it('decodes every JSON value', () => {
    expect(decode('{"a": "x", "b": [true, false, null], "c": {"d": {}}}')).toEqual({ a: 'x', b: [true, false, null], c: { d: {} } })
    expect(decode('[]')).toEqual([])
    expect(decode(' "text\\n\\u00e9" ')).toBe('text\né')
    expect(decode('true')).toBe(true)
    expect(decode('null')).toBe(null)
  })

  it('converts numbers as input documents are: whole numbers within int64 are ints', () => {
    expect(decode('[0, 1, -7, 1.0, 1e3, 70000, 9007199254740993]')).toEqual([0n, 1n, -7n, 1n, 1000n, 70000n, 9007199254740992n])
    expect(decode('[1.5, -0.25, 1e300]')).toEqual([1.5, -0.25, 1e300])
    expect(decode('9223372036854775808')).toBe(9223372036854775808)
    expect(evalCel('json.decode(\'{"port": 443}\').port == 443')).toBe(true)
    expect(evalCel('json.decode(\'{"ratio": 0.5}\').ratio > 0.25')).toBe(true)
  })

  it('reads an IAM policy document embedded in a string', () => {
    const policy = JSON.stringify({
      Version: '2012-10-17',
      Statement: [
        { Sid: 'Read', Effect: 'Allow', Action: ['s3:GetObject'], Resource: 'arn:aws:s3:::logs/*' },
        { Sid: 'Admin', Effect: 'Allow', Action: '*', Resource: '*' },
      ],
    })
    const object = { values: { policy } }
    expect(evalCel("json.decode(object.values.policy).Statement.exists(s, s.Effect == 'Allow' && s.Action == '*')", { object })).toBe(true)
    expect(evalCel('json.decode(object.values.policy).Statement.map(s, s.Sid)', { object })).toEqual(['Read', 'Admin'])
    expect(evalCel("json.decode(object.values.policy).?Statement[0].?Condition.orValue('none')", { object })).toBe('none')
  })

  it('raises an error for text that is not JSON', () => {
    expect(decodeError('{"Statement": [').message).toBe('json.decode: invalid JSON: Unexpected end of JSON input (at 1:1)')
    expect(decodeError('').message).toBe('json.decode: invalid JSON: Unexpected end of JSON input (at 1:1)')
    expect(decodeError("{'a': 1}").message).toMatch(/^json\.decode: invalid JSON: /)
    expect(decodeError('[1, 2,]').message).toMatch(/^json\.decode: invalid JSON: /)
    expect(decodeError('NaN').message).toMatch(/^json\.decode: invalid JSON: /)
    expect(decodeError('{"a": 1} trailing').message).toMatch(/^json\.decode: invalid JSON: /)
    expect(decodeError('[]]').message).toMatch(/^json\.decode: invalid JSON: /)
  })

  it('the error is not swallowed into a pass: a rule reading bad JSON errs', () => {
    expect(decodeError('{').constructor).toBe(CelEvaluationError)
    expect(evalError("json.decode(object.text).?a.orValue('') == ''", { object: { text: 'not json' } }).message).toMatch(/^json\.decode: invalid JSON: /)
  })

  it(`refuses text longer than ${MAX_JSON_LENGTH} characters`, () => {
    const padded = (length: number): string => `"${'a'.repeat(length - 2)}"`
    // Decoding a whole mebibyte is beyond the default budget (a few milliseconds, ~330,000 units); this is about length.
    setCelLimits({ maxCost: 1_000_000, maxMillis: 60_000 })
    expect(decode(padded(MAX_JSON_LENGTH))).toHaveLength(MAX_JSON_LENGTH - 2)
    expect(decodeError(padded(MAX_JSON_LENGTH + 1)).message).toBe(
      `json.decode: the text is ${MAX_JSON_LENGTH + 1} characters long, more than the limit of ${MAX_JSON_LENGTH} (at 1:1)`,
    )
  })

  it(`refuses values nested more than ${MAX_JSON_DEPTH} levels deep`, () => {
    const nested = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth)
    expect(evalCel('size(json.decode(object.text))', { object: { text: nested(MAX_JSON_DEPTH) } })).toBe(1n)
    expect(decodeError(nested(MAX_JSON_DEPTH + 1)).message).toBe(`json.decode: the value is nested more than ${MAX_JSON_DEPTH} levels deep (at 1:1)`)
    expect(decodeError('{"a":'.repeat(100_000)).message).toBe(`json.decode: the value is nested more than ${MAX_JSON_DEPTH} levels deep (at 1:1)`)
    // Deep but unbalanced text is refused before parsing, too.
    expect(decodeError('['.repeat(500_000)).message).toBe(`json.decode: the value is nested more than ${MAX_JSON_DEPTH} levels deep (at 1:1)`)
  })

  it('does not count brackets inside strings, escaped quotes included', () => {
    const brackets = '[['.repeat(MAX_JSON_DEPTH)
    expect(decode(JSON.stringify({ text: brackets }))).toEqual({ text: brackets })
    expect(decode(JSON.stringify({ text: `\\"${brackets}` }))).toEqual({ text: `\\"${brackets}` })
    expect(decode(JSON.stringify([`"${brackets}"`]))).toEqual([`"${brackets}"`])
  })

  it('keeps __proto__ an ordinary key and exposes own keys only', () => {
    const decoded = decode('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>
    expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype)
    expect(Object.keys(decoded)).toEqual(['__proto__', 'a'])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(evalCel('json.decode(object.text).size()', { object: { text: '{"__proto__": {"polluted": true}}' } })).toBe(1n)
    expect(evalCel("json.decode(object.text)['__proto__'].polluted", { object: { text: '{"__proto__": {"polluted": true}}' } })).toBe(true)
    expect(evalCel("'constructor' in json.decode('{}')")).toBe(false)
    expect(evalCel("json.decode('{}').?toString.hasValue()")).toBe(false)
    expect(evalError("json.decode('{}').constructor").message).toBe('No such key: constructor (at 1:19)')
  })

  it('takes a string only', () => {
    expect(() => compileCel('json.decode(1)')).toThrow(CelCompileError)
    expect(evalError('json.decode(object.n)', { object: { n: 1 } })).toBeInstanceOf(CelEvaluationError)
  })

  it('charges the text length to the cost budget', () => {
    setCelLimits({ maxCost: 200, maxMillis: 60_000 })
    expect(decode(`"${'a'.repeat(500)}"`)).toHaveLength(500)
    expect(decodeError(`"${'a'.repeat(5_000)}"`).message).toBe('cost budget exceeded: the expression used more than 200 cost units')
  })
})
