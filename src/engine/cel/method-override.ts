import { EvaluationError, type Environment } from '@marcbachmann/cel-js'
import { CelBudgetExceededError } from './cost-budget.js'
import { toCelJsNode, type CelAstNode, type CelChecker, type CelEvaluator, type CelScope, type CelType, type MacroCall, type MacroExpansion } from './macro-api.js'

/**
 * Replaces methods cel-js already defines (and so cannot be registered again: cel-js rejects an
 * overlapping signature) with our own overloads.
 *
 * The lever is cel-js's macro dispatch: at parse time a call `r.name(a, b)` is expanded by the
 * *last* macro registered for that method name and argument count, whatever the receiver type
 * (lib/registry.js `findMacro`). cel-js's own `optional.orValue(x)` works the same way. We
 * register one macro per (name, arity) under a private receiver type, and the macro type-checks and
 * dispatches our overloads itself. The built-in overload is never reached for method-call syntax.
 */

/** Type name of the receiver our hook macros are declared on; never a real value's type. */
export const HOOK_TYPE = 'verdict.MethodHook'

class MethodHook {}

/** Declares the hook receiver type; must run before any hook macro is registered. */
export function registerHookType(env: Environment): void {
  env.registerType(HOOK_TYPE, { ctor: MethodHook, fields: {} })
}

export interface MethodOverload {
  /** CEL type names: receiver, arguments, result (e.g. 'string', 'list', 'int'). */
  readonly receiver: string
  readonly args: readonly string[]
  readonly result: string
  // The registry passes already type-checked CEL values, whose JS types the overload's own
  // signature states; a precise function type per overload would need a generic per entry.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly impl: (receiver: any, ...args: any[]) => unknown
}

interface ResolvedOverload {
  readonly receiver: CelType
  readonly args: readonly CelType[]
  readonly result: CelType
  readonly impl: MethodOverload['impl']
}

interface OverrideMacro extends MacroExpansion<OverrideMacro> {
  readonly name: string
  readonly call: CelAstNode
  readonly receiver: CelAstNode
  readonly args: readonly CelAstNode[]
  readonly overloads: readonly MethodOverload[]
  /** Overloads the static types allow; fixed at type-check time. */
  candidates: ResolvedOverload[]
  /** The one overload to call when the static types leave no choice. */
  direct: ResolvedOverload | undefined
}

/** Collects method overloads from several libraries, then installs one macro per name and arity. */
export class MethodOverrides {
  readonly #methods = new Map<string, MethodOverload[]>()

  add(name: string, overload: MethodOverload): this {
    const key = `${name}/${overload.args.length}`
    const list = this.#methods.get(key) ?? []
    list.push(overload)
    this.#methods.set(key, list)
    return this
  }

  install(env: Environment): void {
    for (const [key, overloads] of this.#methods) {
      const name = key.slice(0, key.lastIndexOf('/'))
      const arity = overloads[0]?.args.length ?? 0
      if (arity === 0) throw new Error(`cannot override ${name}(): cel-js macros need at least one argument`)
      const params = Array.from({ length: arity }, () => 'ast').join(', ')
      env.registerFunction(`${HOOK_TYPE}.${name}(${params}): dyn`, (call: MacroCall) => expand(name, overloads, call), { async: false })
    }
  }
}

function expand(name: string, overloads: readonly MethodOverload[], call: MacroCall): OverrideMacro {
  if (!call.receiver) throw new Error(`${name} override used without a receiver`)
  return {
    async: false,
    name,
    call: call.ast,
    receiver: call.receiver,
    args: call.args,
    overloads,
    candidates: [],
    direct: undefined,
    typeCheck,
    evaluate,
  }
}

function typeCheck(checker: CelChecker, macro: OverrideMacro, scope: CelScope): CelType {
  const receiverType = checker.check(macro.receiver, scope)
  const argTypes = macro.args.map((arg) => checker.check(arg, scope))
  const resolved = macro.overloads.map((o) => resolve(checker, o))
  macro.candidates = resolved.filter(
    (o) => receiverType.matches(o.receiver) && argTypes.every((type, i) => type.matches(o.args[i] as CelType)),
  )
  const first = macro.candidates[0]
  if (!first) {
    const shown = argTypes.map((t) => t.name).join(', ')
    throw checker.createError('no_matching_overload', `found no matching overload for '${receiverType.name}.${macro.name}(${shown})'`, macro.call)
  }
  const dynamic = receiverType.hasDynType || argTypes.some((t) => t.hasDynType)
  macro.direct = macro.candidates.length === 1 && !dynamic ? first : undefined
  const results = new Set(macro.candidates.map((o) => o.result.name))
  return results.size === 1 ? first.result : checker.getType('dyn')
}

function resolve(checker: CelChecker, overload: MethodOverload): ResolvedOverload {
  return {
    receiver: checker.getType(overload.receiver),
    args: overload.args.map((a) => checker.getType(a)),
    result: checker.getType(overload.result),
    impl: overload.impl,
  }
}

function evaluate(evaluator: CelEvaluator, macro: OverrideMacro, scope: CelScope): unknown {
  const receiver = evaluator.run(macro.receiver, scope)
  const args = macro.args.map((arg) => evaluator.run(arg, scope))
  const overload = macro.direct ?? pick(evaluator, macro, receiver, args)
  try {
    return overload.impl(receiver, ...args)
  } catch (error) {
    throw asEvaluationError(error, macro.call)
  }
}

function pick(evaluator: CelEvaluator, macro: OverrideMacro, receiver: unknown, args: readonly unknown[]): ResolvedOverload {
  for (const candidate of macro.candidates) {
    if (!candidate.receiver.matchesValueType(receiver, evaluator)) continue
    if (args.every((arg, i) => (candidate.args[i] as CelType).matchesValueType(arg, evaluator))) return candidate
  }
  const shown = [receiver, ...args].map((v) => typeName(evaluator, v))
  throw new EvaluationError(`found no matching overload for '${shown[0]}.${macro.name}(${shown.slice(1).join(', ')})'`, toCelJsNode(macro.call))
}

function typeName(evaluator: CelEvaluator, value: unknown): string {
  try {
    return evaluator.debugType(value).name
  } catch {
    return typeof value
  }
}

/** Gives a library error the position of the call; leaves the budget error untouched. */
export function asEvaluationError(error: unknown, node: CelAstNode): unknown {
  if (error instanceof CelBudgetExceededError) return error
  if (error instanceof EvaluationError) return error.withAst(toCelJsNode(node))
  const message = error instanceof Error ? error.message : String(error)
  return new EvaluationError(message, toCelJsNode(node), error)
}
