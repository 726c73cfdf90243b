import { EvaluationError, ParseError, type Environment } from '@marcbachmann/cel-js'
import { CelBudgetExceededError, charge } from '../cost-budget.js'
import {
  identifierName,
  toCelJsNode,
  type CelAstNode,
  type CelChecker,
  type CelEvaluator,
  type CelIterationScope,
  type CelScope,
  type CelType,
  type MacroCall,
  type MacroExpansion,
} from '../macro-api.js'
import { HOOK_TYPE } from '../method-override.js'

/**
 * Comprehension macros with a cost meter: every iteration charges one unit to the evaluation's
 * budget (see cost-budget.ts), which is what bounds `items.all(a, items.all(b, ...))`. What a
 * body builds and what map/transform return are charged by size where every call is (metered-nodes.ts).
 *
 * They replace cel-js's own all / exists / exists_one / map / filter, which cannot be metered from
 * outside: cel-js expands a method call with the last macro registered for that name and arity
 * (see method-override.ts), so registering ours under a private receiver type takes them over.
 * Semantics follow the CEL spec: `all` is false if any predicate is false even when others err,
 * `exists` true if any is true; otherwise the first error is raised. `exists_one`, `map` and
 * `filter` stop at the first error. The two-variable forms Kubernetes enables (1.32+) are here too:
 * `all(i, v, p)`, `exists(i, v, p)`, `existsOne(i, v, p)`, `transformList`, `transformMap`.
 */

type Kind = 'all' | 'exists' | 'existsOne' | 'filter' | 'map' | 'transformMap'

interface Spec {
  readonly name: string
  readonly kind: Kind
  readonly variables: 1 | 2
  readonly hasFilter: boolean
}

const SPECS: readonly Spec[] = [
  { name: 'all', kind: 'all', variables: 1, hasFilter: false },
  { name: 'exists', kind: 'exists', variables: 1, hasFilter: false },
  { name: 'exists_one', kind: 'existsOne', variables: 1, hasFilter: false },
  { name: 'existsOne', kind: 'existsOne', variables: 1, hasFilter: false },
  { name: 'filter', kind: 'filter', variables: 1, hasFilter: false },
  { name: 'map', kind: 'map', variables: 1, hasFilter: false },
  { name: 'map', kind: 'map', variables: 1, hasFilter: true },
  { name: 'all', kind: 'all', variables: 2, hasFilter: false },
  { name: 'exists', kind: 'exists', variables: 2, hasFilter: false },
  { name: 'exists_one', kind: 'existsOne', variables: 2, hasFilter: false },
  { name: 'existsOne', kind: 'existsOne', variables: 2, hasFilter: false },
  { name: 'transformList', kind: 'map', variables: 2, hasFilter: false },
  { name: 'transformList', kind: 'map', variables: 2, hasFilter: true },
  { name: 'transformMap', kind: 'transformMap', variables: 2, hasFilter: false },
  { name: 'transformMap', kind: 'transformMap', variables: 2, hasFilter: true },
]

interface ComprehensionMacro extends MacroExpansion<ComprehensionMacro> {
  readonly spec: Spec
  readonly label: string
  readonly call: CelAstNode
  readonly range: CelAstNode
  readonly first: string
  readonly second: string | undefined
  readonly filter: CelAstNode | undefined
  readonly body: CelAstNode
  firstScope: CelIterationScope | undefined
  innerScope: CelIterationScope | undefined
}

export function registerComprehensions(env: Environment): void {
  for (const spec of SPECS) {
    const arity = spec.variables + (spec.hasFilter ? 2 : 1)
    const params = Array.from({ length: arity }, () => 'ast').join(', ')
    env.registerFunction(`${HOOK_TYPE}.${spec.name}(${params}): dyn`, (call: MacroCall) => expand(spec, call), { async: false })
  }
}

function expand(spec: Spec, call: MacroCall): ComprehensionMacro {
  const names = call.args.slice(0, spec.variables).map((node) => identifierName(node))
  const label = `${spec.name}(${[...names.map((name) => name ?? 'var'), ...(spec.hasFilter ? ['filter'] : []), 'expression'].join(', ')})`
  if (!call.receiver) throw new ParseError(`${spec.name}() must be called on a list or map`, toCelJsNode(call.ast))
  names.forEach((name, i) => {
    if (name === undefined) throw new ParseError(`${label}: argument ${i + 1} must be a variable name`, toCelJsNode(call.args[i] as CelAstNode))
  })
  if (names.length === 2 && names[0] === names[1]) {
    throw new ParseError(`${label}: the two variables must have different names`, toCelJsNode(call.ast))
  }
  return {
    async: false,
    spec,
    label,
    call: call.ast,
    range: call.receiver,
    first: names[0] as string,
    second: names[1],
    filter: spec.hasFilter ? call.args[spec.variables] : undefined,
    body: call.args[call.args.length - 1] as CelAstNode,
    firstScope: undefined,
    innerScope: undefined,
    typeCheck,
    evaluate,
  }
}

function typeCheck(checker: CelChecker, macro: ComprehensionMacro, scope: CelScope): CelType {
  const rangeType = checker.check(macro.range, scope)
  const dyn = checker.getType('dyn')
  let firstType: CelType
  let secondType: CelType = dyn
  if (rangeType.kind === 'dyn') firstType = dyn
  else if (rangeType.kind === 'list') {
    firstType = macro.second === undefined ? (rangeType.valueType ?? dyn) : checker.getType('int')
    secondType = rangeType.valueType ?? dyn
  } else if (rangeType.kind === 'map') {
    firstType = rangeType.keyType ?? dyn
    secondType = rangeType.valueType ?? dyn
  } else {
    throw checker.createError(
      'invalid_comprehension_range',
      `${macro.label}: expression of type '${rangeType.name}' cannot be the range of a comprehension (must be list, map, or dynamic)`,
      macro.range,
    )
  }
  macro.firstScope = scope.forkWithVariable(macro.first, firstType)
  macro.innerScope = macro.second === undefined ? macro.firstScope : macro.firstScope.forkWithVariable(macro.second, secondType)
  if (macro.filter) requireBool(checker, macro, checker.check(macro.filter, macro.innerScope), macro.filter)
  const bodyType = checker.check(macro.body, macro.innerScope)
  switch (macro.spec.kind) {
    case 'all':
    case 'exists':
    case 'existsOne':
      requireBool(checker, macro, bodyType, macro.body)
      return checker.getType('bool')
    case 'filter':
      requireBool(checker, macro, bodyType, macro.body)
      return checker.registry.getListType(firstType)
    case 'map':
      return checker.registry.getListType(bodyType)
    case 'transformMap':
      return checker.registry.getMapType(firstType, bodyType)
  }
}

function requireBool(checker: CelChecker, macro: ComprehensionMacro, type: CelType, node: CelAstNode): void {
  if (!type.isDynOrBool()) {
    throw checker.createError('invalid_predicate', `${macro.label}: predicate must return bool, got '${type.name}'`, node)
  }
}

/** The state of one run of a comprehension; the loops below bind variables through it. */
interface Iteration {
  readonly evaluator: CelEvaluator
  readonly firstScope: CelIterationScope
  readonly inner: CelIterationScope
  /** Per iteration: list elements (indexes with two variables) or map keys. */
  readonly firsts: readonly unknown[]
  /** Per iteration, with two variables: list elements or map values. */
  readonly seconds: readonly unknown[] | undefined
}

function evaluate(evaluator: CelEvaluator, macro: ComprehensionMacro, scope: CelScope): unknown {
  const range = evaluator.run(macro.range, scope)
  const firsts = firstValues(evaluator, macro, range)
  const seconds = macro.second === undefined ? undefined : secondValues(range, firsts)
  charge(1)
  const firstScope = (macro.firstScope as CelIterationScope).reuse(scope)
  const inner = seconds ? (macro.innerScope as CelIterationScope).reuse(firstScope) : firstScope
  const it: Iteration = { evaluator, firstScope, inner, firsts, seconds }
  switch (macro.spec.kind) {
    case 'all':
      return quantify(it, macro, false)
    case 'exists':
      return quantify(it, macro, true)
    case 'existsOne': {
      let count = 0
      for (let i = 0; i < firsts.length; i++) {
        bindAt(it, i)
        if (predicate(it, macro, macro.body)) count++
      }
      return count === 1
    }
    case 'filter': {
      const out: unknown[] = []
      for (let i = 0; i < firsts.length; i++) {
        bindAt(it, i)
        if (predicate(it, macro, macro.body)) out.push(firsts[i])
      }
      return out
    }
    case 'map': {
      const out: unknown[] = []
      for (let i = 0; i < firsts.length; i++) {
        bindAt(it, i)
        if (macro.filter && !predicate(it, macro, macro.filter)) continue
        out.push(evaluator.run(macro.body, inner))
      }
      return out
    }
    case 'transformMap': {
      const out = new Map<unknown, unknown>()
      for (let i = 0; i < firsts.length; i++) {
        bindAt(it, i)
        if (macro.filter && !predicate(it, macro, macro.filter)) continue
        out.set(firsts[i], evaluator.run(macro.body, inner))
      }
      return out
    }
  }
}

function firstValues(evaluator: CelEvaluator, macro: ComprehensionMacro, range: unknown): readonly unknown[] {
  const two = macro.second !== undefined
  if (Array.isArray(range)) return two ? range.map((_, i) => BigInt(i)) : range
  if (range instanceof Set) return two ? [...range].map((_, i) => BigInt(i)) : [...range]
  if (range instanceof Map) return [...range.keys()]
  if (typeof range === 'object' && range !== null && isPlainObject(range)) return Object.keys(range)
  throw new EvaluationError(
    `${macro.label}: expression of type '${typeName(evaluator, range)}' cannot be the range of a comprehension (must be list, map, or dynamic)`,
    toCelJsNode(macro.range),
  )
}

function secondValues(range: unknown, firsts: readonly unknown[]): readonly unknown[] {
  if (Array.isArray(range)) return range
  if (range instanceof Set) return [...range]
  if (range instanceof Map) return firsts.map((key) => range.get(key))
  const object = range as Record<string, unknown>
  return firsts.map((key) => object[key as string])
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const proto: unknown = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

/** Binds the variables for iteration i, charging one unit of the budget. */
function bindAt(it: Iteration, i: number): void {
  charge(1)
  it.firstScope.setIterValue(it.firsts[i], it.evaluator)
  if (it.seconds) it.inner.setIterValue(it.seconds[i], it.evaluator)
}

/**
 * all (decisive = false) and exists (decisive = true): the first predicate equal to `decisive`
 * decides; errors are remembered and raised only when nothing decided, as the CEL spec wants for
 * `a.all(x, x.f > 0)` over elements where some lack `f`.
 */
function quantify(it: Iteration, macro: ComprehensionMacro, decisive: boolean): boolean {
  let error: unknown
  for (let i = 0; i < it.firsts.length; i++) {
    bindAt(it, i)
    const result = it.evaluator.tryEval(macro.body, it.inner)
    if (result === decisive) return decisive
    if (result === !decisive) continue
    if (result instanceof CelBudgetExceededError) throw result
    error ??= result instanceof Error ? result : notBool(it.evaluator, macro, result, macro.body)
  }
  if (error !== undefined) throw error
  return !decisive
}

function predicate(it: Iteration, macro: ComprehensionMacro, node: CelAstNode): boolean {
  const result = it.evaluator.run(node, it.inner)
  if (typeof result === 'boolean') return result
  throw notBool(it.evaluator, macro, result, node)
}

function notBool(evaluator: CelEvaluator, macro: ComprehensionMacro, value: unknown, node: CelAstNode): EvaluationError {
  return new EvaluationError(`${macro.label}: predicate must return bool, got '${typeName(evaluator, value)}'`, toCelJsNode(node))
}

function typeName(evaluator: CelEvaluator, value: unknown): string {
  try {
    return evaluator.debugType(value).name
  } catch {
    // an unsupported JS value: its typeof is as good a description as any
    return typeof value
  }
}
