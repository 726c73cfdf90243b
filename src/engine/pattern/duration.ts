/**
 * Go's time.ParseDuration, which Kyverno tries first on every operator comparison in a pattern:
 * a sequence of decimal numbers with units (`300ms`, `-1.5h`, `2h45m`), or `0`. Returns the
 * duration in nanoseconds, or undefined wherever Go returns an error (no unit, unknown unit,
 * overflow past int64).
 */

const LIMIT = 1n << 63n

const UNITS: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1_000n,
  'µs': 1_000n, // U+00B5 micro sign
  'μs': 1_000n, // U+03BC Greek mu
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
}

export function parseGoDuration(text: string): bigint | undefined {
  let rest = text
  let negative = false
  if (rest !== '' && (rest[0] === '-' || rest[0] === '+')) {
    negative = rest[0] === '-'
    rest = rest.slice(1)
  }
  if (rest === '0') return 0n
  if (rest === '') return undefined
  let total = 0n
  while (rest !== '') {
    if (!(rest[0] === '.' || isDigit(rest[0]))) return undefined
    const whole = leadingInt(rest)
    if (!whole) return undefined
    const hadWhole = whole.consumed > 0
    rest = rest.slice(whole.consumed)
    let fraction = 0n
    let scale = 1
    let hadFraction = false
    if (rest[0] === '.') {
      rest = rest.slice(1)
      const parsed = leadingFraction(rest)
      hadFraction = parsed.consumed > 0
      fraction = parsed.value
      scale = parsed.scale
      rest = rest.slice(parsed.consumed)
    }
    if (!hadWhole && !hadFraction) return undefined
    let unitLength = 0
    while (unitLength < rest.length && rest[unitLength] !== '.' && !isDigit(rest[unitLength])) unitLength++
    if (unitLength === 0) return undefined
    const unit = UNITS[rest.slice(0, unitLength)]
    if (unit === undefined) return undefined
    rest = rest.slice(unitLength)
    if (whole.value > LIMIT / unit) return undefined
    let value = whole.value * unit
    if (fraction > 0n) {
      // Go scales the fraction in float64 and truncates; the same arithmetic gives the same nanoseconds.
      value += BigInt(Math.trunc(Number(fraction) * (Number(unit) / scale)))
      if (value > LIMIT) return undefined
    }
    total += value
    if (total > LIMIT) return undefined
  }
  if (negative) return -total
  return total > LIMIT - 1n ? undefined : total
}

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9'
}

/** Leading digits as an integer; undefined on overflow past 2^63, as Go's leadingInt errors. */
function leadingInt(text: string): { value: bigint; consumed: number } | undefined {
  let value = 0n
  let consumed = 0
  while (consumed < text.length && isDigit(text[consumed])) {
    if (value > LIMIT / 10n) return undefined
    value = value * 10n + BigInt(text.charCodeAt(consumed) - 48)
    if (value > LIMIT) return undefined
    consumed++
  }
  return { value, consumed }
}

/** Leading fraction digits; digits past int64 precision are consumed but ignored, as in Go. */
function leadingFraction(text: string): { value: bigint; scale: number; consumed: number } {
  let value = 0n
  let scale = 1
  let overflow = false
  let consumed = 0
  while (consumed < text.length && isDigit(text[consumed])) {
    const digit = BigInt(text.charCodeAt(consumed) - 48)
    consumed++
    if (overflow) continue
    if (value > (LIMIT - 1n) / 10n) {
      overflow = true
      continue
    }
    const next = value * 10n + digit
    if (next > LIMIT) {
      overflow = true
      continue
    }
    value = next
    scale *= 10
  }
  return { value, scale, consumed }
}
