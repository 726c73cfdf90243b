/**
 * A condition's key or value in the shape Kyverno's Go engine compares it, so that the operators
 * can follow Kyverno where it depends on Go's dynamic types.
 *
 * Go keeps two kinds of number where JavaScript has one, and the operators tell them apart: a
 * deep comparison never finds an int64 equal to a float64, and `fmt.Sprint` spells a float64 of a
 * million `1e+06` but an int64 `1000000`. Which kind a number is depends on where it came from:
 * - written in the definition inside a list or map, and integral: int64 (Kubernetes' JSON decoder
 *   turns every integral literal into int64, and nothing re-encodes a list or map afterwards);
 * - written in the definition as the whole key or value: float64 (Kyverno round-trips a scalar
 *   key or value through encoding/json before substituting variables);
 * - produced by a `{{ }}` substitution: float64 (JMESPath works on decoded JSON).
 * Here a bigint is an int64 and a number a float64.
 */
export type GoValue = null | boolean | string | number | bigint | readonly GoValue[] | GoObject

export interface GoObject {
  readonly [key: string]: GoValue
}

const INT64_LIMIT = 2 ** 63

export function isGoList(value: GoValue): value is readonly GoValue[] {
  return Array.isArray(value)
}

export function isGoObject(value: GoValue): value is GoObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * The Go form of `resolved`, the substituted form of `raw` as written in the definition. Numbers
 * that stand where `raw` holds the same number are literals; anything else came from substitution.
 */
export function toGoValue(raw: unknown, resolved: unknown): GoValue {
  return convert(raw, resolved, false)
}

function convert(raw: unknown, resolved: unknown, nested: boolean): GoValue {
  if (resolved === null || resolved === undefined) return null
  switch (typeof resolved) {
    case 'boolean':
    case 'string':
      return resolved
    case 'bigint':
      return BigInt.asIntN(64, resolved)
    case 'number':
      return nested && raw === resolved && isInt64(resolved) ? BigInt(resolved) : resolved
    case 'object':
      break
    default:
      // Functions and symbols cannot come out of JSON or JMESPath; Go would hold nothing there.
      return null
  }
  if (Array.isArray(resolved)) {
    // Substitution rewrites a list element by element, so positions still pair literal with result.
    const rawItems = Array.isArray(raw) && raw.length === resolved.length ? raw : undefined
    return resolved.map((item, index) => convert(rawItems?.[index], item, true))
  }
  const rawObject = isPlainRecord(raw) ? raw : undefined
  const result: Record<string, GoValue> = {}
  for (const [key, item] of Object.entries(resolved)) {
    result[key] = convert(rawObject !== undefined && Object.hasOwn(rawObject, key) ? rawObject[key] : undefined, item, true)
  }
  return result
}

function isInt64(value: number): boolean {
  return Number.isInteger(value) && value >= -INT64_LIMIT && value < INT64_LIMIT
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
