import type { CelAstNode } from './fast-path.js'

/**
 * How deep an expression may nest. The parser bounds brackets and member chains at 250, but a
 * chain of binary operators (`1 + 1 + ... + 1`) nests one level per operator with no bound, and
 * the checker, our compile-time walkers and evaluation all recurse over the tree: thousands of
 * levels would overflow the stack. No expression a person writes comes near this.
 */
export const MAX_EXPRESSION_DEPTH = 250

/** The depth of the deepest node, or `limit + 1` as soon as it passes the limit. Iterative, so it cannot overflow. */
export function expressionDepth(root: CelAstNode, limit = MAX_EXPRESSION_DEPTH): number {
  let deepest = 0
  const pending: Array<[unknown, number]> = [[root, 1]]
  while (pending.length > 0) {
    const [value, depth] = pending.pop() as [unknown, number]
    if (Array.isArray(value)) {
      for (const item of value) pending.push([item, depth])
      continue
    }
    if (!isNode(value)) continue
    if (depth > deepest) deepest = depth
    if (deepest > limit) return deepest
    pending.push([value.args, depth + 1])
  }
  return deepest
}

function isNode(value: unknown): value is CelAstNode {
  return typeof value === 'object' && value !== null && typeof (value as { op?: unknown }).op === 'string'
}
