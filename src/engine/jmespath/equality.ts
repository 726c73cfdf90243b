import { charge, JmespathBudgetError } from './budget.js'
import { hasOwn, isJsonObject, type JsonValue } from './json.js'

/**
 * Deep equality of JSON values (Go's reflect.DeepEqual on decoded JSON), metered: an expression
 * can build two large trees that share structure (`[@, @] | [@, @] | ...`), whose comparison
 * visits exponentially many nodes, so every node visited is charged.
 */

const MAX_DEPTH = 1000

export function jsonEqual(a: JsonValue, b: JsonValue, depth = 0): boolean {
  charge(1)
  if (a === b) return true
  if (depth > MAX_DEPTH) throw new JmespathBudgetError(`value nested more than ${MAX_DEPTH} levels deep`)
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i] as JsonValue, b[i] as JsonValue, depth + 1)) return false
    return true
  }
  if (!isJsonObject(a) || !isJsonObject(b)) return false
  const keys = Object.keys(a)
  if (keys.length !== Object.keys(b).length) return false
  for (const key of keys) {
    if (!hasOwn(b, key) || !jsonEqual(a[key] as JsonValue, b[key] as JsonValue, depth + 1)) return false
  }
  return true
}
