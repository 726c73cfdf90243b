import { identifierName, type CelAstNode } from './macro-api.js'

/**
 * Walking a parsed CEL expression: which names a macro call binds for its later arguments, and a
 * node's sub-expressions. Shared by the engine's variable references and the ValidatingAdmissionPolicy
 * export's checks, so both read macros the same way.
 */

/** Comprehension macros: how many leading arguments name iteration variables, by argument count. */
const ITERATION_VARIABLES: Readonly<Record<string, Readonly<Record<number, number>>>> = {
  all: { 2: 1, 3: 2 },
  exists: { 2: 1, 3: 2 },
  exists_one: { 2: 1, 3: 2 },
  existsOne: { 2: 1, 3: 2 },
  filter: { 2: 1 },
  map: { 2: 1, 3: 1 },
  transformList: { 3: 2, 4: 2 },
  transformMap: { 3: 2, 4: 2 },
  transformMapEntry: { 3: 2, 4: 2 },
}

/** Names a macro call binds for its later arguments: iteration variables, or `cel.bind`'s name. */
export function boundNames(name: string, receiver: CelAstNode, args: readonly CelAstNode[]): string[] {
  if (name === 'bind' && identifierName(receiver) === 'cel' && args.length === 3) {
    const bound = identifierName(args[0] as CelAstNode)
    return bound === undefined ? [] : [bound]
  }
  const count = ITERATION_VARIABLES[name]?.[args.length] ?? 0
  const names: string[] = []
  for (let i = 0; i < count; i++) {
    const bound = identifierName(args[i] as CelAstNode)
    if (bound === undefined) return []
    names.push(bound)
  }
  return names
}

/** The sub-expressions of a node, whatever its kind (see cel-js serialize.js for the shapes). */
export function childrenOf(node: CelAstNode): CelAstNode[] {
  const found: CelAstNode[] = []
  collect(node.args, found)
  return found
}

function collect(value: unknown, found: CelAstNode[]): void {
  if (Array.isArray(value)) {
    for (const item of value) collect(item, found)
  } else if (isNode(value)) {
    found.push(value)
  }
}

function isNode(value: unknown): value is CelAstNode {
  return typeof value === 'object' && value !== null && typeof (value as { op?: unknown }).op === 'string'
}
