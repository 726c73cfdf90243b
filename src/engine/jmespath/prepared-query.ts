import { compileKyvernoJmespath } from './compile.js'
import { children, type ExpressionNode } from './dialect.js'
import { evaluatorOf } from './evaluate.js'
import type { JsonValue } from './json.js'
import { trimSpaceGo } from './text.js'

/**
 * A context query read once (see KyvernoContext.query): trimmed, parsed and turned into closures
 * the first time its text is met, then shared by every rule and request that asks it, so a query
 * run per request does no parsing, trimming or cache lookups beyond one.
 */
export interface PreparedQuery {
  /** The expression as written: what context entries are matched against. */
  readonly expression: string
  /** Evaluates the query over the variables; undefined when it cannot run (see `problem`). */
  readonly evaluate: ((data: JsonValue) => JsonValue) | undefined
  /** Kyverno's error for a query that cannot run: empty, or not valid JMESPath. */
  readonly problem: { readonly message: string; readonly cause?: unknown } | undefined
  /**
   * The query calls no function, so its value depends on nothing but the variables it reads
   * (time_now() and random() are functions): the same variables give the same value.
   */
  readonly pure: boolean
}

/** Distinct query texts kept; past it the oldest is dropped and merely prepared again when met. */
const PREPARED_LIMIT = 2_000
const prepared = new Map<string, PreparedQuery>()

export function prepareQuery(expression: string): PreparedQuery {
  let query = prepared.get(expression)
  if (query === undefined) {
    query = prepare(expression)
    if (prepared.size >= PREPARED_LIMIT) prepared.delete(prepared.keys().next().value as string)
    prepared.set(expression, query)
  }
  return query
}

function prepare(expression: string): PreparedQuery {
  const trimmed = trimSpaceGo(expression)
  if (trimmed === '') return { expression, evaluate: undefined, problem: { message: 'invalid query (nil)' }, pure: false }
  let ast: ExpressionNode
  try {
    ast = compileKyvernoJmespath(trimmed)
  } catch (error) {
    return { expression, evaluate: undefined, problem: { message: `incorrect query ${trimmed}: ${(error as Error).message}`, cause: error }, pure: false }
  }
  return { expression, evaluate: evaluatorOf(ast), problem: undefined, pure: !callsFunctions(ast) }
}

function callsFunctions(ast: ExpressionNode): boolean {
  const stack = [ast]
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (node.type === 'Function') return true
    stack.push(...children(node))
  }
  return false
}
