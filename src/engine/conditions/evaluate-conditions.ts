import type { ConditionBlock, ConditionResolver, ConditionsError, ConditionsResult } from './condition.js'
import { toGoValue } from './go-value.js'
import { joinPath } from './join-path.js'
import { ConditionOperandError } from './operators/operand-error.js'
import { operatorHandler } from './operators/operators.js'

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
  if (block === null || block === undefined) return { passed: true }
  if (Array.isArray(block)) return evaluateBareList(block, resolve, basePath)
  if (typeof block !== 'object') return failure(basePath, 'conditions must be a list of conditions or an object with any and all')
  const record = block as Readonly<Record<string, unknown>>
  const anyList = listAt(record, 'any', basePath)
  if ('error' in anyList) return anyList
  const allList = listAt(record, 'all', basePath)
  if ('error' in allList) return allList
  const anyConditions = anyList.list
  const allConditions = allList.list

  const heldMessages: string[] = []
  const failedMessages: string[] = []
  let anyHolds = true
  if (anyConditions !== undefined) {
    anyHolds = false
    for (const [index, condition] of anyConditions.entries()) {
      const outcome = evaluateCondition(condition, resolve, joinPath(basePath, `any[${index}]`))
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
  for (const [index, condition] of (allConditions ?? []).entries()) {
    const outcome = evaluateCondition(condition, resolve, joinPath(basePath, `all[${index}]`))
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

function evaluateBareList(conditions: readonly unknown[], resolve: ConditionResolver, basePath: string): ConditionsResult {
  const heldMessages: string[] = []
  for (const [index, condition] of conditions.entries()) {
    const outcome = evaluateCondition(condition, resolve, joinPath(basePath, `[${index}]`))
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

function evaluateCondition(condition: unknown, resolve: ConditionResolver, path: string): ConditionOutcome | ConditionsError {
  if (typeof condition !== 'object' || condition === null || Array.isArray(condition)) {
    return { path, message: 'a condition must be an object with key, operator and value' }
  }
  const { key: rawKey, operator, value: rawValue, message } = condition as Readonly<Record<string, unknown>>
  let key: unknown
  let value: unknown
  try {
    key = rawKey === undefined ? null : resolve(rawKey)
  } catch (error) {
    return { path: joinPath(path, 'key'), message: `failed to substitute variables in condition key: ${describe(error)}`, cause: error }
  }
  try {
    value = rawValue === undefined ? null : resolve(rawValue)
  } catch (error) {
    return { path: joinPath(path, 'value'), message: `failed to substitute variables in condition value: ${describe(error)}`, cause: error }
  }
  const handler = typeof operator === 'string' ? operatorHandler(operator) : undefined
  if (handler === undefined) return { path: joinPath(path, 'operator'), message: `unknown condition operator ${JSON.stringify(operator ?? null)}` }
  try {
    return { holds: handler(toGoValue(rawKey, key), toGoValue(rawValue, value)), message: typeof message === 'string' ? message : '' }
  } catch (error) {
    if (error instanceof ConditionOperandError) return { path, message: error.message, cause: error }
    throw error
  }
}

/** The `any` or `all` list; `list` undefined when the field is absent or null. */
function listAt(block: Readonly<Record<string, unknown>>, field: 'any' | 'all', basePath: string): { readonly list?: readonly unknown[] } | { readonly error: ConditionsError } {
  const list = block[field]
  if (list === undefined || list === null) return {}
  if (Array.isArray(list)) return { list }
  return { error: { path: joinPath(basePath, field), message: `${field} must be a list of conditions` } }
}

function failure(path: string, message: string): ConditionsResult {
  return { error: { path, message } }
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
