import { describe, expect, it } from 'vitest'
import { parseAnchor } from '../../../src/engine/pattern/anchor.js'
import { parseGoDuration } from '../../../src/engine/pattern/duration.js'
import { formatGoFloatE, formatGoFloatF, formatGoFloatV, parseGoFloat, parseGoInt } from '../../../src/engine/pattern/go-number.js'
import { compareGoStrings, formatGoValue } from '../../../src/engine/pattern/go-text.js'
import { matchesWildcard } from '../../../src/engine/pattern/wildcard.js'

describe('the Go behaviour Kyverno patterns rest on', () => {
  it('anchors: (key), =(key), ^(key), X(key), <(key), +(key); spaces around the key are forgiven, an empty key is no anchor', () => {
    expect(parseAnchor('(name)')).toEqual({ kind: 'condition', key: 'name' })
    expect(parseAnchor('=(hostPath)')).toEqual({ kind: 'equality', key: 'hostPath' })
    expect(parseAnchor('^(containers)')).toEqual({ kind: 'existence', key: 'containers' })
    expect(parseAnchor('X(hostPath)')).toEqual({ kind: 'negation', key: 'hostPath' })
    expect(parseAnchor('<(image)')).toEqual({ kind: 'global', key: 'image' })
    expect(parseAnchor('+(team)')).toEqual({ kind: 'addIfNotPresent', key: 'team' })
    expect(parseAnchor(' =(a) ')).toEqual({ kind: 'equality', key: 'a' })
    expect(parseAnchor('()')).toBeUndefined()
    expect(parseAnchor('name')).toBeUndefined()
    expect(parseAnchor('Y(name)')).toBeUndefined()
    expect(parseAnchor('=(fluxcd.io/*)')).toEqual({ kind: 'equality', key: 'fluxcd.io/*' })
  })

  it('wildcards: an empty pattern matches only the empty text, and matching stays fast on hostile input', () => {
    expect(matchesWildcard('', '')).toBe(true)
    expect(matchesWildcard('', 'a')).toBe(false)
    expect(matchesWildcard('a*a*a*a*a*a*a*a*b', 'a'.repeat(5000))).toBe(false)
  })

  it('time.ParseDuration', () => {
    expect(parseGoDuration('1h30m')).toBe(5_400_000_000_000n)
    expect(parseGoDuration('1.5h')).toBe(5_400_000_000_000n)
    expect(parseGoDuration('300ms')).toBe(300_000_000n)
    expect(parseGoDuration('-1m')).toBe(-60_000_000_000n)
    expect(parseGoDuration('2µs')).toBe(2_000n)
    expect(parseGoDuration('.5s')).toBe(500_000_000n)
    expect(parseGoDuration('0')).toBe(0n)
    for (const text of ['', '1', '1x', 'h', '1.h2', '9999999999999999999h', '.s']) expect(parseGoDuration(text), text).toBeUndefined()
  })

  it('strconv number parsing and fmt printing', () => {
    expect(parseGoInt('+80')).toBe(80n)
    expect(parseGoInt('80.0')).toBeUndefined()
    expect(parseGoInt('9223372036854775808')).toBeUndefined()
    expect(parseGoFloat('5e-1')).toBe(0.5)
    expect(parseGoFloat('0x1p-1')).toBe(0.5)
    expect(parseGoFloat('Inf')).toBe(Infinity)
    expect(parseGoFloat('1e400')).toBeUndefined()
    expect(parseGoFloat(' 1')).toBeUndefined()
    expect(formatGoFloatE(1.5)).toBe('1.5E+00')
    expect(formatGoFloatE(0.001)).toBe('1E-03')
    expect(formatGoFloatF(0.5)).toBe('0.500000')
    expect(formatGoFloatV(1e6)).toBe('1e+06')
    expect(formatGoFloatV(123456.5)).toBe('123456.5')
    expect(formatGoValue({ b: [1n, 'x'], a: null })).toBe('map[a:<nil> b:[1 x]]')
  })

  it('keys sort by UTF-8 bytes', () => {
    expect(['b', 'B', '😀', '\uffff', 'a'].sort(compareGoStrings)).toEqual(['B', 'a', 'b', '\uffff', '😀'])
  })
})
