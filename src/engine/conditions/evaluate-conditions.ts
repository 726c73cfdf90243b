import type { ConditionBlock, ConditionResolver, ConditionsError, ConditionsResult } from './condition.js'
import { toGoValue, type GoValue } from './go-value.js'
import { joinPath } from './join-path.js'
import { ConditionOperandError } from './operators/operand-error.js'
import { prepareConditions, type Operand, type PreparedCondition, type PreparedConditions, type PreparedEntry } from './prepared-conditions.js'

/**
 * Evaluates a block of conditions with Kyverno's semantics:
 * - `any` holds when one of its conditions holds, stopping at the first that does; a present but
 *   empty `any` never holds, an absent (or null) one is no constraint;
 * - `all` holds when every condition holds, stopping at the first that does not; empty or absent
 *   holds;
 * - both must hold; `all` is evaluated even when `any` already failed, so its errors still surface;
 * - a bare list is an `all` whose messages Kyverno joins with `;` instead of `; `;
 * - each condition substitutes its key, then its value (a failure is an error of the block), then
 *   looks up its operator (an unknown one is an error too, though check-conditions.ts refuses it
 *   when the definition is stored).
 * `basePath` prefixes the paths of errors (e.g. `rules[0].validate.deny.conditions`).
 */
export function evaluateConditions(block: ConditionBlock, resolve: ConditionResolver, basePath = ''): ConditionsResult {
  return evaluatePreparedConditions(prepareConditions(block, basePath), resolve)
}

/** The same evaluation over a block prepared once (see prepared-conditions.ts); literal operands skip `resolve`. */
export function evaluatePreparedConditions(block: PreparedConditions, resolve: ConditionResolver): ConditionsResult {
  switch (block.kind) {
    case 'none':
      return HOLDS
    case 'invalid':
      return { error: block.error }
    case 'list':
      return evaluateBareList(block.conditions, resolve)
    case 'anyAll':
      return evaluateAnyAll(block.any, block.all, resolve)
  }
}

function evaluateAnyAll(anyConditions: readonly PreparedEntry[] | undefined, allConditions: readonly PreparedEntry[] | undefined, resolve: ConditionResolver): ConditionsResult {
  // Messages are collected only when a condition has one; most have none.
  let heldMessages: string[] | undefined
  let failedMessages: string[] | undefined
  let anyHolds = true
  if (anyConditions !== undefined) {
    anyHolds = false
    for (const condition of anyConditions) {
      const holds = evaluateCondition(condition, resolve)
      if (typeof holds !== 'boolean') return { error: holds }
      const message = (condition as PreparedCondition).message
      if (holds) {
        anyHolds = true
        if (message !== '') (heldMessages ??= []).push(message)
        break
      }
      if (message !== '') (failedMessages ??= []).push(message)
    }
  }
  let allHold = true
  for (const condition of allConditions ?? []) {
    const holds = evaluateCondition(condition, resolve)
    if (typeof holds !== 'boolean') return { error: holds }
    const message = (condition as PreparedCondition).message
    if (!holds) {
      allHold = false
      if (message !== '') (failedMessages ??= []).push(message)
      break
    }
    if (message !== '') (heldMessages ??= []).push(message)
  }
  const passed = anyHolds && allHold
  return withMessage(passed, (passed ? heldMessages : failedMessages)?.join('; ') ?? '')
}

function evaluateBareList(conditions: readonly PreparedEntry[], resolve: ConditionResolver): ConditionsResult {
  let heldMessages: string[] | undefined
  for (const condition of conditions) {
    const holds = evaluateCondition(condition, resolve)
    if (typeof holds !== 'boolean') return { error: holds }
    const message = (condition as PreparedCondition).message
    if (!holds) return withMessage(false, message)
    if (message !== '') (heldMessages ??= []).push(message)
  }
  return withMessage(true, heldMessages?.join(';') ?? '')
}

/** Whether the condition holds, or why it could not be evaluated. */
function evaluateCondition(entry: PreparedEntry, resolve: ConditionResolver): boolean | ConditionsError {
  if ('invalid' in entry) return entry.invalid
  const { path, key: keyOperand, value: valueOperand, handler } = entry
  let key: GoValue
  let value: GoValue
  try {
    key = goValueOf(keyOperand, resolve)
  } catch (error) {
    return { path: joinPath(path, 'key'), message: `failed to substitute variables in condition key: ${describe(error)}`, cause: error }
  }
  try {
    value = goValueOf(valueOperand, resolve)
  } catch (error) {
    return { path: joinPath(path, 'value'), message: `failed to substitute variables in condition value: ${describe(error)}`, cause: error }
  }
  if (handler === undefined) return { path: joinPath(path, 'operator'), message: `unknown condition operator ${JSON.stringify(entry.operator ?? null)}` }
  try {
    return handler(key, value)
  } catch (error) {
    if (error instanceof ConditionOperandError) return { path, message: error.message, cause: error }
    throw error
  }
}

function goValueOf(operand: Operand, resolve: ConditionResolver): GoValue {
  return operand.literal ? operand.literal.go : toGoValue(operand.raw, resolve(operand.raw, operand.prepared))
}

const HOLDS: ConditionsResult = Object.freeze({ passed: true })
const FAILS: ConditionsResult = Object.freeze({ passed: false })

function withMessage(passed: boolean, message: string): ConditionsResult {
  if (message === '') return passed ? HOLDS : FAILS
  return { passed, message }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
