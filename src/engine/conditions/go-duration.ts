/**
 * Go's time.Duration as Kyverno's condition operators use it: parsing a string the way
 * time.ParseDuration does (`1h30m`, `1.5h`, `-90s`, `300ms`, a bare `0`), turning a number of
 * seconds into a duration the way `time.Duration(n) * time.Second` does, and reading a duration
 * back as seconds. Durations are int64 nanoseconds, held as bigint.
 */

const UNITS: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n, // U+00B5 micro sign
  μs: 1_000n, // U+03BC Greek small letter mu
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
}
const SECOND = 1_000_000_000n
const LIMIT = 1n << 63n

/** time.ParseDuration; undefined where Go returns an error (bad syntax, unknown unit, overflow). */
export function parseGoDuration(text: string): bigint | undefined {
  let rest = text
  let negative = false
  if (rest[0] === '-' || rest[0] === '+') {
    negative = rest[0] === '-'
    rest = rest.slice(1)
  }
  if (rest === '0') return 0n
  if (rest === '') return undefined
  let total = 0n
  while (rest !== '') {
    const part = PART.exec(rest)
    if (!part) return undefined
    const [whole, integerText = '', fractionText] = part
    if (integerText === '' && (fractionText === undefined || fractionText === '')) return undefined
    const unitText = UNIT.exec(rest.slice(whole.length))?.[0] ?? ''
    if (unitText === '') return undefined
    const unit = UNITS[unitText]
    if (unit === undefined) return undefined
    let amount = integerText === '' ? 0n : BigInt(integerText)
    if (amount > LIMIT / unit) return undefined
    amount *= unit
    const fraction = leadingFraction(fractionText ?? '')
    if (fraction.value > 0n) {
      // Go scales the fraction in float64 and truncates, so `0.1ns`-level rounding follows it.
      amount += BigInt(Math.trunc(Number(fraction.value) * (Number(unit) / fraction.scale)))
      if (amount > LIMIT) return undefined
    }
    total += amount
    if (total > LIMIT) return undefined
    rest = rest.slice(whole.length + unitText.length)
  }
  if (negative) return BigInt.asIntN(64, -total)
  return total > LIMIT - 1n ? undefined : total
}

/** Digits, then an optional `.` and digits; a run of integer digits past int64 is an error in Go. */
const PART = /^([0-9]*)(?:\.([0-9]*))?/
const UNIT = /^[^.0-9]+/

/** Go keeps reading fraction digits but stops adding precision once the value would overflow. */
function leadingFraction(digits: string): { value: bigint; scale: number } {
  let value = 0n
  let scale = 1
  for (const digit of digits) {
    if (value > (LIMIT - 1n) / 10n) break
    const next = value * 10n + BigInt(digit)
    if (next > LIMIT) break
    value = next
    scale *= 10
  }
  return { value, scale }
}

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
