import type { ConditionBlock, ConditionResolver, ConditionsError, ConditionsResult } from './condition.js'
import { toGoValue, type GoValue } from './go-value.js'
import { joinPath } from './join-path.js'
import { ConditionOperandError } from './operators/operand-error.js'
import { prepareConditions, type Operand, type PreparedConditions, type PreparedEntry } from './prepared-conditions.js'

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
      return { passed: true }
    case 'invalid':
      return { error: block.error }
    case 'list':
      return evaluateBareList(block.conditions, resolve)
    case 'anyAll':
      return evaluateAnyAll(block.any, block.all, resolve)
  }
}

function evaluateAnyAll(anyConditions: readonly PreparedEntry[] | undefined, allConditions: readonly PreparedEntry[] | undefined, resolve: ConditionResolver): ConditionsResult {
  const heldMessages: string[] = []
  const failedMessages: string[] = []
  let anyHolds = true
  if (anyConditions !== undefined) {
    anyHolds = false
    for (const condition of anyConditions) {
      const outcome = evaluateCondition(condition, resolve)
      if ('path' in outcome) return { error: outcome }
      if (outcome.holds) {
        anyHolds = true
        heldMessages.push(outcome.message)
        break
      }
      failedMessages.push(outcome.message)
    }
  }
  let allHold = true
  for (const condition of allConditions ?? []) {
    const outcome = evaluateCondition(condition, resolve)
    if ('path' in outcome) return { error: outcome }
    if (!outcome.holds) {
      allHold = false
      failedMessages.push(outcome.message)
      break
    }
    heldMessages.push(outcome.message)
  }
  const passed = anyHolds && allHold
  return withMessage(passed, joinNonEmpty(passed ? heldMessages : failedMessages, '; '))
}

function evaluateBareList(conditions: readonly PreparedEntry[], resolve: ConditionResolver): ConditionsResult {
  const heldMessages: string[] = []
  for (const condition of conditions) {
    const outcome = evaluateCondition(condition, resolve)
    if ('path' in outcome) return { error: outcome }
    if (!outcome.holds) return withMessage(false, outcome.message)
    heldMessages.push(outcome.message)
  }
  return withMessage(true, joinNonEmpty(heldMessages, ';'))
}

interface ConditionOutcome {
  readonly holds: boolean
  /** The condition's own message, '' when it has none. */
  readonly message: string
}

function evaluateCondition(entry: PreparedEntry, resolve: ConditionResolver): ConditionOutcome | ConditionsError {
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
    return { holds: handler(key, value), message: entry.message }
  } catch (error) {
    if (error instanceof ConditionOperandError) return { path, message: error.message, cause: error }
    throw error
  }
}

function goValueOf(operand: Operand, resolve: ConditionResolver): GoValue {
  return operand.literal ? operand.literal.go : toGoValue(operand.raw, resolve(operand.raw))
}

function withMessage(passed: boolean, message: string): ConditionsResult {
  return message === '' ? { passed } : { passed, message }
}

function joinNonEmpty(messages: readonly string[], separator: string): string {
  return messages.filter((message) => message !== '').join(separator)
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
