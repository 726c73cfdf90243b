import { JmespathError } from '../errors.js'

/**
 * How Kyverno's Go code turns numbers into text and integers, where that text shows in results:
 * regex_* and object_from_lists accept numbers and convert them with
 * strconv.FormatFloat(f, 'f', -1, 32) (shortest text of the value rounded to float32, never an
 * exponent); quantity arithmetic formats a scalar with fmt's %v; integer arguments go through
 * Kyverno's intNumber check.
 */

/** Kyverno's ifaceToString: string as is, number via float32 text, boolean as true/false. */
export function goScalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (typeof value === 'number') return formatFloat32Plain(value)
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  return undefined
}

/** strconv.FormatFloat(value, 'f', -1, 32). */
export function formatFloat32Plain(value: number): string {
  const single = Math.fround(value)
  if (Object.is(single, -0)) return '-0'
  if (single === 0) return '0'
  const negative = single < 0
  const magnitude = Math.abs(single)
  let digits = magnitude.toPrecision(9)
  for (let precision = 1; precision <= 9; precision++) {
    const candidate = magnitude.toPrecision(precision)
    if (Math.fround(Number(candidate)) === magnitude) {
      digits = candidate
      break
    }
  }
  return (negative ? '-' : '') + plainDecimal(digits)
}

/** A decimal such as `1.5e+21` or `0.000123` written without an exponent. */
function plainDecimal(text: string): string {
  const [mantissa = '', exponentText] = text.split(/e/i)
  const exponent = exponentText === undefined ? 0 : Number(exponentText)
  const [integer = '', fraction = ''] = mantissa.split('.')
  const allDigits = integer + fraction
  const point = integer.length + exponent
  let out: string
  if (point <= 0) out = `0.${'0'.repeat(-point)}${allDigits}`
  else if (point >= allDigits.length) out = allDigits + '0'.repeat(point - allDigits.length)
  else out = `${allDigits.slice(0, point)}.${allDigits.slice(point)}`
  if (out.includes('.')) out = out.replace(/0+$/, '').replace(/\.$/, '')
  return out.replace(/^0+(?=[0-9])/, '')
}

/** fmt's %v (and %g) for a float64: shortest digits, exponent form below 1e-4 or from 1e6 (Go prints 1e6 as 1e+06). */
export function formatGoG(value: number): string {
  if (Number.isNaN(value)) return 'NaN'
  if (!Number.isFinite(value)) return value > 0 ? '+Inf' : '-Inf'
  if (Object.is(value, -0)) return '-0'
  if (value === 0) return '0'
  const [mantissa = '', exponentText = '0'] = value.toExponential().split('e')
  const exponent = Number(exponentText)
  if (exponent < -4 || exponent >= 6) {
    const sign = exponent < 0 ? '-' : '+'
    const magnitude = String(Math.abs(exponent)).padStart(2, '0')
    return `${mantissa}e${sign}${magnitude}`
  }
  return String(value)
}

/** Kyverno's intNumber: the number if it is an integer Go's int holds, else an error. */
export function goInteger(value: number): number {
  if (!Number.isFinite(value) || Math.trunc(value) !== value) {
    throw new JmespathError(`expected an integer number but got: ${formatGoG(value)}`)
  }
  if (Math.abs(value) >= 2 ** 63) throw new JmespathError(`number is outside the range of integer numbers: ${formatGoG(value)}`)
  return value
}
