import { describe, expect, it } from 'vitest'
import { compileCel } from '../../../src/engine/cel/index.js'
import { evalCel } from './helpers.js'

describe("Kyverno's time library", () => {
  it('time.now() reads the clock at each evaluation, not at compile time', () => {
    const program = compileCel('time.now()')
    const before = Date.now()
    const first = program.evaluate({}) as Date
    const second = program.evaluate({}) as Date
    const after = Date.now()
    expect(first).toBeInstanceOf(Date)
    expect(first.getTime()).toBeGreaterThanOrEqual(before)
    expect(second.getTime()).toBeGreaterThanOrEqual(first.getTime())
    expect(second.getTime()).toBeLessThanOrEqual(after)
  })

  it('time.now() takes part in timestamp arithmetic, as block-stale-images uses it', () => {
    expect(evalCel("timestamp('2020-05-01T03:15:12-07:00') < time.now() - duration(string(4380) + 'h')")).toBe(true)
    expect(evalCel("timestamp('2099-05-01T03:15:12-07:00') >= time.now() - duration('4380h')")).toBe(true)
  })

  it('time.truncate rounds down to a multiple of the duration since year 1, as Go does', () => {
    expect(evalCel("time.truncate(timestamp('2020-05-01T03:15:12.345Z'), duration('1h'))")).toEqual(new Date('2020-05-01T03:00:00Z'))
    expect(evalCel("time.truncate(timestamp('2020-05-01T03:15:12.345Z'), duration('1s'))")).toEqual(new Date('2020-05-01T03:15:12Z'))
    // 0001-01-01 is a Monday: a week counted from it starts on Mondays, not on the Unix epoch's Thursday.
    expect(evalCel("time.truncate(timestamp('2020-05-01T03:15:12Z'), duration('168h'))")).toEqual(new Date('2020-04-27T00:00:00Z'))
    expect(evalCel("time.truncate(timestamp('2020-05-01T03:15:12Z'), duration('0s'))")).toEqual(new Date('2020-05-01T03:15:12Z'))
  })

  it('time.toCron gives minute, hour, day, month and weekday in UTC', () => {
    expect(evalCel("time.toCron(timestamp('2020-05-01T03:15:12Z'))")).toBe('15 3 1 5 5')
    expect(evalCel("time.toCron(timestamp('2021-01-03T23:59:00-01:00'))")).toBe('59 0 4 1 1')
  })
})
