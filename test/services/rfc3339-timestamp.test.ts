import { describe, expect, it } from 'vitest'
import { parseTimestamp } from '../../src/services/rfc3339-timestamp.js'

const problem = (value: string): string => {
  try {
    parseTimestamp('query.startTimestamp', value)
  } catch (error) {
    return (error as { details: string }).details
  }
  throw new Error(`${value} was accepted`)
}

describe('RFC 3339 timestamps', () => {
  it.each([
    ['2026-01-31T12:00:00Z', '2026-01-31T12:00:00.000Z'],
    ['2026-01-31t12:00:00z', '2026-01-31T12:00:00.000Z'],
    ['2026-01-31T12:00:00.5+01:30', '2026-01-31T10:30:00.500Z'],
    ['2026-01-31T12:00:00.123456789-00:00', '2026-01-31T12:00:00.123Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
    ['2000-02-29T23:59:59.999Z', '2000-02-29T23:59:59.999Z'],
    ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z'],
    ['0099-12-31T00:00:00Z', '0099-12-31T00:00:00.000Z'],
    ['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z'],
    ['9999-12-31T23:59:59.999+00:00', '9999-12-31T23:59:59.999Z'],
  ])('reads %s as %s', (value, instant) => {
    expect(parseTimestamp('query.startTimestamp', value).toISOString()).toBe(instant)
  })

  it.each([
    ['2024-02-30T00:00:00Z', '2024-02 has 29 days'],
    ['2023-02-29T00:00:00Z', '2023-02 has 28 days'],
    ['1900-02-29T00:00:00Z', '1900-02 has 28 days'],
    ['2026-04-31T00:00:00Z', '2026-04 has 30 days'],
    ['2026-00-10T00:00:00Z', 'there is no month 00'],
    ['2026-13-10T00:00:00Z', 'there is no month 13'],
    ['2026-01-00T00:00:00Z', '2026-01 has 31 days'],
    ['2026-01-01T24:00:00Z', 'the hour must be from 00 to 23'],
    ['2026-01-01T23:60:00Z', 'the minute must be from 00 to 59'],
    ['2026-12-31T23:59:60Z', 'the second must be from 00 to 59'],
    ['2026-01-01T00:00:00+24:00', 'the offset +24:00 is not a time zone offset'],
    ['2026-01-01T00:00:00+01:60', 'the offset +01:60 is not a time zone offset'],
    ['0000-01-01T00:00:00Z', 'the year must be from 0001 to 9999'],
    ['0001-01-01T00:00:00+00:01', 'it falls outside 0001-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z'],
    ['9999-12-31T23:59:59-00:01', 'it falls outside 0001-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z'],
  ])('refuses %s: %s', (value, why) => {
    expect(problem(value)).toBe(`query.startTimestamp: ${JSON.stringify(value)} is not an ISO 8601 date-time (RFC 3339) such as 2026-01-31T12:00:00Z: ${why}`)
  })

  it.each(['2026-01-31', '2026-01-31T12:00Z', '2026-01-31T12:00:00', '2026-01-31 12:00:00Z', '+012026-01-31T12:00:00Z', '10000-01-01T00:00:00Z', '2026-01-31T12:00:00.Z', '2026-01-31T12:00:00+0100', '２０２６-01-31T12:00:00Z', 'yesterday', ''])(
    'refuses %j, which is not an RFC 3339 date-time with a zone',
    (value) => {
      expect(problem(value)).toMatch(/: write a date, T, a time with seconds and a zone \(Z or \+hh:mm\)$/)
    },
  )
})
