import { durationSeconds } from '../go-duration.js'
import { parseGoFloat } from '../go-parse-float.js'
import type { GoValue } from '../go-value.js'
import { tryParseQuantity, tryParseSemver } from '../optional-parsers.js'
import { durationPair } from './duration-pair.js'

/**
 * Kyverno's GreaterThan, GreaterThanOrEquals, LessThan and LessThanOrEquals. A string key is read
 * as a duration (when either side is one: `2h` > 3600), else as a quantity against a quantity
 * string (`1Gi` > `1023Mi`), else as a number (`"10"` > 9), else as a semantic version against a
 * version string (`1.10.0` > `1.9.0`); a number key against a number, a numeric string, or a
 * duration string (the number then counts as seconds). Anything else, and any key or value that
 * none of these readings accepts, is false.
 *
 * Kyverno picks this handler by the operator's name in any case but then compares only when it is
 * spelled exactly, so `greaterthan` is false whatever the operands (check-conditions.ts refuses it).
 */
export function orderingHolds(operator: string, key: GoValue, value: GoValue): boolean {
  if (typeof key === 'number' || typeof key === 'bigint') return numberKeyHolds(operator, key, value)
  if (typeof key === 'string') return stringKeyHolds(operator, key, value)
  return false
}

function numberKeyHolds(operator: string, key: number | bigint, value: GoValue): boolean {
  if (typeof value === 'number' || typeof value === 'bigint') return compareFloats(operator, Number(key), Number(value))
  if (typeof value !== 'string') return false
  const durations = durationPair(key, value)
  if (durations) return compareFloats(operator, durationSeconds(durations[0]), durationSeconds(durations[1]))
  // Go also tries strconv.ParseInt here, but it accepts nothing ParseFloat refuses.
  const number = parseGoFloat(value)
  return number !== undefined && compareFloats(operator, Number(key), number)
}

function stringKeyHolds(operator: string, key: string, value: GoValue): boolean {
  const durations = durationPair(key, value)
  if (durations) return compareFloats(operator, durationSeconds(durations[0]), durationSeconds(durations[1]))
  if (typeof value === 'string') {
    const keyQuantity = tryParseQuantity(key)
    const valueQuantity = keyQuantity === undefined ? undefined : tryParseQuantity(value)
    if (keyQuantity !== undefined && valueQuantity !== undefined) return compareFloats(operator, keyQuantity.compareTo(valueQuantity), 0)
  }
  const number = parseGoFloat(key)
  if (number !== undefined) return numberKeyHolds(operator, number, value)
  const version = tryParseSemver(key)
  if (version === undefined || typeof value !== 'string') return false
  const other = tryParseSemver(value)
  return other !== undefined && compareFloats(operator, version.compare(other), 0)
}

function compareFloats(operator: string, key: number, value: number): boolean {
  switch (operator) {
    case 'GreaterThan':
      return key > value
    case 'GreaterThanOrEquals':
      return key >= value
    case 'LessThan':
      return key < value
    case 'LessThanOrEquals':
      return key <= value
    default:
      return false
  }
}
