import { isGoList, isGoObject, type GoValue } from './go-value.js'

/**
 * Go's reflect.DeepEqual on decoded JSON, which Kyverno's Equals uses for lists and maps: order
 * matters in lists, and an int64 never equals a float64 even when both hold 80 (see go-value.ts).
 */
export function goDeepEqual(a: GoValue, b: GoValue): boolean {
  if (a === null || b === null) return a === b
  if (isGoList(a)) {
    if (!isGoList(b) || a.length !== b.length) return false
    return a.every((item, index) => goDeepEqual(item, b[index] ?? null))
  }
  if (isGoObject(a)) {
    if (!isGoObject(b)) return false
    const keys = Object.keys(a)
    if (keys.length !== Object.keys(b).length) return false
    return keys.every((key) => Object.hasOwn(b, key) && goDeepEqual(a[key] ?? null, b[key] ?? null))
  }
  // Same JavaScript type and ===: a float64 NaN is unequal to itself in Go too.
  return typeof a === typeof b && a === b
}
