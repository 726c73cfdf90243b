import { celEnvironment } from './environment.js'
import { boundNames, childrenOf } from './ast-walk.js'
import { identifierName, stringLiteral, type CelAstNode } from './macro-api.js'

/** One place an expression reads a rule variable by name. */
export interface VariableReference {
  readonly name: string
  /** Offset of the reading node (`variables.x`, `variables['x']`...) in the source. */
  readonly offset: number
}

/** The variables an expression reads by name, and where it uses `variables` in any other way. */
export interface VariableUses {
  readonly references: readonly VariableReference[]
  /**
   * Offsets of uses that name no variable: `variables[k]` with a computed key, `variables` passed
   * on as a value (`cel.bind(v, variables, v.a)`), iterated or measured. Nobody can tell from the
   * text which variables those read.
   */
  readonly opaque: readonly number[]
}

const NONE: VariableUses = Object.freeze({ references: [], opaque: [] })

/**
 * Reads the `variables.NAME` references of an expression from its syntax tree: the forms
 * `variables.x`, `variables.?x`, `variables['x']`, `variables[?'x']` and `has(variables.x)`. An
 * iteration variable or `cel.bind` name that shadows `variables` hides it in its own scope.
 * An expression that does not parse reads nothing here; compiling it reports why.
 */
export function variableUses(source: string): VariableUses {
  let root: CelAstNode
  try {
    root = celEnvironment().parse(source).ast as unknown as CelAstNode
  } catch {
    return NONE
  }
  const references: VariableReference[] = []
  const opaque: number[] = []
  visit(root, false, references, opaque)
  return { references, opaque }
}

const VARIABLES = 'variables'

function visit(node: CelAstNode, shadowed: boolean, references: VariableReference[], opaque: number[]): void {
  if (!shadowed) {
    const named = referencedName(node)
    if (named !== undefined) {
      references.push({ name: named, offset: node.start })
      return
    }
    if (identifierName(node) === VARIABLES) {
      opaque.push(node.start)
      return
    }
  }
  if (node.op === 'rcall') {
    const [name, receiver, args] = node.args as [string, CelAstNode, CelAstNode[]]
    visit(receiver, shadowed, references, opaque)
    const bound = boundNames(name, receiver, args)
    // cel.bind's name is in scope in its last argument only; iteration variables in all after them.
    const scopeStart = name === 'bind' ? args.length - 1 : bound.length
    args.forEach((arg, i) => {
      if (i < bound.length) return
      visit(arg, shadowed || (i >= scopeStart && bound.includes(VARIABLES)), references, opaque)
    })
    return
  }
  for (const child of childrenOf(node)) visit(child, shadowed, references, opaque)
}

/** The variable a node reads when it is one of the by-name forms, else undefined. */
function referencedName(node: CelAstNode): string | undefined {
  switch (node.op) {
    case '.':
    case '.?': {
      const [operand, field] = node.args as [CelAstNode, string]
      return identifierName(operand) === VARIABLES ? field : undefined
    }
    case '[]':
    case '[?]': {
      const [operand, key] = node.args as [CelAstNode, CelAstNode]
      return identifierName(operand) === VARIABLES ? stringLiteral(key) : undefined
    }
    default:
      return undefined
  }
}
