import { describe, expect, it } from 'vitest'
import { jp, jpError } from './helpers.js'

const NOW = new Date('2024-03-10T12:30:45.250Z')

describe('time_since, time_diff and time_now', () => {
  it('time_since measures from start to end in a layout, RFC 3339 by default', () => {
    expect(jp("time_since('', '2021-01-02T15:04:05-07:00', '2021-01-10T03:14:05-07:00')")).toBe('180h10m0s')
    expect(jp("time_since('','2022-04-10T03:14:05-07:00','2022-04-11T03:14:05-07:00')")).toBe('24h0m0s')
    expect(jp("time_since('Mon Jan _2 15:04:05 MST 2006', 'Mon Jan 02 15:04:05 MST 2021', 'Mon Jan 10 03:14:16 MST 2021')")).toBe(
      '180h10m11s',
    )
    expect(jp("time_since('2006-Jan-02','2020-Jan-14','2020-Jan-17')")).toBe('72h0m0s')
  })

  it('time_since measures to now when the end is empty', () => {
    expect(jp("time_since('', '2024-03-10T12:00:00Z', '')", null, NOW)).toBe('30m45.25s')
  })

  it('time_diff is end minus start, possibly negative', () => {
    expect(jp("time_diff('2023-01-10T00:00:00Z','2023-01-11T00:00:00Z')")).toBe('24h0m0s')
    expect(jp("time_diff('2023-01-12T00:00:00Z','2023-01-11T00:00:00Z')")).toBe('-24h0m0s')
    expect(jp("time_diff('2021-01-02T15:04:05-07:00', '2021-01-10T03:14:05-07:00')")).toBe('180h10m0s')
  })

  it('time_now and time_now_utc print the clock in RFC 3339, whole seconds, UTC', () => {
    expect(jp('time_now()', null, NOW)).toBe('2024-03-10T12:30:45Z')
    expect(jp('time_now_utc()', null, NOW)).toBe('2024-03-10T12:30:45Z')
    expect(jp('time_now_utc()')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
  })
})

describe('time_add, time_parse, time_utc and time_truncate', () => {
  it('time_add keeps the offset of its input', () => {
    expect(jp("time_add('2021-01-02T15:04:05-07:00', '3h')")).toBe('2021-01-02T18:04:05-07:00')
    expect(jp("time_add('2023-01-12T12:37:56-05:00','6h')")).toBe('2023-01-12T18:37:56-05:00')
    expect(jp("time_add('2024-03-10T23:59:59Z', '-24h1s')")).toBe('2024-03-09T23:59:58Z')
    expect(jpError("time_add('2024-03-10T23:59:59Z', '1d')").message).toBe('time: unknown unit "d" in duration "1d"')
  })

  it('time_parse reads a Go layout, or Unix seconds when the layout is a number', () => {
    expect(jp("time_parse('2006-01-02T15:04:05Z07:00', '2021-01-02T15:04:05-07:00')")).toBe('2021-01-02T15:04:05-07:00')
    expect(jp("time_parse('Mon Jan 02 15:04:05 -0700 2006', 'Sat Jan 02 15:04:05 -0700 2021')")).toBe('2021-01-02T15:04:05-07:00')
    expect(jp("time_parse('Mon Jan 02 2006 15:04:05 -0700', 'Fri Jun 22 2022 17:45:00 +0100')")).toBe('2022-06-22T17:45:00+01:00')
    expect(jp("time_parse('1702691171', '1702691171')")).toBe('2023-12-16T01:46:11Z')
    expect(jp("time_parse('2006-01-02', '2024-02-29')")).toBe('2024-02-29T00:00:00Z')
    expect(jp("time_parse('02/01/06 3:04PM', '31/12/99 11:59PM')")).toBe('1999-12-31T23:59:00Z')
    expect(jp("time_add(time_parse('Mon Jan 02 15:04:05 -0700 2006', 'Sat Jan 02 15:04:05 -0700 2021'), '5h30m40s')")).toBe(
      '2021-01-02T20:34:45-07:00',
    )
  })

  it('time_parse reads Go layout elements: fractions, zone names, two-digit years, day of year', () => {
    expect(jp("time_parse('2006-01-02 15:04:05.000', '2024-01-02 03:04:05.123')")).toBe('2024-01-02T03:04:05Z')
    expect(jp("time_parse('2006-01-02 15:04:05.999999999', '2024-01-02 03:04:05')")).toBe('2024-01-02T03:04:05Z')
    // A zone abbreviation Go does not know reads at offset 0; GMT+N keeps the wall clock at N hours.
    expect(jp("time_parse('Jan 2 2006 15:04 MST', 'Feb 3 2024 10:00 CET')")).toBe('2024-02-03T10:00:00Z')
    expect(jp("time_parse('Jan 2 2006 15:04 MST', 'Feb 3 2024 10:00 GMT+2')")).toBe('2024-02-03T12:00:00+02:00')
    expect(jp("time_parse('Jan 2 2006 15:04 MST', 'Feb 3 2024 10:00 UTC')")).toBe('2024-02-03T10:00:00Z')
    expect(jp("time_parse('02-01-06', '31-12-68')")).toBe('2068-12-31T00:00:00Z')
    expect(jp("time_parse('02-01-06', '31-12-69')")).toBe('1969-12-31T00:00:00Z')
    expect(jp("time_parse('2006 002', '2024 060')")).toBe('2024-02-29T00:00:00Z')
    expect(jp("time_parse('January 2, 2006', 'MARCH 5, 2024')")).toBe('2024-03-05T00:00:00Z')
  })

  it('time_parse reports Go parse errors', () => {
    expect(jpError("time_parse('2006-01-02', '2023-02-29')").message).toBe('parsing time "2023-02-29": day out of range')
    expect(jpError("time_parse('2006-01-02', '2023-13-01')").message).toBe('parsing time "2023-13-01": month out of range')
    expect(jpError("time_parse('2006-01-02', '2023/01/01')").message).toBe(
      'parsing time "2023/01/01" as "2006-01-02": cannot parse "/01/01" as "-"',
    )
    expect(jpError("time_parse('1', 'abc')").message).toBe('strconv.ParseInt: parsing "abc": invalid syntax')
  })

  it('reads fractional seconds and Z for UTC in RFC 3339', () => {
    expect(jp("time_utc('2023-02-02T15:04:05.999Z')")).toBe('2023-02-02T15:04:05Z')
    expect(jp("time_diff('2023-02-02T15:04:05Z', '2023-02-02T15:04:05.5Z')")).toBe('500ms')
    expect(jpError("time_utc('2023-02-02 15:04:05Z')").message).toContain('cannot parse')
  })

  it('time_utc shows the same instant in UTC', () => {
    expect(jp("time_utc('2023-02-02T15:04:05Z')")).toBe('2023-02-02T15:04:05Z')
    expect(jp("time_utc('2023-02-02T15:04:05-07:00')")).toBe('2023-02-02T22:04:05Z')
    expect(jp("time_utc('2021-01-02T18:04:05-05:00')")).toBe('2021-01-02T23:04:05Z')
    expect(jp("time_utc('2021-01-02T02:04:05+08:30')")).toBe('2021-01-01T17:34:05Z')
  })

  it('time_truncate rounds down to a multiple of the duration', () => {
    expect(jp("time_truncate('2023-01-12T17:37:00Z','1h')")).toBe('2023-01-12T17:00:00Z')
    expect(jp("time_truncate('2023-01-12T17:37:00Z','2h')")).toBe('2023-01-12T16:00:00Z')
    expect(jp("time_truncate('2021-01-02T23:04:05Z','2h')")).toBe('2021-01-02T22:00:00Z')
    expect(jp("time_truncate('2021-01-02T23:04:05Z','0s')")).toBe('2021-01-02T23:04:05Z')
  })
})

describe('time_to_cron and comparisons', () => {
  it('time_to_cron writes minute hour day month weekday of the time as written', () => {
    expect(jp("time_to_cron('2022-04-11T03:14:05-07:00')")).toBe('14 3 11 4 1')
    expect(jp("time_to_cron('2023-02-02T15:04:05Z')")).toBe('4 15 2 2 4')
    expect(jp("time_to_cron(time_utc('2023-02-02T15:04:05-07:00'))")).toBe('4 22 2 2 4')
    expect(jp("time_now_utc().time_to_cron(@).split(@,' ') | [1].to_number(@)", null, NOW)).toBe(12)
  })

  it('time_before, time_after and time_between compare instants strictly', () => {
    expect(jp("time_before('2023-01-12T19:05:59Z','2023-01-13T19:05:59Z')")).toBe(true)
    expect(jp("time_before('2023-01-12T19:05:59Z','2023-01-11T19:05:59Z')")).toBe(false)
    expect(jp("time_after('2023-01-12T14:07:55-05:00','2023-01-12T19:05:59Z')")).toBe(true)
    expect(jp("time_after('2023-01-12T19:05:59Z','2023-01-13T19:05:59Z')")).toBe(false)
    expect(jp("time_after('2023-01-12T19:05:59Z','2023-01-12T19:05:59Z')")).toBe(false)
    expect(jp("time_between('2023-01-12T19:05:59Z','2023-01-01T19:05:59Z','2023-01-15T19:05:59Z')")).toBe(true)
    expect(jp("time_between('2023-01-12T19:05:59Z','2023-01-01T19:05:59Z','2023-01-11T19:05:59Z')")).toBe(false)
    expect(jpError("time_before('yesterday', '2023-01-01T00:00:00Z')").message).toContain('parsing time "yesterday"')
  })
})
