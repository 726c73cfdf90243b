import { Optional } from '@marcbachmann/cel-js'
import { charge, isOutermostEvaluation } from './cost-budget.js'

/**
 * What a CEL value costs in budget units (see cost-budget.ts), in proportion to its size: one unit
 * per 16 characters of a string or bytes, one per 4 elements of a list or entries of a map.
 *
 * `resultCost` is what an operator or function is charged for returning the value: one unit for
 * the operation, plus what it built of the value's top level. It is charged after the value is
 * built, which is safe because no single operation makes more than a few times what it was given
 * in about the time its inputs were charged for. Where the result can be much larger or slower to
 * build than that, the operation charges it before building it: `+` (the sizes of its operands),
 * `replace`, `join` with a separator and `split`.
 *
 * `walkCost` is what reading the whole value costs: comparing it, printing it, joining it. It is
 * charged before the walk. Values share parts (`[l, l]` holds one list twice), so a value built in
 * a few cheap steps can stand for far more than its memory; the walk cost counts every part as
 * often as it appears, and is remembered per list and map, so working it out never walks a shared
 * part twice.
 */

/** 16 characters a unit: the shift that divides a length into units. */
const STRING_SHIFT = 4
/** 4 elements a unit. */
const ELEMENT_SHIFT = 2

/** Units for an operation that returned `value`: one, plus its characters or element slots. */
export function resultCost(value: unknown): number {
  return 1 + sizeCost(value)
}

/** Units for the characters or element slots of `value`'s top level; 0 for a scalar. */
export function sizeCost(value: unknown): number {
  if (typeof value === 'string') return value.length >>> STRING_SHIFT
  if (typeof value !== 'object' || value === null) return 0
  if (Array.isArray(value)) return value.length >>> ELEMENT_SHIFT
  if (value instanceof Map || value instanceof Set) return value.size >>> ELEMENT_SHIFT
  if (value instanceof Uint8Array) return value.length >>> STRING_SHIFT
  return 0
}

const walkCosts = new WeakMap<object, number>()

/** Units for reading every part of `value`, shared parts counted each time they appear. */
export function walkCost(value: unknown): number {
  if (typeof value === 'string') return value.length >>> STRING_SHIFT
  if (typeof value !== 'object' || value === null) return 0
  const known = walkCosts.get(value)
  if (known !== undefined) return known
  const cost = containerWalkCost(value)
  walkCosts.set(value, cost)
  return cost
}

function containerWalkCost(value: object): number {
  if (Array.isArray(value)) return elementsCost(value as readonly unknown[], value.length)
  if (value instanceof Set) return elementsCost(value, value.size)
  if (value instanceof Map) {
    let cost = 1 + (value.size >>> ELEMENT_SHIFT)
    for (const [key, item] of value) cost += walkCost(key) + walkCost(item)
    return cost
  }
  if (value instanceof Uint8Array) return value.length >>> STRING_SHIFT
  if (value instanceof Optional) return 1 + (value.hasValue() ? walkCost(value.value()) : 0)
  const proto: unknown = Object.getPrototypeOf(value)
  if (proto !== Object.prototype && proto !== null) return 1
  const keys = Object.keys(value)
  let cost = 1 + (keys.length >>> ELEMENT_SHIFT)
  for (const key of keys) cost += walkCost(key) + walkCost((value as Record<string, unknown>)[key])
  return cost
}

function elementsCost(items: Iterable<unknown>, count: number): number {
  let cost = 1 + (count >>> ELEMENT_SHIFT)
  for (const item of items) cost += walkCost(item)
  return cost
}

/** Charges an operation for the value it just returned. */
export function chargeResult(value: unknown): void {
  charge(resultCost(value))
}

/** Charges, before an operation runs, for an operand whose top level it copies (`+`). */
export function chargeSize(value: unknown): void {
  const cost = sizeCost(value)
  if (cost > 0) charge(cost)
}

/** Charges for reading all of a value, before it is read. */
export function chargeWalk(value: unknown): void {
  const cost = walkCost(value)
  if (cost > 0) charge(cost)
}

/**
 * Charges the walk of a list or map an evaluation returns to its caller, which prints or compares
 * it outside any budget (a validation that returns a list): a list sharing its parts can print as
 * far more than it holds. Only the outermost evaluation's result leaves: a variable's value is
 * read by metered operations of the evaluation that asked for it. Strings were charged when they
 * were built, and booleans, what nearly every evaluation returns, cost nothing to check.
 */
export function chargeReturned(value: unknown): void {
  if (typeof value === 'object' && value !== null && isOutermostEvaluation()) chargeWalk(value)
}
