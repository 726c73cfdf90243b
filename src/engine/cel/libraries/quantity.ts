import { EvaluationError, type Environment } from '@marcbachmann/cel-js'
import { CelCustomValue } from '../custom-value.js'

/**
 * Kubernetes resource quantities (`quantity('500m')`, `quantity('1.5Gi').isLessThan(...)`), with the
 * parsing and arithmetic of k8s.io/apimachinery's resource.Quantity, exactly (BigInt), including
 * its quirks: values finer than 1n round up to 1n; binary-suffixed values are capped at 2^63-1;
 * `isInteger()` / `asInteger()` succeed only for quantities Go keeps in its int64 fast form with a
 * non-negative exponent (so `quantity('1000m').isInteger()` is false, as in Kubernetes).
 */

export const QUANTITY_TYPE = 'kubernetes.Quantity'

const MIN_INT64 = -(2n ** 63n)
const MAX_INT64 = 2n ** 63n - 1n
const NANO = -9
/** Largest exponent gap we materialise as a power of ten; beyond it arithmetic is refused. */
const MAX_SCALE_GAP = 10_000

const FORMAT_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
const SUFFIX_ERROR = "unable to parse quantity's suffix"

export class Quantity extends CelCustomValue {
  readonly celTypeName = QUANTITY_TYPE
  /** The value is unscaled × 10^scale. */
  readonly unscaled: bigint
  readonly scale: number
  /** True when Go would hold this value as an inf.Dec rather than an int64 (see isInteger). */
  readonly decimal: boolean
  readonly #text: string | undefined

  constructor(unscaled: bigint, scale: number, decimal: boolean, text?: string) {
    super()
    this.unscaled = unscaled
    this.scale = scale
    this.decimal = decimal
    this.#text = text
  }

  sign(): bigint {
    return this.unscaled > 0n ? 1n : this.unscaled < 0n ? -1n : 0n
  }

  /** Go's Quantity.AsInt64: the value when it is held as int64 at a non-negative scale and fits. */
  asInt64(): bigint | undefined {
    if (this.decimal || this.scale < 0) return undefined
    if (this.unscaled === 0n || this.scale === 0) return this.unscaled
    if (this.scale > 18) return undefined
    const value = this.unscaled * 10n ** BigInt(this.scale)
    return fitsInt64(value) ? value : undefined
  }

  asApproximateFloat(): number {
    const base = Number(this.unscaled)
    return this.scale === 0 ? base : base * 10 ** this.scale
  }

  compareTo(other: Quantity): number {
    return compareDecimals(this, other)
  }

  add(other: Quantity): Quantity {
    if (!this.decimal && !other.decimal) {
      const sum = addInt64Amounts(this, other)
      if (sum) return sum
    }
    const [a, b, scale] = align(this, other)
    return new Quantity(a + b, scale, true)
  }

  sub(other: Quantity): Quantity {
    return this.add(new Quantity(-other.unscaled, other.scale, other.decimal || other.unscaled === MIN_INT64))
  }

  celEquals(other: CelCustomValue): boolean {
    return other instanceof Quantity && this.compareTo(other) === 0
  }

  override toString(): string {
    return this.#text ?? canonicalText(this)
  }
}

function fitsInt64(value: bigint): boolean {
  return value >= MIN_INT64 && value <= MAX_INT64
}

/** Go's int64Amount.Add: stays at the smaller scale, fails on any int64 overflow. */
function addInt64Amounts(a: Quantity, b: Quantity): Quantity | undefined {
  if (b.unscaled === 0n) return a
  if (a.unscaled === 0n) return b
  let sum: bigint
  let scale: number
  if (a.scale === b.scale) {
    sum = a.unscaled + b.unscaled
    scale = a.scale
  } else {
    const [high, low] = a.scale > b.scale ? [a, b] : [b, a]
    const gap = high.scale - low.scale
    if (gap > 18) return undefined
    const shifted = high.unscaled * 10n ** BigInt(gap)
    if (!fitsInt64(shifted)) return undefined
    sum = shifted + low.unscaled
    scale = low.scale
  }
  return fitsInt64(sum) ? new Quantity(sum, scale, false) : undefined
}

/** Both unscaled values at the common (smaller) scale. */
function align(a: Quantity, b: Quantity): [bigint, bigint, number] {
  if (a.scale === b.scale) return [a.unscaled, b.unscaled, a.scale]
  const gap = Math.abs(a.scale - b.scale)
  if (gap > MAX_SCALE_GAP) throw new EvaluationError('quantity arithmetic out of the supported range')
  const factor = 10n ** BigInt(gap)
  return a.scale > b.scale ? [a.unscaled * factor, b.unscaled, b.scale] : [a.unscaled, b.unscaled * factor, a.scale]
}

function compareDecimals(a: Quantity, b: Quantity): number {
  const signA = a.sign()
  const signB = b.sign()
  if (signA !== signB) return signA < signB ? -1 : 1
  if (signA === 0n) return 0
  // Decide by order of magnitude first so `1e999999999` vs `1` never builds a huge power of ten.
  const magnitudeA = digits(a.unscaled) + a.scale
  const magnitudeB = digits(b.unscaled) + b.scale
  if (Math.abs(magnitudeA - magnitudeB) > 1) return (magnitudeA > magnitudeB ? 1 : -1) * Number(signA)
  const [x, y] = align(a, b)
  return x === y ? 0 : x < y ? -1 : 1
}

function digits(value: bigint): number {
  return (value < 0n ? -value : value).toString().length
}

/** Go's resource.ParseQuantity. Throws an Error carrying Go's message. */
export function parseQuantity(text: string): Quantity {
  if (text.length === 0) throw new Error(FORMAT_ERROR)
  if (text === '0') return new Quantity(0n, 0, false, text)
  const parts = scanQuantity(text)
  const suffix = interpretSuffix(parts.suffix)
  const { num, denom, positive } = parts

  let precision: number
  let scale = 0
  let multiplier = 1n
  if (suffix.binary) {
    if (suffix.exponent >= 0 && denom.length === 0) {
      multiplier = 1n << BigInt(suffix.exponent)
      precision = 15 - num.length - Math.trunc((suffix.exponent * 3) / 10) - 1
    } else precision = -1
  } else {
    scale = suffix.exponent
    precision = 18 - (num.length + denom.length)
  }

  // Go's fast path: the value fits an int64 at a scale no finer than nano.
  if (precision >= 0) {
    scale -= denom.length
    if (scale >= NANO) {
      const result = BigInt(num + denom) * multiplier
      if (fitsInt64(result)) return new Quantity(positive ? result : -result, scale, false, text)
    }
  }

  // The inf.Dec path: exact value, rounded up to nano, binary values capped.
  const dot = parts.value.indexOf('.')
  const integerDigits = dot < 0 ? parts.value : parts.value.slice(0, dot)
  const fractionDigits = dot < 0 ? '' : parts.value.slice(dot + 1)
  let unscaled = BigInt(`${integerDigits.replace(/^[+-]/, '') || '0'}${fractionDigits}`)
  let exponent = -fractionDigits.length
  if (suffix.binary) unscaled <<= BigInt(suffix.exponent)
  else exponent += suffix.exponent
  if (exponent < NANO && unscaled !== 0n) {
    const gap = NANO - exponent
    // Anything more than one digit below nano rounds up to exactly 1n without a huge division.
    if (gap > digits(unscaled) + 1) unscaled = 1n
    else {
      const divisor = 10n ** BigInt(gap)
      unscaled = (unscaled + divisor - 1n) / divisor
    }
    exponent = NANO
  }
  if (exponent > MAX_SCALE_GAP) throw new Error(`quantity exponent out of the supported range: ${text}`)
  if (suffix.binary && unscaled > (exponent >= 0 ? MAX_INT64 : MAX_INT64 * 10n ** BigInt(-exponent))) {
    unscaled = MAX_INT64
    exponent = 0
  }
  return new Quantity(positive ? unscaled : -unscaled, exponent, true, text)
}

interface ScannedQuantity {
  readonly positive: boolean
  /** Sign and number as written, e.g. `-001.50`. */
  readonly value: string
  /** Integer digits without leading zeros ('0' when none). */
  readonly num: string
  readonly denom: string
  readonly suffix: string
}

/** Go's parseQuantityString: splits sign, number and suffix; rejects anything after the suffix. */
function scanQuantity(text: string): ScannedQuantity {
  let pos = 0
  let positive = true
  if (text[0] === '-' || text[0] === '+') {
    positive = text[0] === '+'
    pos++
  }
  while (pos < text.length && text[pos] === '0') pos++
  if (pos >= text.length) return { positive, value: '0', num: '0', denom: '', suffix: '' }
  const numStart = pos
  while (pos < text.length && isDigit(text[pos])) pos++
  const num = text.slice(numStart, pos) || '0'
  let denom = ''
  if (text[pos] === '.') {
    pos++
    const denomStart = pos
    while (pos < text.length && isDigit(text[pos])) pos++
    denom = text.slice(denomStart, pos)
  }
  const value = text.slice(0, pos)
  const suffixStart = pos
  while (pos < text.length && 'eEinumkKMGTP'.includes(text[pos] as string)) pos++
  if (text[pos] === '-' || text[pos] === '+') pos++
  while (pos < text.length && isDigit(text[pos])) pos++
  if (pos < text.length) throw new Error(FORMAT_ERROR)
  return { positive, value, num, denom, suffix: text.slice(suffixStart) }
}

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9'
}

interface Suffix {
  readonly binary: boolean
  readonly exponent: number
}

const DECIMAL_SUFFIXES: Readonly<Record<string, number>> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 }
const BINARY_SUFFIXES: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 }

function interpretSuffix(suffix: string): Suffix {
  const decimal = DECIMAL_SUFFIXES[suffix]
  if (decimal !== undefined) return { binary: false, exponent: decimal }
  const binary = BINARY_SUFFIXES[suffix]
  if (binary !== undefined) return { binary: true, exponent: binary }
  if (suffix.length > 1 && (suffix[0] === 'e' || suffix[0] === 'E') && /^[+-]?[0-9]+$/.test(suffix.slice(1))) {
    const exponent = Number(suffix.slice(1))
    if (Number.isSafeInteger(exponent) && Math.abs(exponent) <= 2 ** 31 - 1) return { binary: false, exponent }
  }
  throw new Error(SUFFIX_ERROR)
}

const CANONICAL_SUFFIXES: Readonly<Record<number, string>> = { [-9]: 'n', [-6]: 'u', [-3]: 'm', 0: '', 3: 'k', 6: 'M', 9: 'G', 12: 'T', 15: 'P', 18: 'E' }

/** A computed quantity in decimal SI form with the largest suffix that needs no fraction (`1500m`, `2k`). */
function canonicalText(q: Quantity): string {
  let unscaled = q.unscaled
  let scale = q.scale
  while (unscaled !== 0n && unscaled % 10n === 0n && scale < 18) {
    unscaled /= 10n
    scale++
  }
  if (unscaled === 0n) return '0'
  let exponent = Math.min(18, Math.floor(scale / 3) * 3)
  if (exponent < NANO) exponent = NANO
  const shift = scale - exponent
  if (shift > MAX_SCALE_GAP) return `${unscaled}e${scale}`
  const mantissa = shift >= 0 ? unscaled * 10n ** BigInt(shift) : unscaled
  return `${mantissa}${CANONICAL_SUFFIXES[exponent] ?? `e${exponent}`}`
}

export function registerQuantityLibrary(env: Environment): void {
  const sync = { async: false }
  const Q = QUANTITY_TYPE
  env.registerType(Q, { ctor: Quantity, fields: {} })
  env.registerOperator(`${Q} == ${Q}`, (a: Quantity, b: Quantity) => a.compareTo(b) === 0)
  env.registerFunction(`quantity(string): ${Q}`, toQuantity, sync)
  env.registerFunction('isQuantity(string): bool', isQuantity, sync)
  env.registerFunction(`sign(${Q}): int`, (q: Quantity) => q.sign(), sync)
  env.registerFunction(`${Q}.sign(): int`, (q: Quantity) => q.sign(), sync)
  env.registerFunction(`${Q}.isGreaterThan(${Q}): bool`, (a: Quantity, b: Quantity) => a.compareTo(b) > 0, sync)
  env.registerFunction(`${Q}.isLessThan(${Q}): bool`, (a: Quantity, b: Quantity) => a.compareTo(b) < 0, sync)
  env.registerFunction(`${Q}.compareTo(${Q}): int`, (a: Quantity, b: Quantity) => BigInt(a.compareTo(b)), sync)
  env.registerFunction(`${Q}.asApproximateFloat(): double`, (q: Quantity) => q.asApproximateFloat(), sync)
  env.registerFunction(`${Q}.isInteger(): bool`, (q: Quantity) => q.asInt64() !== undefined, sync)
  env.registerFunction(`${Q}.asInteger(): int`, asInteger, sync)
  env.registerFunction(`${Q}.add(${Q}): ${Q}`, (a: Quantity, b: Quantity) => a.add(b), sync)
  env.registerFunction(`${Q}.add(int): ${Q}`, (a: Quantity, b: bigint) => a.add(new Quantity(b, 0, false)), sync)
  env.registerFunction(`${Q}.sub(${Q}): ${Q}`, (a: Quantity, b: Quantity) => a.sub(b), sync)
  env.registerFunction(`${Q}.sub(int): ${Q}`, (a: Quantity, b: bigint) => a.sub(new Quantity(b, 0, false)), sync)
}

function toQuantity(text: string): Quantity {
  try {
    return parseQuantity(text)
  } catch (error) {
    throw new EvaluationError(error instanceof Error ? error.message : String(error), undefined, error)
  }
}

function isQuantity(text: string): boolean {
  try {
    parseQuantity(text)
    return true
  } catch {
    return false
  }
}

function asInteger(q: Quantity): bigint {
  const value = q.asInt64()
  if (value === undefined) throw new EvaluationError('cannot convert value to integer')
  return value
}
