import type { GoValue } from '../go-value.js'
import { durationOrderingHolds } from './duration-ordering.js'
import { equals, notEquals } from './equals.js'
import { inHolds } from './in.js'
import { orderingHolds } from './ordering.js'
import { setOperatorHolds } from './set-operators.js'

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

/**
 * The handler for an operator name, found regardless of case as Kyverno's engine finds it;
 * undefined for a name that is no operator. Ordering and duration handlers keep the name as
 * written (see ordering.ts).
 */
export function operatorHandler(name: string): OperatorHandler | undefined {
  switch (name.toLowerCase()) {
    case 'equals':
    case 'equal':
      return equals
    case 'notequals':
    case 'notequal':
      return notEquals
    case 'in':
      return (key, value) => inHolds(key, value, false)
    case 'notin':
      return (key, value) => inHolds(key, value, true)
    case 'anyin':
      return (key, value) => setOperatorHolds('AnyIn', key, value)
    case 'allin':
      return (key, value) => setOperatorHolds('AllIn', key, value)
    case 'anynotin':
      return (key, value) => setOperatorHolds('AnyNotIn', key, value)
    case 'allnotin':
      return (key, value) => setOperatorHolds('AllNotIn', key, value)
    case 'greaterthan':
    case 'greaterthanorequals':
    case 'lessthan':
    case 'lessthanorequals':
      return (key, value) => orderingHolds(name, key, value)
    case 'durationgreaterthan':
    case 'durationgreaterthanorequals':
    case 'durationlessthan':
    case 'durationlessthanorequals':
      return (key, value) => durationOrderingHolds(name, key, value)
    default:
      return undefined
  }
}
