/**
 * Go's time.Duration as Kyverno's condition operators use it: parsing a string the way
 * time.ParseDuration does (`1h30m`, `1.5h`, `-90s`, `300ms`, a bare `0`), turning a number of
 * seconds into a duration the way `time.Duration(n) * time.Second` does, and reading a duration
 * back as seconds. Durations are int64 nanoseconds, held as bigint.
 */

const SECOND = 1_000_000_000n
const LIMIT = 1n << 63n

/** time.ParseDuration; undefined where Go returns an error (bad syntax, unknown unit, overflow). Patterns read durations the same way. */
export { parseGoDuration } from '../pattern/duration.js'

/** `duration.Seconds()`: whole seconds plus the remaining nanoseconds, in float64. */
export function durationSeconds(duration: bigint): number {
  return Number(duration / SECOND) + Number(duration % SECOND) / 1e9
}

/**
 * `time.Duration(n) * time.Second` for a number of seconds: the float is truncated to an int64
 * first (so 1.9 is one second), and the product wraps around like Go's int64 arithmetic.
 */
export function secondsToDuration(seconds: number | bigint): bigint {
  let whole: bigint
  if (typeof seconds === 'bigint') whole = seconds
  else if (Number.isNaN(seconds) || Math.abs(seconds) >= 2 ** 63) {
    // Go leaves an out-of-range conversion to the hardware; amd64 yields the smallest int64.
    whole = -LIMIT
  } else whole = BigInt(Math.trunc(seconds))
  return BigInt.asIntN(64, whole * SECOND)
}
