import type { compile } from '@jmespath-community/jmespath'
import { JmespathSyntaxError } from './errors.js'

export type ExpressionNode = ReturnType<typeof compile>

/**
 * Kyverno's JMESPath is the original JMESPath grammar (go-jmespath). The community library also
 * parses its extensions: `$` and `let $x = ... in ...`, the `? :` operator and arithmetic. Kyverno
 * rejects these as syntax errors, and the arithmetic one matters in practice: the library reads
 * `labels.app-name` as `labels.app - name`, where Kyverno reports an error and wants
 * `labels."app-name"`. So an AST using them is refused here, with a message that says why.
 */

const FOREIGN: Readonly<Record<string, string>> = {
  Root: "the root reference '$'",
  Variable: 'variables ($name)',
  LetExpression: 'let expressions',
  Binding: 'let expressions',
  Ternary: "the '? :' operator",
  Arithmetic: 'arithmetic operators (+ - * / % //)',
  Unary: "unary '+' and '-'",
}

/** Deeper ASTs are refused: evaluation recurses once per level. */
export const MAX_AST_DEPTH = 1000

export function checkKyvernoDialect(ast: ExpressionNode, expression: string): void {
  const stack: Array<[ExpressionNode, number]> = [[ast, 1]]
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [ExpressionNode, number]
    if (depth > MAX_AST_DEPTH) throw new JmespathSyntaxError(`expression nested more than ${MAX_AST_DEPTH} levels deep`)
    const foreign = FOREIGN[node.type]
    if (foreign !== undefined) throw new JmespathSyntaxError(foreignMessage(node.type, foreign, expression))
    for (const child of children(node)) stack.push([child, depth + 1])
    if (node.type === 'Literal') checkLiteralDepth(node.value, depth)
  }
}

function foreignMessage(type: string, what: string, expression: string): string {
  const base = `Kyverno's JMESPath has no ${what}: ${JSON.stringify(expression)}`
  if (type === 'Arithmetic' || type === 'Unary') return `${base}; quote names that contain '-', as in labels."app-name"`
  return base
}

export function children(node: ExpressionNode): ExpressionNode[] {
  switch (node.type) {
    case 'Subexpression':
    case 'IndexExpression':
    case 'Projection':
    case 'ValueProjection':
    case 'Pipe':
    case 'OrExpression':
    case 'AndExpression':
    case 'Comparator':
    case 'Arithmetic':
      return [node.left, node.right]
    case 'FilterProjection':
      return [node.left, node.right, node.condition]
    case 'Flatten':
    case 'NotExpression':
    case 'ExpressionReference':
      return [node.child]
    case 'Unary':
      return [node.operand]
    case 'MultiSelectList':
    case 'Function':
      return [...node.children]
    case 'MultiSelectHash':
      return node.children.map((pair) => pair.value)
    case 'LetExpression':
      return [...node.bindings, node.expression]
    case 'Binding':
      return [node.reference]
    case 'Ternary':
      return [node.condition, node.trueExpr, node.falseExpr]
    default:
      return []
  }
}

function checkLiteralDepth(value: unknown, start: number): void {
  const stack: Array<[unknown, number]> = [[value, start]]
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number]
    if (typeof current !== 'object' || current === null) continue
    if (depth > MAX_AST_DEPTH) throw new JmespathSyntaxError(`literal nested more than ${MAX_AST_DEPTH} levels deep`)
    for (const item of Object.values(current)) stack.push([item, depth + 1])
  }
}
