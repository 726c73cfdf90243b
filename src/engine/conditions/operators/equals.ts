import { matchesGlob } from '../../match/glob.js'
import { goDeepEqual } from '../go-deep-equal.js'
import { durationSeconds } from '../go-duration.js'
import { floatToInt64, parseGoInt } from '../go-int.js'
import { parseGoFloat } from '../go-parse-float.js'
import { isGoList, isGoObject, type GoValue } from '../go-value.js'
import { tryParseQuantity } from '../optional-parsers.js'
import { durationPair } from './duration-pair.js'

/**
 * Kyverno's Equals (alias Equal). The key's type decides how the value is read:
 * - a string key compares as durations when either side is a duration (`1h` equals `60m` and
 *   3600), else as quantities when the key is one (`1Gi` equals `1024Mi`; a value that is not a
 *   quantity is then simply unequal, wildcards or not), else as a glob with the value as pattern;
 * - a number equals a number, or a string that Go reads as that number (`1` equals `"1.0"`);
 * - a boolean equals only the same boolean (`true` does not equal `"true"`);
 * - a list or map equals a deeply equal list or map (order counts in lists);
 * - a null key equals nothing.
 */
export function equals(key: GoValue, value: GoValue): boolean {
  switch (typeof key) {
    case 'boolean':
      return typeof value === 'boolean' && key === value
    case 'bigint':
      return int64Equals(key, value)
    case 'number':
      return float64Equals(key, value)
    case 'string':
      return stringEquals(key, value)
  }
  if (key === null) return false
  if (isGoList(key)) return isGoList(value) && goDeepEqual(key, value)
  return isGoObject(value) && goDeepEqual(key, value)
}

/**
 * Kyverno's NotEquals (alias NotEqual): on every branch of Equals it answers the opposite, except
 * for a null key, where both answer false.
 */
export function notEquals(key: GoValue, value: GoValue): boolean {
  return key !== null && !equals(key, value)
}

function int64Equals(key: bigint, value: GoValue): boolean {
  if (typeof value === 'bigint') return key === value
  if (typeof value === 'number') return Number.isInteger(value) && floatToInt64(value) === key
  if (typeof value === 'string') return parseGoInt(value) === key
  return false
}

function float64Equals(key: number, value: GoValue): boolean {
  if (typeof value === 'number') return key === value
  if (typeof value === 'bigint') return Number.isInteger(key) && floatToInt64(key) === value
  if (typeof value === 'string') return parseGoFloat(value) === key
  return false
}

function stringEquals(key: string, value: GoValue): boolean {
  const durations = durationPair(key, value)
  if (durations) return durationSeconds(durations[0]) === durationSeconds(durations[1])
  const keyQuantity = tryParseQuantity(key)
  if (keyQuantity !== undefined && typeof value === 'string') {
    const valueQuantity = tryParseQuantity(value)
    return valueQuantity !== undefined && keyQuantity.compareTo(valueQuantity) === 0
  }
  return typeof value === 'string' && matchesGlob(key, value)
}
