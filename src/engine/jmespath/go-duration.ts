/**
 * Go's time.Duration: ParseDuration, String and its int64 nanosecond arithmetic, which Kyverno's
 * arithmetic and time_* functions expose as text ("1h0m5s", "1.5s", "250ms").
 */

export const MAX_DURATION = 2n ** 63n - 1n
export const MIN_DURATION = -(2n ** 63n)
const NANOS_PER_SECOND = 1_000_000_000n

const UNITS: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1_000n,
  'µs': 1_000n, // U+00B5 micro sign
  'μs': 1_000n, // U+03BC Greek small letter mu
  ms: 1_000_000n,
  s: NANOS_PER_SECOND,
  m: 60n * NANOS_PER_SECOND,
  h: 3600n * NANOS_PER_SECOND,
}

function invalid(original: string): Error {
  return new Error(`time: invalid duration ${goQuote(original)}`)
}

/** Go's strconv-style quoting, as time's errors print values. */
export function goQuote(text: string): string {
  return JSON.stringify(text)
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9'

/** Go's time.ParseDuration: `[-+]?([0-9]*(\.[0-9]*)?[a-z]+)+`, nanoseconds as a bigint. */
export function parseGoDuration(text: string): bigint {
  let rest = text
  let negative = false
  if (rest !== '' && (rest[0] === '-' || rest[0] === '+')) {
    negative = rest[0] === '-'
    rest = rest.slice(1)
  }
  if (rest === '0') return 0n
  if (rest === '') throw invalid(text)
  let total = 0n
  while (rest !== '') {
    if (!(rest[0] === '.' || isDigit(rest[0]))) throw invalid(text)
    let i = 0
    while (isDigit(rest[i])) i++
    const integerDigits = rest.slice(0, i)
    // More than 20 significant digits overflows int64 whatever they are; refuse before converting.
    if (integerDigits.replace(/^0+/, '').length > 20) throw invalid(text)
    let whole = integerDigits === '' ? 0n : BigInt(integerDigits)
    if (whole > 2n ** 63n) throw invalid(text)
    rest = rest.slice(i)
    let fraction = 0n
    let scale = 1
    let sawFraction = false
    if (rest.startsWith('.')) {
      rest = rest.slice(1)
      let j = 0
      let overflow = false
      while (isDigit(rest[j])) {
        if (!overflow) {
          const next = fraction * 10n + BigInt(Number(rest[j]))
          if (fraction > (2n ** 63n - 1n) / 10n || next > 2n ** 63n) overflow = true
          else {
            fraction = next
            scale *= 10
          }
        }
        j++
      }
      sawFraction = j > 0
      rest = rest.slice(j)
    }
    if (integerDigits === '' && !sawFraction) throw invalid(text)
    let u = 0
    while (u < rest.length && rest[u] !== '.' && !isDigit(rest[u])) u++
    if (u === 0) throw new Error(`time: missing unit in duration ${goQuote(text)}`)
    const unitName = rest.slice(0, u)
    rest = rest.slice(u)
    const unit = Object.hasOwn(UNITS, unitName) ? UNITS[unitName] : undefined
    if (unit === undefined) throw new Error(`time: unknown unit ${goQuote(unitName)} in duration ${goQuote(text)}`)
    if (whole > 2n ** 63n / unit) throw invalid(text)
    whole *= unit
    if (fraction > 0n) {
      // Go computes the fraction in float64: uint64(float64(f) * (float64(unit) / scale)).
      whole += BigInt(Math.trunc(Number(fraction) * (Number(unit) / scale)))
      if (whole > 2n ** 63n) throw invalid(text)
    }
    total += whole
    if (total > 2n ** 63n) throw invalid(text)
  }
  if (negative) return -total
  if (total > MAX_DURATION) throw invalid(text)
  return total
}

/** Go's Duration.String: "1h2m3.5s", "1.5ms", "0s". */
export function formatGoDuration(nanos: bigint): string {
  const negative = nanos < 0n
  let u = negative ? -nanos : nanos
  let out: string
  if (u < NANOS_PER_SECOND) {
    if (u === 0n) return '0s'
    if (u < 1_000n) out = `${u}ns`
    else if (u < 1_000_000n) out = `${fraction(u, 3)}µs`
    else out = `${fraction(u, 6)}ms`
  } else {
    const seconds = fraction(u % (60n * NANOS_PER_SECOND), 9)
    u /= 60n * NANOS_PER_SECOND
    out = `${seconds}s`
    if (u > 0n) {
      out = `${u % 60n}m${out}`
      u /= 60n
      if (u > 0n) out = `${u}h${out}`
    }
  }
  return negative ? `-${out}` : out
}

/** value / 10^digits written with the fraction's trailing zeros (and a bare point) dropped. */
function fraction(value: bigint, digits: number): string {
  const divisor = 10n ** BigInt(digits)
  const whole = value / divisor
  const part = (value % divisor).toString().padStart(digits, '0').replace(/0+$/, '')
  return part === '' ? `${whole}` : `${whole}.${part}`
}

/** Wraps like Go's int64 arithmetic. */
export function wrapInt64(value: bigint): bigint {
  return BigInt.asIntN(64, value)
}

/** Duration.Seconds(): whole seconds plus the nanosecond remainder, in float64 as Go adds them. */
export function durationSeconds(nanos: bigint): number {
  const seconds = nanos / NANOS_PER_SECOND
  const rest = nanos % NANOS_PER_SECOND
  return Number(seconds) + Number(rest) / 1e9
}

/** Go's time.Duration(f) for a float64 f: truncation, with amd64's result for out-of-range values. */
export function durationFromFloat(nanos: number): bigint {
  if (!Number.isFinite(nanos) || nanos >= 2 ** 63 || nanos < -(2 ** 63)) return MIN_DURATION
  return BigInt(Math.trunc(nanos))
}
