import type { CelAstNode } from './macro-api.js'
import { charge } from './cost-budget.js'
import { chargeResult, chargeReturned, chargeSize, chargeWalk } from './value-cost.js'

/**
 * Charges the work cel-js does inside its own operators and built-in functions, which no library
 * of ours sees: `a + b` on strings and lists, list and map literals, `join`, `split`,
 * `lowerAscii`, `==` on lists... Without it, `variables.s + variables.s` doubled thirty times, or
 * `x == y` over two large lists in a loop, runs for seconds and holds a gigabyte while the budget
 * never moves.
 *
 * The lever is the checked syntax tree: once cel-js has type-checked an expression, each node's
 * evaluation is a function in its metadata (`setMeta('evaluate', ...)`, the hook cel-js uses for
 * its own optimisations), or the `evaluate` of the macro that expanded it. Wrapping those once,
 * at compile time, lets every evaluation charge:
 * - every operator and function call, and what it built, after it built it (value-cost.ts `resultCost`),
 *   except `+`, whose operands are charged before it copies them;
 * - what `==`, `!=`, `in` over a list and a function will read of their operands, before they read it
 *   (`walkCost`: a list that holds one large list many times is charged as large as it reads);
 * - what the whole expression returns, when it is not a boolean: callers print and compare it outside the budget.
 */
export function meterNodes(root: CelAstNode): void {
  visit(root as MeterableNode)
  after(root as MeterableNode, chargeReturned)
}

type Evaluate = (this: unknown, evaluator: unknown, node: unknown, scope: unknown) => unknown

/** The parts of a cel-js ASTNode this module relies on (lib/parser.js `ASTNode`). */
interface MeterableNode extends CelAstNode {
  readonly meta: {
    readonly evaluate: Evaluate
    /** Set on a call that a macro expanded (comprehensions, has, cel.bind, our method overrides). */
    readonly macro?: { evaluate: Evaluate }
    /** Set when cel-js folded the node into a constant at check time. */
    readonly alternate?: unknown
  }
  setMeta(key: 'evaluate', value: Evaluate): unknown
}

/**
 * Functions that read none of their operands beyond the top level: charging a walk of a large map
 * for `size(m)` would make a cheap check expensive. `size` of a string counts code points, so it
 * is charged for strings only.
 */
const TOP_LEVEL_ONLY: ReadonlySet<string> = new Set(['dyn', 'type', 'value', 'hasValue', 'of', 'ofNonZeroValue', 'none'])

function visit(node: MeterableNode): void {
  switch (node.op) {
    case '+':
      // The result is as large as both operands: charged before the copy is made, not after.
      for (const operand of node.args as MeterableNode[]) after(operand, chargeSize)
      after(node, chargeOperation)
      break
    case 'list':
    case 'map':
      after(node, chargeResult)
      break
    case '==':
    case '!=':
      for (const operand of node.args as MeterableNode[]) after(operand, chargeWalk)
      break
    case 'in':
      after((node.args as MeterableNode[])[1] as MeterableNode, chargeListWalk)
      break
    case 'call':
    case 'rcall':
      meterCall(node)
      break
  }
  for (const child of children(node)) visit(child)
}

function meterCall(node: MeterableNode): void {
  after(node, chargeResult)
  // A macro evaluates its arguments itself: comprehensions charge every iteration, our overrides their own walks.
  if (node.meta.macro) return
  const name = (node.args as [string])[0]
  if (TOP_LEVEL_ONLY.has(name)) return
  const operands =
    node.op === 'call'
      ? (node.args as [string, MeterableNode[]])[1]
      : [(node.args as [string, MeterableNode])[1], ...(node.args as [string, MeterableNode, MeterableNode[]])[2]]
  for (const operand of operands) after(operand, name === 'size' ? chargeStringWalk : chargeWalk)
}

function chargeOperation(): void {
  charge(1)
}

/** `x in list` compares x with every element; `key in map` is a lookup. */
function chargeListWalk(value: unknown): void {
  if (Array.isArray(value) || value instanceof Set) chargeWalk(value)
}

function chargeStringWalk(value: unknown): void {
  if (typeof value === 'string') chargeWalk(value)
}

/** Makes `node` charge `charge(value)` for every value it evaluates to. */
function after(node: MeterableNode, charge: (value: unknown) => void): void {
  const meta = node.meta
  // A folded constant is computed once, at check time; namespaces such as `cel` or `strings` are such constants.
  if (meta.alternate !== undefined) return
  if (meta.macro) {
    const macro = meta.macro
    const inner = macro.evaluate
    macro.evaluate = function metered(evaluator, self, scope) {
      const value = inner.call(this, evaluator, self, scope)
      charge(value)
      return value
    }
    return
  }
  const inner = meta.evaluate
  node.setMeta('evaluate', function metered(evaluator, self, scope) {
    const value = inner.call(this, evaluator, self, scope)
    charge(value)
    return value
  })
}

/** The sub-expressions of a node, whatever its kind (see cel-js serialize.js for the shapes). */
function children(node: MeterableNode): MeterableNode[] {
  const found: MeterableNode[] = []
  collect(node.args, found)
  return found
}

function collect(value: unknown, found: MeterableNode[]): void {
  if (Array.isArray(value)) {
    for (const item of value) collect(item, found)
  } else if (typeof value === 'object' && value !== null && typeof (value as { op?: unknown }).op === 'string') {
    found.push(value as MeterableNode)
  }
}
