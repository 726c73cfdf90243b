import { CelCompileError } from '../cel/index.js'
import { variableUses, type VariableReference } from '../cel/variable-references.js'
import type { Rule } from '../model/rule.js'
import type { CompileProblem } from './compile-problem.js'

/**
 * Checks how a rule's expressions read its variables, before anything is stored.
 *
 * Variables are computed lazily, on first read, so one that reads itself, directly or through
 * others, would never finish: such a cycle is refused, naming it (`variables cycle: a -> b -> a`).
 * Beyond cycles the rule is the one ValidatingAdmissionPolicy applies: a variable may read only
 * the variables listed before it, so the list reads top to bottom and a rule moved to a cluster
 * compiles there too; reading a name the rule does not define is refused everywhere, since every
 * evaluation reading it would fail. Inside a variable, other variables must be read by name:
 * `variables[k]` or `variables` passed on as a value could read anything, itself included.
 */
export function variableOrderProblems(rule: Rule, path: string): CompileProblem[] {
  const variables = rule.variables ?? []
  const problems: CompileProblem[] = []
  const indexOf = new Map<string, number>()
  variables.forEach((variable, index) => {
    const earlier = indexOf.get(variable.name)
    if (earlier !== undefined) {
      problems.push({ rule: rule.name, path: `${path}.variables[${index}].name`, message: `duplicate variable name "${variable.name}" (also variables[${earlier}])` })
    }
    indexOf.set(variable.name, index)
  })
  const defined = [...new Set(variables.map((variable) => variable.name))]
  const located = (expression: string, at: string, offset: number, message: string): CompileProblem => {
    const position = new CelCompileError(expression, message, offset)
    return { rule: rule.name, path: at, expression, line: position.line, column: position.column, message }
  }
  const unknown = (expression: string, at: string, reference: VariableReference): CompileProblem =>
    located(expression, at, reference.offset, `unknown variable "${reference.name}": ${defined.length === 0 ? 'this rule defines no variables' : `this rule defines ${defined.join(', ')}`}`)

  // Edges of the reads-graph between variables, in the order each expression reads them.
  const edges: Edge[][] = variables.map((variable, index) => {
    const at = `${path}.variables[${index}].expression`
    const uses = variableUses(variable.expression)
    for (const offset of uses.opaque) {
      problems.push(located(variable.expression, at, offset, 'a variable may read other variables only by name (variables.NAME), so that their order can be checked'))
    }
    const out: Edge[] = []
    for (const reference of uses.references) {
      const target = indexOf.get(reference.name)
      if (target === undefined) problems.push(unknown(variable.expression, at, reference))
      else if (!out.some((edge) => edge.target === target)) out.push({ target, offset: reference.offset })
    }
    return out
  })

  const components = stronglyConnected(edges)
  for (const members of components) {
    const start = Math.min(...members)
    if (members.length === 1 && !(edges[start] ?? []).some((edge) => edge.target === start)) continue
    const cycle = cycleThrough(start, new Set(members), edges)
    const variable = variables[start] as { name: string; expression: string }
    const names = [...cycle.map((index) => (variables[index] as { name: string }).name), variable.name]
    const first = (edges[start] ?? []).find((edge) => edge.target === cycle[1 % cycle.length]) as Edge
    problems.push(located(variable.expression, `${path}.variables[${start}].expression`, first.offset, `variables cycle: ${names.join(' -> ')}`))
  }
  const componentOf = new Map<number, number>()
  components.forEach((members, id) => members.forEach((member) => componentOf.set(member, id)))
  edges.forEach((out, index) => {
    const variable = variables[index] as { name: string; expression: string }
    for (const edge of out) {
      if (edge.target <= index || componentOf.get(edge.target) === componentOf.get(index)) continue
      const later = (variables[edge.target] as { name: string }).name
      problems.push(
        located(
          variable.expression,
          `${path}.variables[${index}].expression`,
          edge.offset,
          `variable "${variable.name}" reads variables.${later}, which is defined after it; a variable may read only the variables listed before it`,
        ),
      )
    }
  })

  const readers: [string | undefined, string][] = [
    ...(rule.match?.conditions ?? []).map((condition, i): [string, string] => [condition.expression, `${path}.match.conditions[${i}].expression`]),
    ...(rule.validate.cel ?? []).flatMap((validation, i): [string | undefined, string][] => [
      [validation.expression, `${path}.validate.cel[${i}].expression`],
      [validation.messageExpression, `${path}.validate.cel[${i}].messageExpression`],
    ]),
  ]
  for (const [expression, at] of readers) {
    if (expression === undefined) continue
    for (const reference of variableUses(expression).references) {
      if (!indexOf.has(reference.name)) problems.push(unknown(expression, at, reference))
    }
  }
  return problems
}

interface Edge {
  readonly target: number
  /** Where the reading expression names the target. */
  readonly offset: number
}

/** Tarjan's strongly connected components of the reads-graph; every node is in exactly one. */
function stronglyConnected(edges: readonly (readonly Edge[])[]): number[][] {
  const order = new Array<number>(edges.length).fill(-1)
  const low = new Array<number>(edges.length).fill(0)
  const onStack = new Array<boolean>(edges.length).fill(false)
  const stack: number[] = []
  const components: number[][] = []
  let counter = 0
  const connect = (node: number): void => {
    order[node] = low[node] = counter++
    stack.push(node)
    onStack[node] = true
    for (const { target } of edges[node] ?? []) {
      if (order[target] === -1) {
        connect(target)
        low[node] = Math.min(low[node] as number, low[target] as number)
      } else if (onStack[target]) {
        low[node] = Math.min(low[node] as number, order[target] as number)
      }
    }
    if (low[node] !== order[node]) return
    const members: number[] = []
    for (;;) {
      const member = stack.pop() as number
      onStack[member] = false
      members.push(member)
      if (member === node) break
    }
    components.push(members)
  }
  for (let node = 0; node < edges.length; node++) if (order[node] === -1) connect(node)
  return components
}

/** A shortest path of reads from `start` back to itself, inside its component: `[start, ..., last]`. */
function cycleThrough(start: number, members: ReadonlySet<number>, edges: readonly (readonly Edge[])[]): number[] {
  const previous = new Map<number, number>()
  const queue = [start]
  while (queue.length > 0) {
    const node = queue.shift() as number
    for (const { target } of edges[node] ?? []) {
      if (!members.has(target)) continue
      if (target === start) {
        const path = [node]
        for (let at = node; at !== start; ) {
          at = previous.get(at) as number
          path.unshift(at)
        }
        return path
      }
      if (!previous.has(target)) {
        previous.set(target, node)
        queue.push(target)
      }
    }
  }
  return [start]
}
