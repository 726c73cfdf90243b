import { EvaluationError } from '@marcbachmann/cel-js'
import { isCelDuration, isCelUint } from './runtime-types.js'

/**
 * CEL ordering (`<`) for the comparable types: int, uint and double (also across each other),
 * bool, string, bytes, timestamp and duration. Returns -1, 0 or 1; throws for other types, as
 * cel-go's list functions do ("no such overload").
 */
export function compareCel(a: unknown, b: unknown): number {
  const na = numeric(a)
  const nb = numeric(b)
  if (na !== undefined && nb !== undefined) return compareNumbers(na, nb)
  if (typeof a === 'string' && typeof b === 'string') return compareStrings(a, b)
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1
  if (a instanceof Date && b instanceof Date) return sign(a.getTime() - b.getTime())
  if (isCelDuration(a) && isCelDuration(b)) {
    return a.seconds === b.seconds ? sign(a.nanos - b.nanos) : a.seconds < b.seconds ? -1 : 1
  }
  if (a instanceof Uint8Array && b instanceof Uint8Array) return compareBytes(a, b)
  throw new EvaluationError(`no such overload: cannot compare ${describe(a)} with ${describe(b)}`)
}

function numeric(value: unknown): bigint | number | undefined {
  if (typeof value === 'bigint' || typeof value === 'number') return value
  return isCelUint(value) ? value.valueOf() : undefined
}

function compareNumbers(a: bigint | number, b: bigint | number): number {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a === b ? 0 : a < b ? -1 : 1
  // A double against an int: JS compares a number with a bigint exactly.
  return a < b ? -1 : a > b ? 1 : 0
}

/** Code point order (Go's byte order on UTF-8), which differs from UTF-16 order past U+D7FF. */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i)
    const y = b.charCodeAt(i)
    if (x === y) continue
    if (x >= 0xd800 && y >= 0xd800) return (a.codePointAt(i) as number) < (b.codePointAt(i) as number) ? -1 : 1
    return x < y ? -1 : 1
  }
  return a.length < b.length ? -1 : 1
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return (a[i] as number) < (b[i] as number) ? -1 : 1
  return sign(a.length - b.length)
}

function sign(n: number): number {
  return n < 0 ? -1 : n > 0 ? 1 : 0
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'list'
  if (typeof value === 'object') {
    const proto: unknown = Object.getPrototypeOf(value)
    return value instanceof Map || proto === Object.prototype || proto === null ? 'map' : value.constructor.name
  }
  return typeof value === 'bigint' ? 'int' : typeof value === 'number' ? 'double' : typeof value
}
