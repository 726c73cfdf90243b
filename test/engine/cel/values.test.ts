import { describe, expect, it } from 'vitest'
import { celValueToString, fromCelValue, toCelValue } from '../../../src/engine/cel/index.js'
import { evalCel } from './helpers.js'

describe('toCelValue', () => {
  it('turns whole numbers into BigInt, deeply', () => {
    expect(toCelValue({ a: 1, b: [2, 2.5, { c: -3 }], d: 'x', e: null, f: true })).toEqual({ a: 1n, b: [2n, 2.5, { c: -3n }], d: 'x', e: null, f: true })
  })

  it('keeps whole numbers outside int64 as doubles', () => {
    expect(toCelValue(1e20)).toBe(1e20)
    expect(toCelValue(2 ** 53)).toBe(9007199254740992n)
  })

  it('copies nothing when there is nothing to convert', () => {
    const input = { metadata: { name: 'web', labels: { app: 'web' } }, list: ['a', 'b'] }
    const output = toCelValue(input) as typeof input
    expect(output).toBe(input)
  })

  it('copies only the containers on the path to a converted number', () => {
    const input = { metadata: { name: 'web' }, spec: { replicas: 2 } }
    const output = toCelValue(input) as Record<string, unknown>
    expect(output).not.toBe(input)
    expect(output.metadata).toBe(input.metadata)
    expect(input.spec.replicas).toBe(2)
  })

  it('keeps a __proto__ key as data', () => {
    const input = JSON.parse('{"__proto__": {"n": 1}}') as Record<string, unknown>
    const output = toCelValue(input) as Record<string, unknown>
    expect(Object.getPrototypeOf(output)).toBe(Object.prototype)
    expect(Object.getOwnPropertyDescriptor(output, '__proto__')?.value).toEqual({ n: 1n })
  })
})

describe('fromCelValue', () => {
  it('turns CEL results back into JSON', () => {
    expect(fromCelValue(evalCel("{'a': [1, 2.5, true, null], 'b': {'c': 'd'}}"))).toEqual({ a: [1, 2.5, true, null], b: { c: 'd' } })
  })

  it('writes unsafe integers as strings', () => {
    expect(fromCelValue(9223372036854775807n)).toBe('9223372036854775807')
    expect(fromCelValue(evalCel('uint(18446744073709551615)'))).toBe('18446744073709551615')
    expect(fromCelValue(evalCel('uint(7)'))).toBe(7)
  })

  it('unwraps optionals, maps, bytes, timestamps, durations, types and library values', () => {
    expect(fromCelValue(evalCel('optional.of(1)'))).toBe(1)
    expect(fromCelValue(evalCel('optional.none()'))).toBeNull()
    expect(fromCelValue(evalCel("['a', 'b'].transformMap(i, v, v)"))).toEqual({ 0: 'a', 1: 'b' })
    expect(fromCelValue(evalCel("b'hi'"))).toBe('aGk=')
    expect(fromCelValue(evalCel("timestamp('2024-01-02T03:04:05Z')"))).toBe('2024-01-02T03:04:05Z')
    expect(fromCelValue(evalCel("duration('90s')"))).toBe('90s')
    expect(fromCelValue(evalCel('type(1)'))).toBe('int')
    expect(fromCelValue(evalCel("quantity('1Gi')"))).toBe('1Gi')
    expect(fromCelValue(evalCel("cidr('10.0.0.0/8').ip()"))).toBe('10.0.0.0')
    expect(fromCelValue(Number.NaN)).toBe('NaN')
  })
})

describe('celValueToString', () => {
  it('prints values the way %s does', () => {
    expect(celValueToString('plain')).toBe('plain')
    expect(celValueToString(42n)).toBe('42')
    expect(celValueToString(1.5)).toBe('1.5')
    expect(celValueToString(1e21)).toBe('1000000000000000000000')
    expect(celValueToString(2e-9)).toBe('0.000000002')
    expect(celValueToString(true)).toBe('true')
    expect(celValueToString(null)).toBe('null')
    expect(celValueToString(evalCel("[1, 'a', [2.0]]"))).toBe('[1, a, [2]]')
    expect(celValueToString(evalCel("{'b': 1, 'a': 'x'}"))).toBe('{a: x, b: 1}')
    expect(celValueToString(evalCel("duration('1h')"))).toBe('3600s')
    expect(celValueToString(evalCel("timestamp('2024-01-02T03:04:05.120Z')"))).toBe('2024-01-02T03:04:05.12Z')
    expect(celValueToString(evalCel("quantity('500m')"))).toBe('500m')
    expect(celValueToString(evalCel('optional.none()'))).toBe('optional.none()')
  })
})
