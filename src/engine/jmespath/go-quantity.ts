import { parseQuantity } from '../cel/libraries/quantity.js'
import { charge } from './budget.js'

/**
 * Kubernetes resource quantities as Kyverno's arithmetic computes and prints them: parsed by
 * k8s.io/apimachinery's ParseQuantity (the CEL library's exact port), kept in the form Go keeps
 * them (an int64 amount with a decimal exponent, or an inf.Dec rounded to nano), and printed by
 * Quantity.String() in the quantity's format: `12Ki + 13Ki` is "25Ki", `12Ki + 13` is "12301",
 * `1.5Gi` prints as "1536Mi".
 */

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent'

export interface GoQuantity {
  /** The value is unscaled × 10^exponent, with Go's own unscaled/exponent split. */
  readonly unscaled: bigint
  readonly exponent: number
  readonly format: QuantityFormat
}

const MAX_INT64 = 2n ** 63n - 1n
const NANO = -9
const BINARY_SUFFIXES = new Set(['Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'])

/** Go's ParseQuantity; throws with its message. */
export function parseGoQuantity(text: string): GoQuantity {
  const parsed = parseQuantity(text)
  let format = formatOfSuffix(text)
  let unscaled = parsed.unscaled
  let exponent = parsed.scale
  if (parsed.decimal && unscaled !== 0n) {
    const capped = format === 'BinarySI' && unscaled === MAX_INT64 && exponent === 0
    // Go rounds a decimal amount to nano scale, which fixes its exponent at -9.
    if (!capped && exponent > NANO) {
      unscaled *= 10n ** BigInt(exponent - NANO)
      exponent = NANO
    }
    if (format === 'BinarySI' && compareToInteger({ unscaled, exponent }, 1n) < 0 && unscaled > 0n) format = 'DecimalSI'
  }
  return { unscaled, exponent, format }
}

function formatOfSuffix(text: string): QuantityFormat {
  const suffix = text.replace(/^[+-]?[0-9.]*/, '')
  if (BINARY_SUFFIXES.has(suffix)) return 'BinarySI'
  if (suffix.length > 1 && (suffix[0] === 'e' || suffix[0] === 'E')) return 'DecimalExponent'
  return 'DecimalSI'
}

export function isZero(q: Pick<GoQuantity, 'unscaled'>): boolean {
  return q.unscaled === 0n
}

/** Both values over their common (smaller) exponent. */
function align(a: GoQuantity, b: GoQuantity): [bigint, bigint, number] {
  if (a.exponent === b.exponent) return [a.unscaled, b.unscaled, a.exponent]
  const gap = Math.abs(a.exponent - b.exponent)
  charge(gap)
  const factor = 10n ** BigInt(gap)
  return a.exponent > b.exponent ? [a.unscaled * factor, b.unscaled, b.exponent] : [a.unscaled, b.unscaled * factor, a.exponent]
}

/** Quantity.Add: the receiver's format, unless it is zero (then the argument's). */
export function addQuantities(a: GoQuantity, b: GoQuantity): GoQuantity {
  const [x, y, exponent] = align(a, b)
  return { unscaled: x + y, exponent, format: isZero(a) ? b.format : a.format }
}

export function subtractQuantities(a: GoQuantity, b: GoQuantity): GoQuantity {
  const [x, y, exponent] = align(a, b)
  return { unscaled: x - y, exponent, format: isZero(a) ? b.format : a.format }
}

/** inf.Dec multiplication, kept in the first operand's format. */
export function multiplyQuantities(a: GoQuantity, b: GoQuantity): GoQuantity {
  return { unscaled: a.unscaled * b.unscaled, exponent: a.exponent + b.exponent, format: a.format }
}

/**
 * Kyverno's quantity / scalar: inf.Dec's QuoRound to the larger of the two decimal scales,
 * rounding toward zero, in the first operand's format. The caller rules out a zero divisor.
 */
export function divideQuantities(a: GoQuantity, b: GoQuantity): GoQuantity {
  const scale = Math.max(-a.exponent, -b.exponent)
  const shift = scale + a.exponent - b.exponent
  charge(Math.abs(shift))
  const numerator = shift >= 0 ? a.unscaled * 10n ** BigInt(shift) : a.unscaled
  const denominator = shift >= 0 ? b.unscaled : b.unscaled * 10n ** BigInt(-shift)
  return { unscaled: numerator / denominator, exponent: -scale, format: a.format }
}

/** Quantity.AsApproximateFloat64: the unscaled value times Go's math.Pow10 of the exponent. */
export function approximateFloat(q: GoQuantity): number {
  const base = Number(q.unscaled)
  return q.exponent === 0 ? base : base * pow10Go(q.exponent)
}

const POW10 = Array.from({ length: 32 }, (_, i) => Number(`1e${i}`))
const POW10_POS32 = Array.from({ length: 10 }, (_, i) => Number(`1e${i * 32}`))
const POW10_NEG32 = Array.from({ length: 11 }, (_, i) => Number(`1e-${i * 32}`))

/** Go's math.Pow10, whose two-table product can differ from the nearest double by an ulp. */
export function pow10Go(n: number): number {
  if (n >= 0 && n <= 308) return (POW10_POS32[Math.floor(n / 32)] as number) * (POW10[n % 32] as number)
  if (n < 0 && n >= -323) return (POW10_NEG32[Math.floor(-n / 32)] as number) / (POW10[-n % 32] as number)
  return n > 0 ? Infinity : 0
}

function compareToInteger(q: Pick<GoQuantity, 'unscaled' | 'exponent'>, value: bigint): number {
  const [x, y] =
    q.exponent >= 0 ? [q.unscaled * 10n ** BigInt(q.exponent), value] : [q.unscaled, value * 10n ** BigInt(-q.exponent)]
  return x === y ? 0 : x < y ? -1 : 1
}

const DECIMAL_SUFFIXES: Readonly<Record<number, string>> = { [-9]: 'n', [-6]: 'u', [-3]: 'm', 0: '', 3: 'k', 6: 'M', 9: 'G', 12: 'T', 15: 'P', 18: 'E' }
const BINARY_SUFFIX_BY_POWER: Readonly<Record<number, string>> = { 1: 'Ki', 2: 'Mi', 3: 'Gi', 4: 'Ti', 5: 'Pi', 6: 'Ei' }

/** Quantity.String(): CanonicalizeBytes in the quantity's format. */
export function formatGoQuantity(q: GoQuantity): string {
  if (q.unscaled === 0n) return '0'
  let format = q.format
  if (format === 'BinarySI') {
    if (compareToInteger(q, -1024n) > 0 && compareToInteger(q, 1024n) < 0) format = 'DecimalSI'
    else {
      const whole = integerValue(q)
      if (whole === undefined) format = 'DecimalSI'
      else return formatBase1024(whole)
    }
  }
  return formatBase10(q, format)
}

function integerValue(q: GoQuantity): bigint | undefined {
  if (q.exponent >= 0) {
    charge(q.exponent)
    return q.unscaled * 10n ** BigInt(q.exponent)
  }
  const divisor = 10n ** BigInt(-q.exponent)
  return q.unscaled % divisor === 0n ? q.unscaled / divisor : undefined
}

function formatBase1024(value: bigint): string {
  const negative = value < 0n
  let amount = negative ? -value : value
  let power = 0
  while (amount >= 1024n && amount % 1024n === 0n) {
    amount /= 1024n
    power++
  }
  // Past Ei Go finds no suffix and prints the bare number.
  return `${negative ? '-' : ''}${amount}${BINARY_SUFFIX_BY_POWER[power] ?? ''}`
}

function formatBase10(q: GoQuantity, format: QuantityFormat): string {
  const negative = q.unscaled < 0n
  let amount = negative ? -q.unscaled : q.unscaled
  let exponent = q.exponent
  while (amount >= 10n && amount % 10n === 0n) {
    amount /= 10n
    exponent++
  }
  const down = ((exponent % 3) + 3) % 3
  if (down > 0) {
    amount *= 10n ** BigInt(down)
    exponent -= down
  }
  let suffix: string
  if (format === 'DecimalExponent') suffix = exponent === 0 ? '' : `e${exponent}`
  else suffix = DECIMAL_SUFFIXES[exponent] ?? '' // Go prints no suffix outside n..E, as it does.
  return `${negative ? '-' : ''}${amount}${suffix}`
}
