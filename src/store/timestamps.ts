/**
 * The API's timestamp form: ISO 8601 in UTC with milliseconds (2026-11-21T07:00:00.000Z).
 * Drivers hand timestamptz over as Date; a string is accepted too so a value that went through
 * JSON still formats the same.
 */
export function isoTimestamp(value: unknown): string {
  if (value instanceof Date) return value.toISOString()
  if (typeof value === 'string') return new Date(value).toISOString()
  throw new TypeError(`expected a timestamp, got ${typeof value}`)
}

export function isoTimestampOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : isoTimestamp(value)
}

/** Parameters carry times as ISO strings: both drivers and every server time zone read them the same. */
export function timestampParam(value: Date | string): string {
  return typeof value === 'string' ? new Date(value).toISOString() : value.toISOString()
}

/** timestampParam of each time, each distinct one formatted once: the rows of a batch share few. */
export function timestampParams(values: readonly Date[]): string[] {
  const formatted = new Map<number, string>()
  return values.map((value) => {
    const time = value.getTime()
    let text = formatted.get(time)
    if (text === undefined) formatted.set(time, (text = value.toISOString()))
    return text
  })
}
