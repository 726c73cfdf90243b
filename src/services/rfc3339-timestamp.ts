import { InvalidRequestError } from './service-errors.js'

/**
 * The one timestamp form every route and command accepts: an RFC 3339 date-time,
 * `2026-01-31T12:00:00Z`, `2026-01-31T12:00:00.250+01:00`.
 *
 * - the date is a real calendar date (no 2024-02-30, no 2023-02-29: nothing rolls over);
 * - the time has hours, minutes and seconds (00-23, 00-59, 00-59; a leap second :60 is
 *   refused, as neither JavaScript nor the store can represent it), optionally a fraction;
 * - a zone is required: `Z` or an offset `+hh:mm` / `-hh:mm` (hh 00-23, mm 00-59);
 *   `T` and `Z` may be lowercase, as RFC 3339 allows;
 * - the instant, in UTC, lies from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z: the
 *   years PostgreSQL and JavaScript both hold with four digits (PostgreSQL has no year 0000).
 *
 * Anything else is a 400 naming the field. Fractions beyond milliseconds are cut to milliseconds.
 */
const RFC_3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/

/** The earliest and latest instants a timestamp may name. */
export const EARLIEST_TIMESTAMP = new Date('0001-01-01T00:00:00.000Z')
export const LATEST_TIMESTAMP = new Date('9999-12-31T23:59:59.999Z')

const EXAMPLE = 'such as 2026-01-31T12:00:00Z'

/** `value` as an instant, or an InvalidRequestError naming `field` and what is wrong. */
export function parseTimestamp(field: string, value: string): Date {
  const problem = timestampProblem(value)
  if (typeof problem === 'string') {
    throw new InvalidRequestError(`${field}: ${JSON.stringify(value)} is not an ISO 8601 date-time (RFC 3339) ${EXAMPLE}: ${problem}`)
  }
  return problem
}

function timestampProblem(value: string): Date | string {
  const match = RFC_3339.exec(value)
  if (!match) return 'write a date, T, a time with seconds and a zone (Z or +hh:mm)'
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number]
  if (year < 1) return 'the year must be from 0001 to 9999'
  if (month < 1 || month > 12) return `there is no month ${match[2]}`
  const days = daysInMonth(year, month)
  if (day < 1 || day > days) return `${match[1]}-${match[2]} has ${days} days`
  if (hour > 23) return 'the hour must be from 00 to 23'
  if (minute > 59) return 'the minute must be from 00 to 59'
  if (second > 59) return 'the second must be from 00 to 59'
  let offsetMinutes = 0
  if (match[8] === undefined) {
    const offsetHours = Number(match[10])
    const offsetMins = Number(match[11])
    if (offsetHours > 23 || offsetMins > 59) return `the offset ${match[9]}${match[10]}:${match[11]} is not a time zone offset`
    offsetMinutes = (match[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMins)
  }
  const milliseconds = Number(`${(match[7] ?? '.').slice(1)}000`.slice(0, 3))
  // Date.UTC reads years 0-99 as 1900-1999; setUTCFullYear does not.
  const local = new Date(Date.UTC(2000, month - 1, day, hour, minute, second, milliseconds))
  local.setUTCFullYear(year)
  const instant = new Date(local.getTime() - offsetMinutes * 60_000)
  if (instant.getTime() < EARLIEST_TIMESTAMP.getTime() || instant.getTime() > LATEST_TIMESTAMP.getTime()) {
    return `it falls outside ${EARLIEST_TIMESTAMP.toISOString()} to ${LATEST_TIMESTAMP.toISOString()}`
  }
  return instant
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28
  return [4, 6, 9, 11].includes(month) ? 30 : 31
}
