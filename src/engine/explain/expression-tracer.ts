import { Optional, type ASTNode, type Environment, type ParseResult } from '@marcbachmann/cel-js'
import { serialize } from '@marcbachmann/cel-js/serialize'
import type { PathSegment } from '../autogen/pod-template-path.js'
import type { CelActivation } from '../cel/compile.js'
import { charge } from '../cel/cost-budget.js'
import { celEnvironment } from '../cel/environment.js'
import type { CelAstNode } from '../cel/macro-api.js'
import { elementsOf, lookup, traced, type Locals, type Traced } from './traced-value.js'

/**
 * Re-runs an expression that failed, keeping track of where values came from in the judged
 * object, so the field finder can name the fields a failing check read.
 *
 * The engine's evaluators stay as they are (fast, no bookkeeping); this runs only when someone
 * asks what to change. It evaluates the structural part of CEL itself (selection, optionals,
 * indexing, list concatenation, comprehensions, comparisons of primitives), because that is
 * where provenance lives, and hands every other node to cel-js as an opaque sub-expression
 * (its source text, evaluated with the comprehension variables in scope), which keeps full CEL
 * semantics for functions and libraries. Errors propagate as in CEL; callers treat them as
 * "nothing known".
 */
export class ExpressionTracer {
  readonly #activation: CelActivation
  readonly #variables: ReadonlyMap<string, CelAstNode>
  readonly #variableTraces = new Map<string, Traced>()
  readonly #opaque = new Map<string, ParseResult>()

  /** `variables` maps each rule variable's name to its parsed expression. */
  constructor(activation: CelActivation, variables: ReadonlyMap<string, CelAstNode>) {
    this.#activation = activation
    this.#variables = variables
  }

  /** The parsed expression of a rule variable, when `node` reads one (`variables.NAME`). */
  variableRead(node: CelAstNode, locals: Locals | undefined): CelAstNode | undefined {
    if (node.op !== '.') return undefined
    const [operand, field] = node.args as [CelAstNode, string]
    if (operand.op !== 'id' || operand.args !== 'variables' || lookup(locals, 'variables')) return undefined
    return this.#variables.get(field)
  }

  /** The node's boolean value, or undefined when it errs or is not a bool. */
  truth(node: CelAstNode, locals: Locals | undefined): boolean | undefined {
    try {
      const value = this.trace(node, locals).value
      return typeof value === 'boolean' ? value : undefined
    } catch {
      return undefined
    }
  }

  /** Like `trace`, but undefined instead of an error. */
  tryTrace(node: CelAstNode, locals: Locals | undefined): Traced | undefined {
    try {
      return this.trace(node, locals)
    } catch {
      return undefined
    }
  }

  trace(node: CelAstNode, locals: Locals | undefined): Traced {
    return this.#native(node, locals) ?? traced(this.#evaluateOpaque(node, locals))
  }

  /** The nodes evaluated here; undefined hands the node to cel-js. */
  #native(node: CelAstNode, locals: Locals | undefined): Traced | undefined {
    switch (node.op) {
      case 'value':
        return traced(node.args)
      case 'id':
        return this.#identifier(node.args as string, locals)
      case '.':
      case '.?': {
        const variable = this.variableRead(node, locals)
        if (variable) return this.#variable((node.args as [CelAstNode, string])[1], variable)
        const [operand, field] = node.args as [CelAstNode, string]
        return select(this.trace(operand, locals), field, node.op === '.?')
      }
      case '[]':
      case '[?]': {
        const [operand, index] = node.args as [CelAstNode, CelAstNode]
        const key = this.trace(index, locals).value
        if (typeof key === 'bigint') return selectIndex(this.trace(operand, locals), Number(key), node.op === '[?]')
        if (typeof key === 'string') return select(this.trace(operand, locals), key, node.op === '[?]')
        return undefined
      }
      case '!_': {
        const value = this.trace(node.args as CelAstNode, locals).value
        return typeof value === 'boolean' ? traced(!value) : undefined
      }
      case '&&':
      case '||':
        return this.#logical(node.op, node.args as [CelAstNode, CelAstNode], locals)
      case '?:': {
        const [condition, then, otherwise] = node.args as [CelAstNode, CelAstNode, CelAstNode]
        const guard = this.trace(condition, locals)
        if (typeof guard.value !== 'boolean') return undefined
        const chosen = this.trace(guard.value ? then : otherwise, locals)
        // `type(x) == list ? x : []`: the default stands for x, which is missing or of another type.
        const guarded = guard.typeGuardOf
        if (chosen.path !== undefined || guarded?.path === undefined) return chosen
        return traced(chosen.value, guarded.path, guarded.missing === true || guarded.value === null)
      }
      case '==':
      case '!=':
      case '<':
      case '<=':
      case '>':
      case '>=':
        return this.#compare(node, node.op, node.args as [CelAstNode, CelAstNode], locals)
      case '+': {
        const [left, right] = (node.args as [CelAstNode, CelAstNode]).map((side) => this.trace(side, locals)) as [Traced, Traced]
        if (!Array.isArray(left.value) || !Array.isArray(right.value)) return undefined
        return { value: [...(left.value as unknown[]), ...(right.value as unknown[])], elements: [...elementsOf(left), ...elementsOf(right)] }
      }
      case 'list': {
        const items = (node.args as CelAstNode[]).map((item) => this.trace(item, locals))
        return { value: items.map((item) => item.value), elements: items }
      }
      case 'map':
        return this.#mapLiteral(node, locals)
      case 'call': {
        const [name, args] = node.args as [string, CelAstNode[]]
        const [argument] = args
        if (args.length !== 1 || !argument) return undefined
        if (name === 'size') return sizeOf(this.trace(argument, locals))
        if (name === 'type') return { value: this.#evaluateOpaque(node, locals), typeOf: this.trace(argument, locals) }
        // A conversion keeps the field it converts: `double(x) >= 1.0` is a check of x.
        if (CONVERSIONS.has(name)) {
          const converted = this.trace(argument, locals)
          return traced(this.#evaluateOpaque(node, locals), converted.path, converted.missing)
        }
        return undefined
      }
      case 'rcall':
        return this.#receiverCall(node.args as [string, CelAstNode, CelAstNode[]], locals)
      default:
        return undefined
    }
  }

  /** Comprehension variables and the activation's roots; type names (`string`, `list`) are cel-js's. */
  #identifier(name: string, locals: Locals | undefined): Traced | undefined {
    const local = lookup(locals, name)
    if (local) return local
    const value = this.#activation[name]
    if (value === undefined) return undefined
    return name === 'object' ? traced(value, []) : traced(value)
  }

  /** A rule variable, traced once from its own expression so its values keep their paths. */
  #variable(name: string, expression: CelAstNode): Traced {
    let value = this.#variableTraces.get(name)
    if (!value) {
      value = this.trace(expression, undefined)
      this.#variableTraces.set(name, value)
    }
    return value
  }

  /** CEL's commutative && and ||: a decisive operand wins even when the other errs. */
  #logical(op: '&&' | '||', [left, right]: [CelAstNode, CelAstNode], locals: Locals | undefined): Traced | undefined {
    const decisive = op === '||'
    let failure: unknown
    for (const side of [left, right]) {
      try {
        const value = this.trace(side, locals).value
        if (typeof value !== 'boolean') return undefined
        if (value === decisive) return traced(decisive)
      } catch (error) {
        failure ??= error
      }
    }
    if (failure !== undefined) throw failure
    return traced(!decisive)
  }

  /** Comparisons of two primitives of one kind; anything else (int against double, lists, types) is cel-js's. */
  #compare(node: CelAstNode, op: string, args: [CelAstNode, CelAstNode], locals: Locals | undefined): Traced | undefined {
    const [left, right] = args.map((side) => this.trace(side, locals)) as [Traced, Traced]
    const [x, y] = [left.value, right.value]
    if (op === '==' || op === '!=') {
      const comparable = x === null || y === null ? isPrimitive(x) && isPrimitive(y) : typeof x === typeof y && isPrimitive(x)
      if (comparable) return traced((x === y) === (op === '=='))
      const typed = left.typeOf ?? right.typeOf
      return typed ? { value: this.#evaluateOpaque(node, locals), typeGuardOf: typed } : undefined
    }
    const numbers = typeof x === typeof y && (typeof x === 'bigint' || typeof x === 'number')
    if (!numbers) return undefined
    const [p, q] = [x as number, y as number]
    return traced(op === '<' ? p < q : op === '<=' ? p <= q : op === '>' ? p > q : p >= q)
  }

  #receiverCall([name, receiverNode, args]: [string, CelAstNode, CelAstNode[]], locals: Locals | undefined): Traced | undefined {
    if (COMPREHENSIONS.has(name) && args.length === 2 && (args[0] as CelAstNode).op === 'id') {
      return this.#comprehension(name, this.trace(receiverNode, locals), (args[0] as CelAstNode).args as string, args[1] as CelAstNode, locals)
    }
    if (name === 'orValue' && args.length === 1) {
      const receiver = this.trace(receiverNode, locals)
      if (!(receiver.value instanceof Optional)) return receiver
      if (receiver.value.hasValue()) return traced(receiver.value.value(), receiver.path)
      const fallback = this.trace(args[0] as CelAstNode, locals)
      // A fallback read from elsewhere (a pod-level default) is where the value really came from.
      if (fallback.path !== undefined && !fallback.missing) return fallback
      return receiver.path === undefined ? traced(fallback.value) : traced(fallback.value, receiver.path, true)
    }
    if (name === 'value' && args.length === 0) {
      const receiver = this.trace(receiverNode, locals)
      if (!(receiver.value instanceof Optional) || !receiver.value.hasValue()) return undefined
      return traced(receiver.value.value(), receiver.path)
    }
    if (name === 'size' && args.length === 0) return sizeOf(this.trace(receiverNode, locals))
    if (name === 'flatten' && args.length === 0) {
      const receiver = this.trace(receiverNode, locals)
      if (!Array.isArray(receiver.value)) return undefined
      const elements = elementsOf(receiver).flatMap((element) => (Array.isArray(element.value) ? elementsOf(element) : [element]))
      return { value: elements.map((element) => element.value), elements }
    }
    return undefined
  }

  /** A map built from fields (a Terraform resource normalized to {address, type, values}): its entries keep their paths. */
  #mapLiteral(node: CelAstNode, locals: Locals | undefined): Traced | undefined {
    const entries = new Map<string, Traced>()
    for (const [keyNode, valueNode] of node.args as Array<[CelAstNode, CelAstNode]>) {
      const key = this.trace(keyNode, locals).value
      if (typeof key !== 'string') return undefined
      entries.set(key, this.trace(valueNode, locals))
    }
    return { value: this.#evaluateOpaque(node, locals), entries }
  }

  /** The one-variable macros over lists (and map keys), each iteration charged to the evaluation's budget. */
  #comprehension(name: string, receiver: Traced, variable: string, body: CelAstNode, outer: Locals | undefined): Traced | undefined {
    const items = iterationItems(receiver)
    if (!items) return undefined
    const scopes = items.map((item): Locals => ({ name: variable, value: item, outer }))
    if (name === 'map') {
      const elements = scopes.map((scope) => {
        charge(1)
        return this.trace(body, scope)
      })
      return { value: elements.map((element) => element.value), elements }
    }
    const results: (boolean | Error)[] = []
    for (const scope of scopes) {
      charge(1)
      try {
        const value = this.trace(body, scope).value
        if (typeof value !== 'boolean') return undefined
        results.push(value)
      } catch (error) {
        if (name !== 'all' && name !== 'exists') throw error
        results.push(error instanceof Error ? error : new Error(String(error)))
      }
    }
    const firstError = results.find((result): result is Error => result instanceof Error)
    switch (name) {
      case 'all':
        if (results.includes(false)) return traced(false)
        if (firstError) throw firstError
        return traced(true)
      case 'exists':
        if (results.includes(true)) return traced(true)
        if (firstError) throw firstError
        return traced(false)
      case 'filter': {
        const kept = scopes.filter((_scope, index) => results[index] === true)
        return { value: kept.map((scope) => scope.value.value), elements: kept.map((scope) => scope.value), keptBy: { source: receiver, predicate: body, scopes: kept } }
      }
      default:
        return traced(results.filter((result) => result === true).length === 1)
    }
  }

  /** Any other node, evaluated by cel-js from its source text with the comprehension variables bound. */
  #evaluateOpaque(node: CelAstNode, locals: Locals | undefined): unknown {
    const source = celSource(node)
    let program = this.#opaque.get(source)
    if (!program) {
      program = looseEnvironment().parse(source)
      this.#opaque.set(source, program)
    }
    const activation: Record<string, unknown> = { ...this.#activation }
    const chain: Locals[] = []
    for (let scope = locals; scope; scope = scope.outer) chain.unshift(scope)
    for (const scope of chain) activation[scope.name] = scope.value.value
    return program(activation)
  }
}

/**
 * A node's own text, printed from the AST: slicing the input by the node's span can cut a
 * parenthesis in half (`(a ? b : c) in list`).
 */
export function celSource(node: CelAstNode): string {
  return serialize(node as unknown as ASTNode)
}

const COMPREHENSIONS: ReadonlySet<string> = new Set(['all', 'exists', 'exists_one', 'existsOne', 'filter', 'map'])
const CONVERSIONS: ReadonlySet<string> = new Set(['double', 'int', 'uint', 'string'])

let loose: Environment | undefined

/** The engine's environment that also accepts comprehension variables as free variables (for sub-expressions). */
function looseEnvironment(): Environment {
  loose ??= celEnvironment().clone({ unlistedVariablesAreDyn: true })
  return loose
}

function isPrimitive(value: unknown): boolean {
  const kind = typeof value
  return value === null || kind === 'string' || kind === 'bigint' || kind === 'boolean' || kind === 'number'
}

/** A field of a CEL map (a JSON object or a Map); undefined when absent; an error for anything else. */
function fieldOf(value: unknown, field: string): unknown {
  if (value instanceof Map) return value.get(field) as unknown
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error(`no field ${field} on a ${value === null ? 'null' : typeof value}`)
  return Object.hasOwn(value, field) ? (value as Record<string, unknown>)[field] : undefined
}

function extend(path: readonly PathSegment[] | undefined, segment: PathSegment): readonly PathSegment[] | undefined {
  return path === undefined ? undefined : [...path, segment]
}

/** `a.b` (an error when missing), `a.?b` (an optional); after an optional, `.` continues the chain. */
function select(target: Traced, field: string, optional: boolean): Traced {
  const entry = target.entries?.get(field)
  if (entry) return optional && !(entry.value instanceof Optional) ? { ...entry, value: Optional.of(entry.value) } : entry
  let value = target.value
  let chained = optional
  if (value instanceof Optional) {
    if (!value.hasValue()) return traced(value, extend(target.path, field), true)
    value = value.value()
    chained = true
  }
  const found = fieldOf(value, field)
  const path = extend(target.path, field)
  if (chained) return found === undefined ? traced(Optional.none(), path, true) : traced(Optional.of(found), path)
  if (found === undefined) throw new Error(`no such key: ${field}`)
  return traced(found, path)
}

function selectIndex(target: Traced, index: number, optional: boolean): Traced | undefined {
  let value = target.value
  let chained = optional
  if (value instanceof Optional) {
    if (!value.hasValue()) return traced(value, extend(target.path, index), true)
    value = value.value()
    chained = true
  }
  if (!Array.isArray(value)) return undefined
  // A list read through an optional has no element record of its own; one assembled by `+` does.
  const list = value === target.value ? target : traced(value, target.path)
  const element = elementsOf(list)[index]
  if (chained) return element ? { ...element, value: Optional.of(element.value) } : traced(Optional.none(), extend(target.path, index), true)
  if (!element) throw new Error(`index ${index} out of range`)
  return element
}

function sizeOf(target: Traced): Traced | undefined {
  const value = target.value
  let size: number
  if (Array.isArray(value)) size = value.length
  else if (typeof value === 'string') size = [...value].length
  else if (value instanceof Map) size = value.size
  else if (value !== null && typeof value === 'object' && !(value instanceof Optional)) size = Object.keys(value).length
  else return undefined
  return { value: BigInt(size), sizeOf: target }
}

/** What a comprehension iterates: list elements, or the keys of a map (each traced to its entry). */
export function iterationItems(receiver: Traced): readonly Traced[] | undefined {
  const value = receiver.value
  if (Array.isArray(value)) return elementsOf(receiver)
  const keys = value instanceof Map ? [...value.keys()].map(String) : isObject(value) ? Object.keys(value) : undefined
  return keys?.map((key): Traced => {
    const path = extend(receiver.path, key)
    return path === undefined ? { value: key, key: true } : { value: key, path, key: true }
  })
}

function isObject(value: unknown): value is object {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Optional)
}
