import type { CelAstNode, CelChecker, CelScope, CelType } from './macro-api.js'

/**
 * `has(e.f)` over any operand `e`, as cel-go (Kubernetes, Kyverno) accepts it: the macro needs a
 * field selection, and what the field is selected from may be any expression, such as a call:
 * `has(image.GetMetadata(c.image).config.created)`. cel-js's macro refuses anything but a chain
 * of selections rooted at an identifier ("has() invalid argument").
 *
 * cel-js's own evaluation already works for any root: it evaluates the root, selects the inner
 * fields as `.` does (a missing one is an error, "No such key") and tests the last one for
 * presence. Only its type check is narrower, so that is what is replaced, on every `has` call of
 * a freshly parsed expression, before it is checked. The macro cannot be registered again (cel-js
 * rejects a second `has(ast)`), hence the patch of the parsed tree.
 */

const INVALID_ARGUMENT = 'has() invalid argument'

/** The parts of cel-js's has macro (lib/macros.js createHasExpander) this module relies on. */
interface HasMacro {
  readonly args: readonly CelAstNode[]
  /** The selections from the outermost in, then the root; what cel-js's evaluate walks. */
  macroHasProps?: CelAstNode[]
  typeCheck(checker: CelChecker, macro: HasMacro, scope: CelScope): CelType
}

interface MacroNode extends CelAstNode {
  readonly meta: { readonly macro?: unknown }
}

/** Lets every `has()` call in a parsed tree select from any expression. */
export function widenHasMacros(root: CelAstNode): void {
  const pending: CelAstNode[] = [root]
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    if (node.op === 'call') {
      const [name, args] = node.args as [string, CelAstNode[]]
      const macro = (node as MacroNode).meta?.macro as HasMacro | undefined
      if (name === 'has' && args.length === 1 && macro && typeof macro.typeCheck === 'function') macro.typeCheck = typeCheck
    }
    collect(node.args, pending)
  }
}

function typeCheck(checker: CelChecker, macro: HasMacro, scope: CelScope): CelType {
  let node = macro.args[0] as CelAstNode
  if (node.op !== '.') throw checker.createError('invalid_macro_argument', INVALID_ARGUMENT, node)
  if (!macro.macroHasProps) {
    const props: CelAstNode[] = []
    while (node.op === '.' || node.op === '.?') {
      props.push(node)
      node = (node.args as [CelAstNode, string])[0]
    }
    checker.check(node, scope)
    props.push(node)
    macro.macroHasProps = props
  }
  return checker.getType('bool')
}

function collect(value: unknown, found: CelAstNode[]): void {
  if (Array.isArray(value)) {
    for (const item of value) collect(item, found)
  } else if (typeof value === 'object' && value !== null && typeof (value as { op?: unknown }).op === 'string') {
    found.push(value as CelAstNode)
  }
}
