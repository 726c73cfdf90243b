import { compileWithPodSecurityExcludes } from '../compile/compile-ruleset.js'
import type { CompileProblem } from '../compile/compile-problem.js'
import type { CompiledRule } from '../compile/compiled-ruleset.js'
import { evaluateRule } from '../evaluate/evaluate-rule.js'
import type { PreparedInput } from '../evaluate/prepared-input.js'
import type { RuleResult } from '../results/rule-result.js'
import type { CompiledException } from './compile-exception.js'

/**
 * What exceptions with `podSecurity` make of a failed result of a `validate.podSecurity` rule, as
 * Kyverno does (pkg/engine/handlers/validation/validate_pss.go): the rule is judged again with the
 * entries of every such exception (in name order) after its own excludes. When it then passes, the
 * result is a skip naming the exceptions (`exception` the first); when it still fails, the failure
 * is the one judged with them, as Kyverno reports what is left. Undefined when they change nothing:
 * the rule is not a podSecurity rule (exceptions with podSecurity do nothing for other rules), or
 * their entries cannot be added to its excludes (one Kyverno would refuse at the rule's level, an
 * order Verdict cannot judge as Kyverno does), which leaves the rule judged as without them.
 */
export function podSecurityExemption(outcome: RuleResult, rule: CompiledRule, exceptions: readonly CompiledException[], input: PreparedInput): RuleResult | undefined {
  if (outcome.status !== 'fail' || !rule.podSecurity || exceptions.length === 0) return undefined
  const variant = variantOf(rule, exceptions)
  if (Array.isArray(variant)) return undefined
  const judged = evaluateRule(variant, input)
  if (judged.status === 'fail') return judged
  if (judged.status !== 'pass') return undefined
  const names = exceptions.map((exception) => exception.name)
  const result: RuleResult = {
    ruleset: outcome.ruleset,
    rule: outcome.rule,
    status: 'skip',
    severity: outcome.severity,
    message: `Pod Security controls exempted by ${names.length === 1 ? 'exception' : 'exceptions'} ${names.map((name) => `"${name}"`).join(', ')}`,
    exception: names[0] ?? '',
  }
  if (outcome.autogen !== undefined) result.autogen = outcome.autogen
  return result
}

/** Per rule, its compilations with each list of added excludes: compiled once, not per request. */
const variants = new WeakMap<CompiledRule, Map<string, CompiledRule | CompileProblem[]>>()

function variantOf(rule: CompiledRule, exceptions: readonly CompiledException[]): CompiledRule | CompileProblem[] {
  let known = variants.get(rule)
  if (!known) {
    known = new Map()
    variants.set(rule, known)
  }
  const excludes = exceptions.flatMap((exception) => exception.podSecurity ?? [])
  const key = JSON.stringify(excludes)
  let variant = known.get(key)
  if (!variant) {
    variant = compileWithPodSecurityExcludes(rule, excludes)
    known.set(key, variant)
  }
  return variant
}
