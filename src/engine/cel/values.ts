import { CelCustomValue } from './custom-value.js'
import { isCelDuration, isCelType, isCelUint, isOptional } from './runtime-types.js'

const MIN_INT64 = -(2n ** 63n)
const MAX_INT64 = 2n ** 63n - 1n

/**
 * JSON → CEL input. JSON has one number type while CEL has int and double: whole numbers within
 * int64 become BigInt (CEL int), as Kubernetes decodes them, so `spec.replicas > 1` compares ints.
 * Everything else is passed through. Containers are copied only when something inside changes,
 * so a document without numbers costs no allocation.
 */
export function toCelValue(json: unknown): unknown {
  if (typeof json === 'number') return decodedNumber(json)
  if (typeof json !== 'object' || json === null) return json
  if (Array.isArray(json)) return convertArray(json)
  return isPlainObject(json) ? convertObject(json) : json
}

/**
 * A JSON number as Kubernetes decodes it: int64 (BigInt) when whole and within range, else float64.
 * This runs over every admitted object, so safe integers (all real ones) skip the int64 range check.
 */
export function decodedNumber(value: number): number | bigint {
  if (value >= 0 && value < SMALL_INT_COUNT && (value | 0) === value) return smallInts()[value] as bigint
  if (Number.isSafeInteger(value)) return BigInt(value)
  if (!Number.isInteger(value)) return value
  const int = BigInt(value)
  return int >= MIN_INT64 && int <= MAX_INT64 ? int : value
}

/**
 * Ports, user ids, replica counts and sizes are small: sharing their (immutable) BigInts spares
 * an allocation per number per evaluation.
 */
const SMALL_INT_COUNT = 65_536
let smallIntTable: bigint[] | undefined

function smallInts(): bigint[] {
  if (!smallIntTable) {
    smallIntTable = new Array<bigint>(SMALL_INT_COUNT)
    for (let i = 0; i < SMALL_INT_COUNT; i++) smallIntTable[i] = BigInt(i)
  }
  return smallIntTable
}

function needsConversion(value: unknown): boolean {
  return typeof value === 'number' || (typeof value === 'object' && value !== null)
}

function convertArray(array: readonly unknown[]): unknown[] {
  let copy: unknown[] | undefined
  for (let i = 0; i < array.length; i++) {
    const item = array[i]
    if (!needsConversion(item)) continue
    const converted = toCelValue(item)
    if (converted !== item) {
      copy ??= array.slice()
      copy[i] = converted
    }
  }
  return copy ?? (array as unknown[])
}

function convertObject(object: Record<string, unknown>): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined
  for (const key in object) {
    const value = object[key]
    if (!needsConversion(value)) continue
    const converted = toCelValue(value)
    if (converted !== value) {
      copy ??= { ...object }
      setOwn(copy, key, converted)
    }
  }
  return copy ?? object
}

/**
 * CEL result → JSON-friendly value: BigInt becomes a number (a string when it would lose
 * precision), maps become objects, sets lists, optionals their value (null when empty), bytes
 * base64, timestamps RFC 3339, durations and library types (Quantity, IP...) their text.
 */
export function fromCelValue(value: unknown): unknown {
  switch (typeof value) {
    case 'bigint':
      return bigintToJson(value)
    case 'number':
      return Number.isFinite(value) ? value : formatDouble(value)
    case 'string':
    case 'boolean':
      return value
    case 'undefined':
      return null
    case 'object':
      return value === null ? null : objectFromCel(value)
    default:
      return String(value)
  }
}

function objectFromCel(value: object): unknown {
  if (Array.isArray(value)) return value.map(fromCelValue)
  if (value instanceof Set) return [...value].map(fromCelValue)
  if (value instanceof Map) {
    const out: Record<string, unknown> = {}
    for (const [key, item] of value) setOwn(out, keyText(key), fromCelValue(item))
    return out
  }
  if (isOptional(value)) return value.hasValue() ? fromCelValue(value.value()) : null
  if (isCelUint(value)) return bigintToJson(value.valueOf())
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64')
  if (value instanceof Date) return formatTimestamp(value)
  if (isCelDuration(value) || value instanceof CelCustomValue) return value.toString()
  if (isCelType(value)) return value.name
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {}
    for (const key of Object.keys(value)) setOwn(out, key, fromCelValue(value[key]))
    return out
  }
  return String(value)
}

function bigintToJson(value: bigint): number | string {
  const number = Number(value)
  return Number.isSafeInteger(number) ? number : value.toString()
}

function keyText(key: unknown): string {
  return typeof key === 'string' ? key : celValueToString(key)
}

/**
 * Text of a CEL value for a message: strings as they are, everything else the way the CEL
 * `"%s".format([value])` clause prints it (lists `[a, b]`, maps `{k: v}` sorted by key).
 */
export function celValueToString(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return value
    case 'bigint':
      return value.toString()
    case 'number':
      return formatDouble(value)
    case 'boolean':
      return value ? 'true' : 'false'
    case 'undefined':
      return 'null'
    case 'object':
      return value === null ? 'null' : objectToString(value)
    default:
      return String(value)
  }
}

function objectToString(value: object): string {
  if (Array.isArray(value) || value instanceof Set) return `[${[...value].map(celValueToString).join(', ')}]`
  if (isCelUint(value)) return value.valueOf().toString()
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8')
  if (value instanceof Date) return formatTimestamp(value)
  if (isCelDuration(value)) return `${formatDouble(Number(value.seconds) + value.nanos / 1e9)}s`
  if (isCelType(value)) return value.name
  if (isOptional(value)) return value.hasValue() ? `optional.of(${celValueToString(value.value())})` : 'optional.none()'
  if (value instanceof CelCustomValue) return value.toString()
  const entries = value instanceof Map ? [...value.entries()] : isPlainObject(value) ? Object.entries(value) : undefined
  if (!entries) return String(value)
  const texts = entries.map(([key, item]): [string, string] => [celValueToString(key), celValueToString(item)])
  texts.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
  return `{${texts.map(([key, item]) => `${key}: ${item}`).join(', ')}}`
}

/**
 * A double the way Go's strconv.FormatFloat(x, 'f', -1, 64) writes it (what cel-go prints):
 * shortest round-trip digits, never in exponent form.
 */
export function formatDouble(value: number): string {
  if (Number.isNaN(value)) return 'NaN'
  if (value === Infinity) return 'Infinity'
  if (value === -Infinity) return '-Infinity'
  if (Object.is(value, -0)) return '-0'
  const text = String(value)
  const e = text.indexOf('e')
  if (e < 0) return text
  const sign = value < 0 ? '-' : ''
  const mantissa = text.slice(sign.length, e)
  const digits = mantissa.replace('.', '')
  const point = (mantissa.indexOf('.') < 0 ? mantissa.length : mantissa.indexOf('.')) + Number(text.slice(e + 1))
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`
}

/** RFC 3339 with the fraction trimmed of trailing zeros, as Go's time.RFC3339Nano. */
export function formatTimestamp(date: Date): string {
  return date.toISOString().replace(/\.?0*Z$/, 'Z')
}

/** The CEL type name of a runtime value, for error messages. */
export function celTypeOf(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return 'string'
    case 'bigint':
      return 'int'
    case 'number':
      return 'double'
    case 'boolean':
      return 'bool'
    case 'object':
      break
    default:
      return typeof value
  }
  if (value === null) return 'null_type'
  if (Array.isArray(value) || value instanceof Set) return 'list'
  if (value instanceof Map || isPlainObject(value)) return 'map'
  if (isCelUint(value)) return 'uint'
  if (value instanceof Uint8Array) return 'bytes'
  if (value instanceof Date) return 'google.protobuf.Timestamp'
  if (isCelDuration(value)) return 'google.protobuf.Duration'
  if (isCelType(value)) return 'type'
  if (isOptional(value)) return 'optional_type'
  if (value instanceof CelCustomValue) return value.celTypeName
  return value.constructor.name
}

function isPlainObject(value: object): value is Record<string, unknown> {
  if (value.constructor === Object) return true
  const proto: unknown = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

/** Assignment that cannot hit the `__proto__` setter for keys coming from untrusted JSON. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
  else target[key] = value
}
