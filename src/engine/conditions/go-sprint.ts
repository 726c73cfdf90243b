import { compareStrings } from '../cel/ordering.js'
import { isGoList, type GoValue } from './go-value.js'

/**
 * Go's `fmt.Sprint` of a decoded JSON value. Kyverno's set operators turn every key and value
 * element into text this way before comparing, so the spelling decides what matches: `true`,
 * `1.5`, `1e+06` for a float64 of a million, `[a b]` for a list, `map[k:v]` for a map.
 */
export function goSprint(value: GoValue): string {
  if (value === null) return '<nil>'
  switch (typeof value) {
    case 'string':
      return value
    case 'boolean':
    case 'bigint':
      return String(value)
    case 'number':
      return formatGoFloat(value)
  }
  if (isGoList(value)) return `[${value.map(goSprint).join(' ')}]`
  // fmt prints map entries in key order, and Go orders strings by their UTF-8 bytes.
  const keys = Object.keys(value).sort(compareStrings)
  return `map[${keys.map((key) => `${key}:${goSprint(value[key] ?? null)}`).join(' ')}]`
}

/**
 * A float64 as `%v` prints it: the shortest digits that read back to the same number, in
 * exponent form when the decimal exponent is below -4 or at least 6 (`1e+06`, `1.5e-05`),
 * otherwise plain (`123456`, `0.0001`).
 */
export function formatGoFloat(value: number): string {
  if (Number.isNaN(value)) return 'NaN'
  if (value === Infinity) return '+Inf'
  if (value === -Infinity) return '-Inf'
  if (value === 0) return Object.is(value, -0) ? '-0' : '0'
  const sign = value < 0 ? '-' : ''
  // JavaScript's toExponential() without an argument gives the same shortest round-trip digits.
  const [mantissa = '', exponentText = '0'] = Math.abs(value).toExponential().split('e')
  const digits = mantissa.replace('.', '')
  const exponent = Number(exponentText)
  if (exponent < -4 || exponent >= 6) {
    const fraction = digits.length > 1 ? `.${digits.slice(1)}` : ''
    const magnitude = Math.abs(exponent)
    return `${sign}${digits[0] ?? ''}${fraction}e${exponent < 0 ? '-' : '+'}${magnitude < 10 ? '0' : ''}${magnitude}`
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`
  const integerDigits = exponent + 1
  if (digits.length <= integerDigits) return `${sign}${digits}${'0'.repeat(integerDigits - digits.length)}`
  return `${sign}${digits.slice(0, integerDigits)}.${digits.slice(integerDigits)}`
}
