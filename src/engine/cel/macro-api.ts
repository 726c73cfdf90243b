import type { ASTNode } from '@marcbachmann/cel-js'

/**
 * Structural types for the parts of cel-js 8's macro protocol that our macros rely on.
 *
 * cel-js documents custom macros (README, "Custom macros": a handler receiving `{ast, args, receiver}`
 * that returns `{typeCheck(checker, macro, ctx), evaluate(evaluator, macro, ctx)}`) but ships no
 * typings for the checker, evaluator and scope objects. These interfaces list exactly the members
 * that cel-js's own macros (lib/macros.js: `cel.bind`, `has`) use, so an upgrade that changes them
 * shows up here and in the comprehension / override tests.
 */

/** A parsed expression node. `args` depends on `op` ('id' → name, 'value' → literal, ...). */
export interface CelAstNode {
  readonly op: string
  readonly args: unknown
  readonly pos: number
  readonly start: number
  readonly end: number
  readonly input: string
}

/** A type as the checker sees it: `string`, `list<int>`, `dyn`, `kubernetes.Quantity`... */
export interface CelType {
  readonly name: string
  readonly kind: string
  readonly valueType?: CelType
  readonly keyType?: CelType
  readonly hasDynType: boolean
  isDynOrBool(): boolean
  /** True when a value of this (actual) type can be passed where `declared` is expected. */
  matches(declared: CelType): boolean
  /** Runtime check of a value against this type (used for dynamic dispatch). */
  matchesValueType(value: unknown, evaluator: CelEvaluator): boolean
  /** The common type of two types, or null when they have none. */
  unify(registry: CelTypeRegistry, other: CelType): CelType | null
}

export interface CelTypeRegistry {
  getListType(element: CelType): CelType
  getMapType(key: CelType, value: CelType): CelType
  getOptionalType(value: CelType): CelType
}

export interface CelChecker {
  readonly registry: CelTypeRegistry
  check(node: CelAstNode, scope: CelScope): CelType
  getType(name: string): CelType
  createError(code: string, message: string, node?: CelAstNode): Error
}

export interface CelEvaluator {
  run(node: CelAstNode, scope: CelScope): unknown
  /** Like `run`, but returns a thrown error instead of throwing it. */
  tryEval(node: CelAstNode, scope: CelScope): unknown
  debugType(value: unknown): CelType
}

/** A variable scope; comprehension variables are overlays forked from it. */
export interface CelScope {
  forkWithVariable(name: string, type: CelType): CelIterationScope
}

/**
 * The overlay that binds one iteration variable. cel-js creates it once at check time and
 * re-parents it for every evaluation (`reuse`), which is what `cel.bind` does too.
 */
export interface CelIterationScope extends CelScope {
  reuse(parent: CelScope): CelIterationScope
  setIterValue(value: unknown, evaluator: CelEvaluator): CelIterationScope
}

/** What cel-js passes to a macro handler while parsing a call such as `x.all(a, p)`. */
export interface MacroCall {
  readonly ast: CelAstNode
  readonly args: readonly CelAstNode[]
  readonly receiver: CelAstNode | null
  readonly methodName: string
}

/** What a macro handler returns; `async: false` keeps cel-js on its synchronous fast path. */
export interface MacroExpansion<Self> {
  readonly async: false
  typeCheck(checker: CelChecker, macro: Self, scope: CelScope): CelType
  evaluate(evaluator: CelEvaluator, macro: Self, scope: CelScope): unknown
}

/** The name of an `id` node (a bare identifier), or undefined for any other node. */
export function identifierName(node: CelAstNode): string | undefined {
  return node.op === 'id' && typeof node.args === 'string' ? node.args : undefined
}

/** The literal string of a `value` node, or undefined when the node is not a string literal. */
export function stringLiteral(node: CelAstNode): string | undefined {
  return node.op === 'value' && typeof node.args === 'string' ? node.args : undefined
}

/** The same node typed as cel-js's public ASTNode, for its error constructors. */
export function toCelJsNode(node: CelAstNode): ASTNode {
  // CelAstNode is a structural subset of the object cel-js itself created, so this is the same value.
  return node as unknown as ASTNode
}
