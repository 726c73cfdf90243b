import type { GoValue } from '../go-value.js'
import { durationOrderingHolds } from './duration-ordering.js'
import { equals, notEquals } from './equals.js'
import { inHolds } from './in.js'
import { orderingHolds } from './ordering.js'
import { setOperatorHolds, setOperatorWithValue, type SetOperator } from './set-operators.js'

/** Every operator name a Kyverno policy may write, spelled as Kyverno's policy validation requires. */
export const CONDITION_OPERATORS = [
  'Equals',
  'NotEquals',
  'Equal',
  'NotEqual',
  'AnyIn',
  'AllIn',
  'AnyNotIn',
  'AllNotIn',
  'In',
  'NotIn',
  'GreaterThan',
  'GreaterThanOrEquals',
  'LessThan',
  'LessThanOrEquals',
  'DurationGreaterThan',
  'DurationGreaterThanOrEquals',
  'DurationLessThan',
  'DurationLessThanOrEquals',
] as const

export type ConditionOperator = (typeof CONDITION_OPERATORS)[number]

/** Whether a condition's key relates to its value; may throw ConditionOperandError. */
export type OperatorHandler = (key: GoValue, value: GoValue) => boolean

const KNOWN: ReadonlySet<string> = new Set(CONDITION_OPERATORS)

export function isConditionOperator(name: string): name is ConditionOperator {
  return KNOWN.has(name)
}

const ORDERING_NAMES = ['GreaterThan', 'GreaterThanOrEquals', 'LessThan', 'LessThanOrEquals'] as const
const DURATION_ORDERING_NAMES = ['DurationGreaterThan', 'DurationGreaterThanOrEquals', 'DurationLessThan', 'DurationLessThanOrEquals'] as const
const neverHolds: OperatorHandler = () => false

/** Handlers by lower-cased name, as Kyverno's engine looks operators up. */
const BY_LOWER_CASE: ReadonlyMap<string, OperatorHandler> = new Map<string, OperatorHandler>([
  ['equals', equals],
  ['equal', equals],
  ['notequals', notEquals],
  ['notequal', notEquals],
  ['in', (key, value) => inHolds(key, value, false)],
  ['notin', (key, value) => inHolds(key, value, true)],
  ['anyin', (key, value) => setOperatorHolds('AnyIn', key, value)],
  ['allin', (key, value) => setOperatorHolds('AllIn', key, value)],
  ['anynotin', (key, value) => setOperatorHolds('AnyNotIn', key, value)],
  ['allnotin', (key, value) => setOperatorHolds('AllNotIn', key, value)],
  // Found in any case, but Kyverno compares only under the exact name (see ordering.ts): otherwise false.
  ...[...ORDERING_NAMES, ...DURATION_ORDERING_NAMES].map((name): [string, OperatorHandler] => [name.toLowerCase(), neverHolds]),
])

/** The exactly spelled ordering operators, which do compare. */
const EXACT: ReadonlyMap<string, OperatorHandler> = new Map<string, OperatorHandler>([
  ...ORDERING_NAMES.map((name): [string, OperatorHandler] => [name, (key, value) => orderingHolds(name, key, value)]),
  ...DURATION_ORDERING_NAMES.map((name): [string, OperatorHandler] => [name, (key, value) => durationOrderingHolds(name, key, value)]),
])

/** The handler for an operator name, found regardless of case as Kyverno's engine finds it; undefined for no operator. */
export function operatorHandler(name: string): OperatorHandler | undefined {
  return EXACT.get(name) ?? BY_LOWER_CASE.get(name.toLowerCase())
}

const SET_OPERATORS: ReadonlyMap<string, SetOperator> = new Map<string, SetOperator>([
  ['anyin', 'AnyIn'],
  ['allin', 'AllIn'],
  ['anynotin', 'AnyNotIn'],
  ['allnotin', 'AllNotIn'],
])

/**
 * The handler for a condition whose value is written in the definition (`value` is its Go form),
 * with the work that depends on the value alone done now; the handler then ignores the value it
 * is given, which is that same one.
 */
export function operatorWithValue(name: string, value: GoValue): OperatorHandler | undefined {
  const set = EXACT.has(name) ? undefined : SET_OPERATORS.get(name.toLowerCase())
  if (set === undefined) return operatorHandler(name)
  const holds = setOperatorWithValue(set, value)
  return (key) => holds(key)
}
