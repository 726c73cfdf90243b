import { celEnvironment } from '../../engine/cel/environment.js'
import { boundNames, childrenOf } from '../../engine/cel/ast-walk.js'
import { identifierName, type CelAstNode } from '../../engine/cel/macro-api.js'

/**
 * The syntax tree of a Verdict CEL expression, walked with what each node sits in: the generator
 * reads which functions and variables an expression uses, and where it reads `object`, from it.
 */

/** The tree of an expression, or undefined when it does not parse (Verdict refuses such a ruleset anyway). */
export function parseCel(source: string): CelAstNode | undefined {
  try {
    return celEnvironment().parse(source).ast as unknown as CelAstNode
  } catch {
    return undefined
  }
}

/** A node with the nodes it sits in (nearest first) and the names comprehensions bind around it. */
export interface VisitedNode {
  node: CelAstNode
  /** Nearest first: `ancestors[0]` holds `node` as an operand or argument. */
  ancestors: readonly CelAstNode[]
  /** Iteration variables and `cel.bind` names in scope at this node. */
  bound: ReadonlySet<string>
}

/** Every node of the tree, parents before children, with its ancestors and the names bound around it. */
export function visitCel(root: CelAstNode, visit: (visited: VisitedNode) => void): void {
  const walk = (node: CelAstNode, ancestors: CelAstNode[], bound: ReadonlySet<string>): void => {
    visit({ node, ancestors, bound })
    const inner = [node, ...ancestors]
    if (node.op === 'rcall') {
      const [name, receiver, args] = node.args as [string, CelAstNode, CelAstNode[]]
      walk(receiver, inner, bound)
      const names = boundNames(name, receiver, args)
      // cel.bind's name is in scope in its last argument only; iteration variables in all after them.
      const scopeStart = name === 'bind' ? args.length - 1 : names.length
      args.forEach((arg, i) => {
        if (i < names.length && name !== 'bind') return
        if (name === 'bind' && i === 0) return
        walk(arg, inner, i >= scopeStart && names.length > 0 ? new Set([...bound, ...names]) : bound)
      })
      return
    }
    for (const child of childrenOf(node)) walk(child, inner, bound)
  }
  walk(root, [], new Set())
}


/** `name`, `receiver` and arguments of a call node (`call`: no receiver). */
export function callParts(node: CelAstNode): { name: string; receiver: CelAstNode | undefined; args: CelAstNode[] } | undefined {
  if (node.op === 'rcall') {
    const [name, receiver, args] = node.args as [string, CelAstNode, CelAstNode[]]
    return { name, receiver, args }
  }
  if (node.op === 'call') {
    const [name, args] = node.args as [string, CelAstNode[]]
    return { name, receiver: undefined, args }
  }
  return undefined
}

/** The field a select node (`a.f`, `a.?f`) reads, with its operand. */
export function selectParts(node: CelAstNode): { operand: CelAstNode; field: string; optional: boolean } | undefined {
  if (node.op !== '.' && node.op !== '.?') return undefined
  const [operand, field] = node.args as [CelAstNode, string]
  return { operand, field, optional: node.op === '.?' }
}

export { identifierName, type CelAstNode }
