import type { ConditionBlock, ConditionsError } from './condition.js'
import { toGoValue, type GoValue } from './go-value.js'
import { joinPath } from './join-path.js'
import { operatorHandler, operatorWithValue, type OperatorHandler } from './operators/operators.js'

/**
 * A block of conditions read once, when its rule compiles, rather than for every request: its
 * shape, each condition's operator handler, paths for errors, and the operands that need no
 * substitution with their Go form. evaluate-conditions.ts judges it against a resolver.
 *
 * Problems of shape are kept, not thrown: they become errors only when evaluation reaches them,
 * in the order and with the short-circuits Kyverno's evaluation has.
 */
export type PreparedConditions =
  | { readonly kind: 'none' }
  | { readonly kind: 'invalid'; readonly error: ConditionsError }
  | { readonly kind: 'list'; readonly conditions: readonly PreparedEntry[] }
  | { readonly kind: 'anyAll'; readonly any?: readonly PreparedEntry[]; readonly all?: readonly PreparedEntry[] }

/** A condition ready to evaluate, or the error of one that is not an object. */
export type PreparedEntry = PreparedCondition | { readonly invalid: ConditionsError }

export interface PreparedCondition {
  readonly path: string
  readonly key: Operand
  readonly value: Operand
  readonly operator: unknown
  /** undefined for an unknown operator, reported after the operands are resolved (as Kyverno orders it). */
  readonly handler: OperatorHandler | undefined
  readonly message: string
}

/** A key or value as written, with its Go form when it needs no substitution. */
export interface Operand {
  readonly raw: unknown
  readonly literal?: { readonly value: unknown; readonly go: GoValue }
  /** What the reader prepared for substituting it, handed to the resolver with `raw`. */
  readonly prepared?: unknown
}

/** How the caller, who knows its substitution syntax, reads operands when the rule compiles. */
export interface OperandReader {
  /** Whether substitution would return `raw` as it is. */
  isLiteral(raw: unknown): boolean
  /** Anything that will make substituting `raw` cheaper later (undefined for nothing). */
  prepare?(raw: unknown): unknown
}

const NEVER_LITERAL: OperandReader = { isLiteral: () => false }

export function prepareConditions(block: ConditionBlock | unknown, basePath = '', reader: OperandReader = NEVER_LITERAL): PreparedConditions {
  if (block === null || block === undefined) return { kind: 'none' }
  if (Array.isArray(block)) return { kind: 'list', conditions: block.map((condition, index) => prepareEntry(condition, joinPath(basePath, `[${index}]`), reader)) }
  if (typeof block !== 'object') return invalid(basePath, 'conditions must be a list of conditions or an object with any and all')
  const record = block as Readonly<Record<string, unknown>>
  const lists: { any?: readonly PreparedEntry[]; all?: readonly PreparedEntry[] } = {}
  for (const field of ['any', 'all'] as const) {
    const list = record[field]
    if (list === undefined || list === null) continue
    if (!Array.isArray(list)) return invalid(joinPath(basePath, field), `${field} must be a list of conditions`)
    lists[field] = list.map((condition, index) => prepareEntry(condition, joinPath(basePath, `${field}[${index}]`), reader))
  }
  return { kind: 'anyAll', ...lists }
}

function prepareEntry(condition: unknown, path: string, reader: OperandReader): PreparedEntry {
  if (typeof condition !== 'object' || condition === null || Array.isArray(condition)) {
    return { invalid: { path, message: 'a condition must be an object with key, operator and value' } }
  }
  const { key, operator, value, message } = condition as Readonly<Record<string, unknown>>
  const valueOperand = operandOf(value, reader)
  const literal = valueOperand.literal
  return {
    path,
    key: operandOf(key, reader),
    value: valueOperand,
    operator,
    handler: typeof operator !== 'string' ? undefined : literal ? operatorWithValue(operator, literal.go) : operatorHandler(operator),
    message: typeof message === 'string' ? message : '',
  }
}

/** An absent operand is null, as Kyverno reads it. */
function operandOf(raw: unknown, reader: OperandReader): Operand {
  if (raw === undefined) return { raw, literal: { value: null, go: toGoValue(undefined, null) } }
  if (reader.isLiteral(raw)) return { raw, literal: { value: raw, go: toGoValue(raw, raw) } }
  const prepared = reader.prepare?.(raw)
  return prepared === undefined ? { raw } : { raw, prepared }
}

function invalid(path: string, message: string): PreparedConditions {
  return { kind: 'invalid', error: { path, message } }
}
