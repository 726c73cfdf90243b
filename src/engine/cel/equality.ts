import { CelCustomValue } from './custom-value.js'
import { isCelDuration, isCelType, isCelUint, isOptional } from './runtime-types.js'

/**
 * CEL equality for library functions that compare elements (list indexOf, distinct, sets.*).
 * cel-js keeps its own `==` internal, so this mirrors the spec: numbers compare by value across
 * int/uint/double, containers compare deeply, values of different types are simply unequal.
 */
export function celEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true
  const na = numericValue(a)
  if (na !== undefined) {
    const nb = numericValue(b)
    return nb !== undefined && numbersEqual(na, nb)
  }
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return false
  if (a instanceof CelCustomValue) return b instanceof CelCustomValue && a.celTypeName === b.celTypeName && a.celEquals(b)
  if (a instanceof Uint8Array) return b instanceof Uint8Array && bytesEqual(a, b)
  if (a instanceof Date) return b instanceof Date && a.getTime() === b.getTime()
  if (isCelDuration(a)) return isCelDuration(b) && a.seconds === b.seconds && a.nanos === b.nanos
  if (isCelType(a)) return isCelType(b) && a.name === b.name
  if (isOptional(a)) {
    if (!isOptional(b) || a.hasValue() !== b.hasValue()) return false
    return !a.hasValue() || celEquals(a.value(), b.value())
  }
  const listA = asList(a)
  if (listA) {
    const listB = asList(b)
    return listB !== undefined && listA.length === listB.length && listA.every((item, i) => celEquals(item, listB[i]))
  }
  const mapA = asEntries(a)
  const mapB = asEntries(b)
  if (!mapA || !mapB || mapA.size !== mapB.size) return false
  for (const [key, value] of mapA) {
    if (!mapB.has(key) || !celEquals(value, mapB.get(key))) return false
  }
  return true
}

function numericValue(value: unknown): bigint | number | undefined {
  if (typeof value === 'bigint' || typeof value === 'number') return value
  return isCelUint(value) ? value.valueOf() : undefined
}

function numbersEqual(a: bigint | number, b: bigint | number): boolean {
  if (typeof a === typeof b) return a === b
  const double = (typeof a === 'number' ? a : b) as number
  const integer = (typeof a === 'bigint' ? a : b) as bigint
  return Number.isInteger(double) && BigInt(double) === integer
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

function asList(value: object): readonly unknown[] | undefined {
  if (Array.isArray(value)) return value
  return value instanceof Set ? [...value] : undefined
}

function asEntries(value: object): Map<unknown, unknown> | undefined {
  if (value instanceof Map) return value
  const proto: unknown = Object.getPrototypeOf(value)
  if (proto !== Object.prototype && proto !== null) return undefined
  return new Map(Object.entries(value))
}
