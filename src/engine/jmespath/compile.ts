import { compile } from '@jmespath-community/jmespath'
import { checkKyvernoDialect, type ExpressionNode } from './dialect.js'
import { JmespathSyntaxError } from './errors.js'

/**
 * Parses an expression once: policies repeat the same expressions for every admission request,
 * so ASTs are cached (they are never modified during evaluation). A failed parse is not cached;
 * it is cheap to repeat and rare.
 */

/** Longer expressions are refused before parsing: the parser recurses per nesting level. */
export const MAX_EXPRESSION_LENGTH = 65_536
const CACHE_LIMIT = 2_000
const cache = new Map<string, ExpressionNode>()

export function compileKyvernoJmespath(expression: string): ExpressionNode {
  const cached = cache.get(expression)
  if (cached) return cached
  if (expression.length > MAX_EXPRESSION_LENGTH) {
    throw new JmespathSyntaxError(`expression is ${expression.length} characters long, more than the limit of ${MAX_EXPRESSION_LENGTH}`)
  }
  let ast: ExpressionNode
  try {
    ast = compile(expression)
  } catch (error) {
    if (error instanceof RangeError) throw new JmespathSyntaxError('expression nested too deeply to parse', { cause: error })
    throw new JmespathSyntaxError(error instanceof Error ? error.message : String(error), { cause: error })
  }
  checkKyvernoDialect(ast, expression)
  // Insertion-order eviction keeps lookups read-only; an evicted expression is merely parsed again.
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string)
  cache.set(expression, ast)
  return ast
}
