import { charge, JmespathBudgetError } from './budget.js'
import { JmespathError } from './errors.js'
import { setOwn, type JsonObject, type JsonValue } from './json.js'

/**
 * Checks a value decoded from text (parse_json, parse_yaml, a YAML values file) is plain JSON no
 * deeper than the project's document limit, and copies it into safe objects. Decoders build what
 * the text says: a 10,000-level array or a YAML alias bomb, which later walks would overflow or
 * spend exponential time on; the copy is charged per node, so an alias bomb meets the budget.
 */

export const MAX_DECODED_DEPTH = 200

export function toJsonValue(value: unknown, what: string): JsonValue {
  return copy(value, what, 0)
}

function copy(value: unknown, what: string, depth: number): JsonValue {
  charge(1)
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new JmespathError(`${what}: ${String(value)} is not a JSON number`)
    return value
  }
  if (depth >= MAX_DECODED_DEPTH) throw new JmespathBudgetError(`${what}: nested more than ${MAX_DECODED_DEPTH} levels deep`)
  if (Array.isArray(value)) return value.map((item) => copy(item, what, depth + 1))
  if (typeof value === 'object' && isPlainObject(value)) {
    const out: JsonObject = {}
    for (const key of Object.keys(value)) setOwn(out, key, copy((value as Record<string, unknown>)[key], what, depth + 1))
    return out
  }
  throw new JmespathError(`${what}: a ${describe(value)} has no JSON form`)
}

function isPlainObject(value: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

function describe(value: unknown): string {
  if (value === undefined) return 'missing value'
  if (typeof value === 'object' && value !== null) return value.constructor?.name ?? 'object'
  return typeof value
}
