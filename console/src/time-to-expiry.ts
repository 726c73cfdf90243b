const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/**
 * How long an exception has left, or since when it no longer applies, relative to `nowMs`:
 * "in 3 days", "in 5 h", "expired 2 h ago", "never expires". Rounded down to the largest unit
 * (seconds, minutes, hours, days), so it never promises more time than is left. `expiresAt` is
 * when it stops applying: at that instant exactly it has expired, as the API says.
 */
export function timeToExpiry(expiresAt: string | undefined, nowMs: number): string {
  if (expiresAt === undefined) return 'never expires'
  const end = Date.parse(expiresAt)
  if (Number.isNaN(end)) return `ends ${expiresAt}`
  const left = end - nowMs
  return left > 0 ? `in ${duration(left)}` : `expired ${duration(-left)} ago`
}

function duration(ms: number): string {
  if (ms < MINUTE) return `${Math.floor(ms / 1000)} s`
  if (ms < HOUR) return `${Math.floor(ms / MINUTE)} min`
  if (ms < DAY) return `${Math.floor(ms / HOUR)} h`
  const days = Math.floor(ms / DAY)
  return days === 1 ? '1 day' : `${days} days`
}
