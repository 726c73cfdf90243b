/**
 * The number parsing and printing of Go's strconv and fmt that Kyverno's pattern comparisons go
 * through, so values compare and messages read as they do there. Only what patterns use.
 */

const MIN_INT64 = -(2n ** 63n)
const MAX_INT64 = 2n ** 63n - 1n

const DECIMAL_INT = /^[+-]?[0-9]+$/

/** strconv.ParseInt(s, 10, 64): optional sign, decimal digits, within int64; undefined where Go reports an error. */
export function parseGoInt(text: string): bigint | undefined {
  if (!DECIMAL_INT.test(text)) return undefined
  const value = BigInt(text)
  return value >= MIN_INT64 && value <= MAX_INT64 ? value : undefined
}

const DECIMAL_FLOAT = /^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/
const SPECIAL_FLOAT = /^(?:([+-]?)(?:inf|infinity)|nan)$/i
const HEX_FLOAT = /^([+-]?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?[pP]([+-]?[0-9]+)$/

/**
 * strconv.ParseFloat(s, 64): decimal and hexadecimal forms, `inf`/`infinity`/`nan`; undefined where
 * Go reports an error, which includes a finite number too large for a float64 (ErrRange).
 */
export function parseGoFloat(text: string): number | undefined {
  if (DECIMAL_FLOAT.test(text)) {
    const value = Number(text)
    return Number.isFinite(value) ? value : undefined
  }
  const special = SPECIAL_FLOAT.exec(text)
  if (special) return special[1] === undefined ? Number.NaN : special[1] === '-' ? -Infinity : Infinity
  const hex = HEX_FLOAT.exec(text)
  if (hex) {
    const [, sign, whole = '', fraction = '', exponent = '0'] = hex
    if (whole === '' && fraction === '') return undefined
    const mantissa = Number.parseInt(`${whole}${fraction}` || '0', 16)
    const value = mantissa * 2 ** (Number(exponent) - 4 * fraction.length)
    if (!Number.isFinite(value)) return undefined
    return sign === '-' ? -value : value
  }
  return undefined
}

/** The shortest digits that read back as `value`, and the decimal exponent of the first one. */
function shortestDigits(value: number): { negative: boolean; digits: string; exponent: number } {
  const [mantissa = '0', exponent = '0'] = Math.abs(value).toExponential().split('e')
  return { negative: value < 0 || Object.is(value, -0), digits: mantissa.replace('.', ''), exponent: Number(exponent) }
}

function exponentForm(value: number, letter: 'e' | 'E'): string {
  const { negative, digits, exponent } = shortestDigits(value)
  const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits
  const magnitude = Math.abs(exponent).toString().padStart(2, '0')
  return `${negative ? '-' : ''}${mantissa}${letter}${exponent < 0 ? '-' : '+'}${magnitude}`
}

function special(value: number): string | undefined {
  if (Number.isNaN(value)) return 'NaN'
  if (value === Infinity) return '+Inf'
  if (value === -Infinity) return '-Inf'
  return undefined
}

/** strconv.FormatFloat(v, 'E', -1, 64): `1.5E+00`, how Kyverno prints a float it compares as text. */
export function formatGoFloatE(value: number): string {
  return special(value) ?? exponentForm(value, 'E')
}

/** fmt's `%f`: six decimals, never an exponent. */
export function formatGoFloatF(value: number): string {
  const text = special(value)
  if (text !== undefined) return text
  if (Math.abs(value) < 1e21) return value.toFixed(6)
  // Past 1e21 JavaScript switches to exponents; such doubles are whole, so BigInt spells them exactly.
  return `${BigInt(value).toString()}.000000`
}

/** fmt's `%v` for a float64 (strconv 'g', shortest): exponent form below 1e-4 and from 1e6 (e.g. `1e+06`). */
export function formatGoFloatV(value: number): string {
  const text = special(value)
  if (text !== undefined) return text
  if (value === 0) return Object.is(value, -0) ? '-0' : '0'
  const { exponent } = shortestDigits(value)
  if (exponent < -4 || exponent >= 6) return exponentForm(value, 'e')
  return String(value)
}
