import { describe, expect, it } from 'vitest'
import { durationSeconds, parseGoDuration, secondsToDuration } from '../../../src/engine/conditions/go-duration.js'

const S = 1_000_000_000n

describe('parseGoDuration', () => {
  it.each([
    ['0', 0n],
    ['-0', 0n],
    ['0s', 0n],
    ['1h', 3600n * S],
    ['60m', 3600n * S],
    ['1h30m', 5400n * S],
    ['1.5h', 5400n * S],
    ['-90s', -90n * S],
    ['+5s', 5n * S],
    ['300ms', 300_000_000n],
    ['1us', 1000n],
    ['1µs', 1000n],
    ['1μs', 1000n],
    ['7ns', 7n],
    ['.5s', 500_000_000n],
    ['1.s', S],
    ['2h45m30.5s', (2n * 3600n + 45n * 60n + 30n) * S + 500_000_000n],
    ['9223372036854775807ns', 9223372036854775807n],
    ['-9223372036854775808ns', -9223372036854775808n],
  ])('reads %s', (text, nanoseconds) => {
    expect(parseGoDuration(text)).toBe(nanoseconds)
  })

  it.each(['', '1', '5', 'h', '.s', '1d', '1H', '1h-5m', ' 1h', '1h ', '9223372036854775808ns', '3000000h', '-', '1.5.5s'])('refuses %j', (text) => {
    expect(parseGoDuration(text)).toBeUndefined()
  })
})

describe('durationSeconds and secondsToDuration', () => {
  it('convert like Go, truncating a fraction of a second', () => {
    expect(durationSeconds(5400n * S + 500_000_000n)).toBe(5400.5)
    expect(durationSeconds(-1n)).toBe(-1e-9)
    expect(secondsToDuration(90)).toBe(90n * S)
    expect(secondsToDuration(1.9)).toBe(S)
    expect(secondsToDuration(-1.9)).toBe(-S)
    expect(secondsToDuration(3n)).toBe(3n * S)
  })

  it('wraps around where Go overflows int64', () => {
    expect(secondsToDuration(1e10)).toBe(BigInt.asIntN(64, 10_000_000_000n * S))
    expect(secondsToDuration(1e300)).toBe(0n)
  })
})
