import { Quantity } from '../cel/libraries/quantity.js'
import { parseGoDuration } from './duration.js'
import { formatGoFloatE, formatGoFloatF, parseGoFloat, parseGoInt } from './go-number.js'
import { parseStringPattern, quantityOf, type Comparison, type StringCondition, type StringPattern } from './string-pattern.js'
import { matchesWildcard } from './wildcard.js'

/**
 * A leaf of a pattern (boolean, number, null or string) and how Kyverno compares a resource
 * value with it (pkg/engine/pattern). Resource values are as the engine holds them: whole numbers
 * as BigInt (Go's int64), other numbers as floats, missing fields as undefined.
 */
export type ScalarPattern =
  | { kind: 'bool'; value: boolean }
  | { kind: 'int'; value: bigint }
  | { kind: 'float'; value: number }
  | { kind: 'null' }
  | { kind: 'string'; pattern: StringPattern }

export type ScalarValue = string | number | boolean | null

export function scalarPatternOf(value: ScalarValue): ScalarPattern {
  if (value === null) return { kind: 'null' }
  if (typeof value === 'boolean') return { kind: 'bool', value }
  if (typeof value === 'string') return { kind: 'string', pattern: parseStringPattern(value) }
  // Kubernetes decodes a whole JSON number as int64, and the two compare differently with strings.
  return Number.isSafeInteger(value) ? { kind: 'int', value: BigInt(value) } : { kind: 'float', value }
}

export function matchesScalar(value: unknown, pattern: ScalarPattern): boolean {
  switch (pattern.kind) {
    case 'bool':
      return value === pattern.value
    case 'int':
      return matchesInt(value, pattern.value)
    case 'float':
      return matchesFloat(value, pattern.value)
    case 'null':
      return matchesNull(value)
    case 'string':
      return matchesString(value, pattern.pattern)
  }
}

function matchesInt(value: unknown, pattern: bigint): boolean {
  if (typeof value === 'bigint') return value === pattern
  // A float matches only when it has no fraction.
  if (typeof value === 'number') return Number.isInteger(value) && BigInt(value) === pattern
  if (typeof value === 'string') return parseGoInt(value) === pattern
  return false
}

function matchesFloat(value: unknown, pattern: number): boolean {
  if (typeof value === 'bigint') return Number.isInteger(pattern) && BigInt(pattern) === value
  if (typeof value === 'number') return value === pattern
  if (typeof value === 'string') return parseGoFloat(value) === pattern
  return false
}

/** `null` stands for "unset or empty": nothing, "", 0 and false; never a map or a list. */
function matchesNull(value: unknown): boolean {
  if (value === null || value === undefined) return true
  if (typeof value === 'string') return value === ''
  if (typeof value === 'bigint') return value === 0n
  if (typeof value === 'number') return value === 0
  if (typeof value === 'boolean') return !value
  return false
}

/** The value equal to the whole pattern text matches before any operator is read (so `2020-01` matches itself). */
function matchesString(value: unknown, pattern: StringPattern): boolean {
  if (value === pattern.text) return true
  return pattern.anyOf.some((conditions) => conditions.every((condition) => holds(value, condition)))
}

function holds(value: unknown, condition: StringCondition): boolean {
  if (condition.kind === 'compare') return compare(value, condition)
  return condition.inside
    ? compare(value, condition.low) && compare(value, condition.high)
    : compare(value, condition.low) || compare(value, condition.high)
}

/** By duration when both sides read as durations, else by quantity when both are quantities, else as text. */
function compare(value: unknown, comparison: Comparison): boolean {
  if (typeof value === 'bigint' || value === null || value === undefined) {
    const byNumber = compareWhole(value ?? 0n, comparison)
    if (byNumber !== undefined) return byNumber
  } else if (comparison.duration !== undefined || comparison.quantity !== undefined) {
    const text = numberText(value)
    if (text !== undefined) {
      if (comparison.duration !== undefined) {
        const duration = parseGoDuration(text)
        if (duration !== undefined) return ordered(comparison, duration < comparison.duration ? -1 : duration > comparison.duration ? 1 : 0)
      }
      if (comparison.quantity !== undefined) {
        const quantity = quantityOf(text)
        if (quantity !== undefined) return ordered(comparison, quantity.compareTo(comparison.quantity))
      }
    }
  }
  return compareText(value, comparison)
}

/**
 * The same for a whole number (a missing value reads as 0), without printing and parsing it: its
 * text reads as a duration only when it is 0 (other numbers lack a unit), and always as a quantity.
 */
function compareWhole(value: bigint, comparison: Comparison): boolean | undefined {
  if (comparison.duration !== undefined && value === 0n) return ordered(comparison, comparison.duration > 0n ? -1 : comparison.duration < 0n ? 1 : 0)
  if (comparison.quantity !== undefined) return ordered(comparison, new Quantity(value, 0, false).compareTo(comparison.quantity))
  return undefined
}

function ordered(comparison: Comparison, sign: number): boolean {
  switch (comparison.op) {
    case '':
      return sign === 0
    case '!':
      return sign !== 0
    case '>':
      return sign > 0
    case '<':
      return sign < 0
    case '>=':
      return sign >= 0
    case '<=':
      return sign <= 0
  }
}

/**
 * Kyverno's convertNumberToString, the text it parses as a duration or quantity: a missing value
 * reads as "0" (so `<10` holds for an unset field), floats with six decimals.
 */
function numberText(value: unknown): string | undefined {
  if (value === null || value === undefined) return '0'
  if (typeof value === 'string') return value
  if (typeof value === 'bigint') return value.toString()
  if (typeof value === 'number') return formatGoFloatF(value)
  return undefined
}

/** Equality and `!` as a wildcard match on the value's text; the orderings never hold for text; nothing matches a missing value. */
function compareText(value: unknown, comparison: Comparison): boolean {
  if (comparison.op !== '' && comparison.op !== '!') return false
  const text = valueText(value)
  if (text === undefined) return false
  const matched = comparison.literal ? text === comparison.operand : matchesWildcard(comparison.operand, text)
  return comparison.op === '!' ? !matched : matched
}

function valueText(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return value
    case 'bigint':
      return value.toString()
    case 'number':
      return formatGoFloatE(value)
    case 'boolean':
      return value ? 'true' : 'false'
    default:
      return undefined
  }
}
