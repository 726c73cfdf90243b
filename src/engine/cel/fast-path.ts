import { Optional } from '@marcbachmann/cel-js'
import { charge } from './cost-budget.js'
import { chargeResult, chargeReturned, chargeWalk, sizeCost } from './value-cost.js'

/**
 * A faster evaluator for the part of CEL that admission policies are mostly made of: field and
 * optional selection, has(), boolean logic, comparisons of primitives, list and string basics and
 * the comprehension macros over lists.
 *
 * It only has to be right when everything goes well. Whenever it meets anything else at run time
 * (a missing field, a value of an unexpected type, a non-boolean condition, an error of any kind)
 * it throws BAILOUT and the caller evaluates the expression again with cel-js, which then decides
 * the result or the error with full CEL semantics. Expressions are free of side effects, so running
 * one twice changes nothing but time, and only on the unusual path. Expressions with any node it
 * does not know are not compiled at all and always run on cel-js.
 */
export type FastEvaluator = (activation: Readonly<Record<string, unknown>>) => unknown

/** Thrown to hand an evaluation back to cel-js; never escapes `CompiledProgram.evaluate`. */
export const BAILOUT: unique symbol = Symbol('cel fast path bailout')

/** The slice of a cel-js AST node this evaluator reads (see cel-js serialize.js for the shapes). */
export interface CelAstNode {
  readonly op: string
  readonly args: unknown
}

type Scope = Readonly<Record<string, unknown>>
type Node = (activation: Scope, locals: Locals | undefined) => unknown

/** Comprehension variables, innermost first. */
interface Locals {
  readonly name: string
  value: unknown
  readonly outer: Locals | undefined
}

class Unsupported extends Error {}

/** Compiles an AST, or returns undefined when any node is outside the fast subset. */
export function compileFastPath(ast: CelAstNode): FastEvaluator | undefined {
  let node: Node
  try {
    node = compileNode(ast)
  } catch (error) {
    if (error instanceof Unsupported) return undefined
    throw error
  }
  // As on cel-js (see metered-nodes.ts): callers print and compare the result outside the budget.
  return (activation) => {
    const value = node(activation, undefined)
    chargeReturned(value)
    return value
  }
}

function bail(): never {
  throw BAILOUT
}

function compileNode(ast: CelAstNode): Node {
  switch (ast.op) {
    case 'value':
      return compileLiteral(ast.args)
    case 'id':
      return compileIdentifier(ast.args as string)
    case '.':
      return compileSelect(ast.args as [CelAstNode, string], false)
    case '.?':
      return compileSelect(ast.args as [CelAstNode, string], true)
    case '[]':
      return compileIndex(ast.args as [CelAstNode, CelAstNode])
    case '&&':
    case '||':
      return compileLogical(ast.op, ast.args as [CelAstNode, CelAstNode])
    case '!_': {
      const operand = compileNode(ast.args as CelAstNode)
      return (a, l) => !asBool(operand(a, l))
    }
    case '==':
    case '!=':
      return compileEquality(ast.op, ast.args as [CelAstNode, CelAstNode])
    case '<':
    case '<=':
    case '>':
    case '>=':
      return compileOrdering(ast.op, ast.args as [CelAstNode, CelAstNode])
    case '?:': {
      const [condition, then, otherwise] = (ast.args as CelAstNode[]).map(compileNode) as [Node, Node, Node]
      return (a, l) => (asBool(condition(a, l)) ? then(a, l) : otherwise(a, l))
    }
    case 'in':
      return compileIn(ast.args as [CelAstNode, CelAstNode])
    case '+':
      return compileAdd(ast.args as [CelAstNode, CelAstNode])
    case 'list': {
      const items = (ast.args as CelAstNode[]).map(compileNode)
      return (a, l) => {
        const list = items.map((item) => item(a, l))
        chargeResult(list)
        return list
      }
    }
    case 'map':
      return compileMapLiteral(ast.args as [CelAstNode, CelAstNode][])
    case 'call':
      return compileCall(ast.args as [string, CelAstNode[]])
    case 'rcall':
      return compileReceiverCall(ast.args as [string, CelAstNode, CelAstNode[]])
    default:
      throw new Unsupported(ast.op)
  }
}

/** Map literals with literal string keys, built as the plain objects cel-js builds. */
function compileMapLiteral(entries: [CelAstNode, CelAstNode][]): Node {
  const keys = entries.map(([key]) => {
    if (key.op !== 'value' || typeof key.args !== 'string' || key.args === '__proto__') throw new Unsupported('map key')
    return key.args
  })
  if (new Set(keys).size !== keys.length) throw new Unsupported('duplicate map key')
  const values = entries.map(([, value]) => compileNode(value))
  return (a, l) => {
    const map: Record<string, unknown> = {}
    for (let i = 0; i < keys.length; i++) map[keys[i] as string] = (values[i] as Node)(a, l)
    chargeResult(map)
    return map
  }
}

function compileLiteral(value: unknown): Node {
  const kind = typeof value
  if (value !== null && kind !== 'string' && kind !== 'bigint' && kind !== 'boolean' && kind !== 'number') throw new Unsupported('literal')
  return () => value
}

function compileIdentifier(name: string): Node {
  return (activation, locals) => {
    for (let scope = locals; scope; scope = scope.outer) if (scope.name === name) return scope.value
    const value = activation[name]
    return value === undefined ? bail() : value
  }
}

/** `a.b` fails on a missing field; `a.?b` yields an optional; after `.?`, `.` continues the optional chain. */
function compileSelect([operand, field]: [CelAstNode, string], optional: boolean): Node {
  const target = compileNode(operand)
  return (a, l) => {
    let value = target(a, l)
    let chained = optional
    if (value instanceof Optional) {
      if (!value.hasValue()) return value
      value = value.value()
      chained = true
    }
    const found = fieldOf(value, field)
    if (chained) return Optional.of(found)
    return found === undefined ? bail() : found
  }
}

function compileIndex([operand, index]: [CelAstNode, CelAstNode]): Node {
  const target = compileNode(operand)
  const key = compileNode(index)
  return (a, l) => {
    const value = target(a, l)
    const at = key(a, l)
    if (Array.isArray(value) && typeof at === 'bigint') {
      const item: unknown = at >= 0n && at < BigInt(value.length) ? value[Number(at)] : undefined
      return item === undefined ? bail() : item
    }
    if (typeof at !== 'string') return bail()
    const found = fieldOf(value, at)
    return found === undefined ? bail() : found
  }
}

/** A field of a map; undefined when absent. Anything that is not a JSON-like map bails. */
function fieldOf(value: unknown, field: string): unknown {
  if (value === null || typeof value !== 'object') return bail()
  const constructor = (value as { constructor?: unknown }).constructor
  if (constructor === Object || constructor === undefined) {
    return Object.hasOwn(value, field) ? (value as Record<string, unknown>)[field] : undefined
  }
  if (value instanceof Map) return value.get(field)
  return bail()
}

function compileLogical(op: '&&' | '||', args: [CelAstNode, CelAstNode]): Node {
  const [left, right] = args.map(compileNode) as [Node, Node]
  if (op === '&&') return (a, l) => asBool(left(a, l)) && asBool(right(a, l))
  return (a, l) => asBool(left(a, l)) || asBool(right(a, l))
}

function asBool(value: unknown): boolean {
  return typeof value === 'boolean' ? value : bail()
}

/** Equality of two primitives of the same kind; mixed kinds, lists and maps go to cel-js. */
function compileEquality(op: '==' | '!=', args: [CelAstNode, CelAstNode]): Node {
  const [left, right] = args.map(compileNode) as [Node, Node]
  const negate = op === '!='
  return (a, l) => {
    const x = left(a, l)
    const y = right(a, l)
    if (!samePrimitiveKind(x, y)) return bail()
    if (typeof x === 'string') {
      chargeWalk(x)
      chargeWalk(y)
    }
    return (x === y) !== negate
  }
}

function samePrimitiveKind(x: unknown, y: unknown): boolean {
  if (x === null || y === null) return x === y || (isPrimitive(x) && isPrimitive(y))
  const kind = typeof x
  return kind === typeof y && (kind === 'string' || kind === 'bigint' || kind === 'boolean' || kind === 'number')
}

function isPrimitive(value: unknown): boolean {
  const kind = typeof value
  return value === null || kind === 'string' || kind === 'bigint' || kind === 'boolean'
}

/** Ordering of two ints or two doubles (strings compare by code point in CEL, not by UTF-16 unit). */
function compileOrdering(op: '<' | '<=' | '>' | '>=', args: [CelAstNode, CelAstNode]): Node {
  const [left, right] = args.map(compileNode) as [Node, Node]
  return (a, l) => {
    const x = left(a, l)
    const y = right(a, l)
    const kind = typeof x
    if (kind !== typeof y || (kind !== 'bigint' && kind !== 'number')) return bail()
    const p = x as number
    const q = y as number
    switch (op) {
      case '<':
        return p < q
      case '<=':
        return p <= q
      case '>':
        return p > q
      default:
        return p >= q
    }
  }
}

/** `x in list` over primitives of x's own kind, `key in map` for string keys. */
function compileIn(args: [CelAstNode, CelAstNode]): Node {
  const [element, container] = args.map(compileNode) as [Node, Node]
  return (a, l) => {
    const x = element(a, l)
    const c = container(a, l)
    if (Array.isArray(c)) {
      if (!isPrimitive(x)) return bail()
      charge(1 + c.length)
      for (const item of c) {
        if (!samePrimitiveKind(x, item)) return bail()
        if (item === x) return true
      }
      return false
    }
    if (typeof x !== 'string') return bail()
    return fieldOf(c, x) !== undefined
  }
}

const MAX_INT64 = 2n ** 63n - 1n
const MIN_INT64 = -(2n ** 63n)

function compileAdd(args: [CelAstNode, CelAstNode]): Node {
  const [left, right] = args.map(compileNode) as [Node, Node]
  return (a, l) => {
    const x = left(a, l)
    const y = right(a, l)
    // Charged before the copy is made: the result is as large as both operands (see value-cost.ts).
    if (Array.isArray(x) && Array.isArray(y)) {
      charge(1 + sizeCost(x) + sizeCost(y))
      return x.concat(y)
    }
    if (typeof x === 'string' && typeof y === 'string') {
      charge(1 + sizeCost(x) + sizeCost(y))
      return x + y
    }
    if (typeof x === 'bigint' && typeof y === 'bigint') {
      const sum = x + y
      return sum > MAX_INT64 || sum < MIN_INT64 ? bail() : sum
    }
    return bail()
  }
}

function compileCall([name, callArgs]: [string, CelAstNode[]]): Node {
  if (name === 'has' && callArgs.length === 1) return compileHas(callArgs[0] as CelAstNode)
  if (name === 'size' && callArgs.length === 1) {
    const operand = compileNode(callArgs[0] as CelAstNode)
    return (a, l) => sizeOf(operand(a, l))
  }
  throw new Unsupported(name)
}

/** has(a.b.c): `a.b` must exist (as with `.`), then whether `c` is present. */
function compileHas(argument: CelAstNode): Node {
  if (argument.op !== '.') throw new Unsupported('has')
  const [operand, field] = argument.args as [CelAstNode, string]
  if (containsOptionalSelect(operand)) throw new Unsupported('has over an optional chain')
  const target = compileNode(operand)
  return (a, l) => fieldOf(target(a, l), field) !== undefined
}

function containsOptionalSelect(ast: CelAstNode): boolean {
  if (ast.op === '.?' || ast.op === '[?]') return true
  if (ast.op === '.' || ast.op === '[]') return containsOptionalSelect((ast.args as [CelAstNode])[0])
  return false
}

function sizeOf(value: unknown): bigint {
  if (Array.isArray(value)) return BigInt(value.length)
  if (typeof value === 'string') {
    chargeWalk(value)
    let count = 0
    for (let i = 0; i < value.length; i++) {
      const code = value.charCodeAt(i)
      // A surrogate pair is one code point, as CEL counts.
      if (code >= 0xd800 && code <= 0xdbff && i + 1 < value.length) i++
      count++
    }
    return BigInt(count)
  }
  if (value !== null && typeof value === 'object' && (value as { constructor?: unknown }).constructor === Object) {
    return BigInt(Object.keys(value).length)
  }
  return bail()
}

const STRING_TESTS: Readonly<Record<string, (s: string, arg: string) => boolean>> = {
  startsWith: (s, arg) => s.startsWith(arg),
  endsWith: (s, arg) => s.endsWith(arg),
  contains: (s, arg) => s.includes(arg),
}

function compileReceiverCall([name, receiverAst, callArgs]: [string, CelAstNode, CelAstNode[]]): Node {
  const comprehension = COMPREHENSIONS[name]
  if (comprehension && callArgs.length === 2 && (callArgs[0] as CelAstNode).op === 'id') {
    return compileComprehension(comprehension, receiverAst, (callArgs[0] as CelAstNode).args as string, callArgs[1] as CelAstNode)
  }
  const receiver = compileNode(receiverAst)
  const argNodes = callArgs.map(compileNode)
  const test = STRING_TESTS[name]
  if (test && argNodes.length === 1) {
    const arg = argNodes[0] as Node
    return (a, l) => {
      const s = receiver(a, l)
      const x = arg(a, l)
      if (typeof s !== 'string' || typeof x !== 'string') return bail()
      charge(1 + (s.length >>> 4))
      return test(s, x)
    }
  }
  if (name === 'orValue' && argNodes.length === 1) {
    const fallback = argNodes[0] as Node
    // On a value that is not optional, orValue returns it (the engine's rule; see libraries/optionals).
    return (a, l) => {
      const value = receiver(a, l)
      if (!(value instanceof Optional)) return value
      return value.hasValue() ? value.value() : fallback(a, l)
    }
  }
  if (name === 'hasValue' && argNodes.length === 0) {
    return (a, l) => {
      const value = receiver(a, l)
      return value instanceof Optional ? value.hasValue() : bail()
    }
  }
  if (name === 'size' && argNodes.length === 0) return (a, l) => sizeOf(receiver(a, l))
  throw new Unsupported(name)
}

type ComprehensionKind = 'all' | 'exists' | 'exists_one' | 'filter' | 'map'

const COMPREHENSIONS: Readonly<Record<string, ComprehensionKind>> = {
  all: 'all',
  exists: 'exists',
  exists_one: 'exists_one',
  existsOne: 'exists_one',
  filter: 'filter',
  map: 'map',
}

/** The one-variable macros over lists; every iteration is charged to the evaluation's budget. */
function compileComprehension(kind: ComprehensionKind, receiverAst: CelAstNode, variable: string, bodyAst: CelAstNode): Node {
  const receiver = compileNode(receiverAst)
  const body = compileNode(bodyAst)
  return (a, outer) => {
    const list = receiver(a, outer)
    if (!Array.isArray(list)) return bail()
    const locals: Locals = { name: variable, value: undefined, outer }
    switch (kind) {
      case 'all':
        for (const item of list) {
          charge(1)
          locals.value = item
          if (!asBool(body(a, locals))) return false
        }
        return true
      case 'exists':
        for (const item of list) {
          charge(1)
          locals.value = item
          if (asBool(body(a, locals))) return true
        }
        return false
      case 'exists_one': {
        let count = 0
        for (const item of list) {
          charge(1)
          locals.value = item
          if (asBool(body(a, locals))) count++
        }
        return count === 1
      }
      case 'filter': {
        const kept: unknown[] = []
        for (const item of list) {
          charge(1)
          locals.value = item
          if (asBool(body(a, locals))) kept.push(item)
        }
        chargeResult(kept)
        return kept
      }
      case 'map': {
        const mapped: unknown[] = []
        for (const item of list) {
          charge(1)
          locals.value = item
          mapped.push(body(a, locals))
        }
        chargeResult(mapped)
        return mapped
      }
    }
  }
}
