import { EvaluationError, Optional, type Environment } from '@marcbachmann/cel-js'
import {
  toCelJsNode,
  type CelAstNode,
  type CelChecker,
  type CelEvaluator,
  type CelScope,
  type CelType,
  type MacroCall,
  type MacroExpansion,
} from '../macro-api.js'
import { HOOK_TYPE } from '../method-override.js'

/**
 * `x.orValue(default)` and `x.or(other)` as Kubernetes and Kyverno evaluate them: cel-go before
 * v0.28 (February 2026) returned `x` itself when `x` is not an optional, and real policies rely on
 * it (`container.volumeMounts.orValue([])` where `volumeMounts` is a plain list: a `?.` forgotten
 * in the Kyverno library, whose tests expect pass/fail, not an error). cel-js, like cel-go since,
 * raises "receiver must be optional", so both macros are taken over (see method-override.ts).
 * On an optional they behave as usual, and the right-hand side is evaluated only when needed.
 */

type Kind = 'orValue' | 'or'

interface OptionalMacro extends MacroExpansion<OptionalMacro> {
  readonly kind: Kind
  readonly call: CelAstNode
  readonly receiver: CelAstNode
  readonly alternative: CelAstNode
}

export function registerOptionalsLibrary(env: Environment): void {
  for (const kind of ['orValue', 'or'] as const) {
    env.registerFunction(`${HOOK_TYPE}.${kind}(ast): dyn`, (call: MacroCall) => expand(kind, call), { async: false })
  }
}

function expand(kind: Kind, call: MacroCall): OptionalMacro {
  if (!call.receiver) throw new Error(`${kind} override used without a receiver`)
  return { async: false, kind, call: call.ast, receiver: call.receiver, alternative: call.args[0] as CelAstNode, typeCheck, evaluate }
}

function typeCheck(checker: CelChecker, macro: OptionalMacro, scope: CelScope): CelType {
  const receiver = checker.check(macro.receiver, scope)
  const alternative = checker.check(macro.alternative, scope)
  const dyn = checker.getType('dyn')
  if (receiver.kind !== 'optional' && receiver.kind !== 'dyn') {
    throw checker.createError('optional_expected', `${macro.kind}() receiver must be optional, got '${receiver.name}'`, macro.receiver)
  }
  if (macro.kind === 'or') {
    if (alternative.kind !== 'optional' && alternative.kind !== 'dyn') {
      throw checker.createError('optional_expected', `or() argument must be optional, got '${alternative.name}'`, macro.alternative)
    }
    return receiver.kind === 'optional' ? (receiver.unify(checker.registry, alternative) ?? dyn) : dyn
  }
  if (receiver.kind !== 'optional') return dyn
  return (receiver.valueType ?? dyn).unify(checker.registry, alternative) ?? dyn
}

function evaluate(evaluator: CelEvaluator, macro: OptionalMacro, scope: CelScope): unknown {
  const value = evaluator.run(macro.receiver, scope)
  if (!(value instanceof Optional)) return value
  if (value.hasValue()) return macro.kind === 'orValue' ? value.value() : value
  const alternative = evaluator.run(macro.alternative, scope)
  if (macro.kind === 'or' && !(alternative instanceof Optional)) {
    throw new EvaluationError('or() argument must be optional', toCelJsNode(macro.alternative))
  }
  return alternative
}
