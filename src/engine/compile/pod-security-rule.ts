import type { PodSecurityExcludeEntry } from '../model/pod-security.js'
import type { Rule } from '../model/rule.js'
import { PodSecurityInvalid, PodSecurityUnsupported } from '../pod-security/kyverno/refusal.js'
import { podSecurityAsCel } from '../pod-security/kyverno/translate.js'
import type { CompileProblem } from './compile-problem.js'

/**
 * A `validate.podSecurity` rule as the CEL rule that judges it (engine/pod-security/kyverno), with
 * `extraExcludes` after the rule's own (what a PolicyException's `podSecurity` adds), or the
 * problem naming the field Kyverno would refuse or Verdict cannot judge as Kyverno does. The
 * translation's variables come first: the rule's own may read them.
 */
export function podSecurityRuleAsCel(rule: Rule, path: string, extraExcludes: readonly PodSecurityExcludeEntry[] = []): Rule | CompileProblem {
  const podSecurity = rule.validate.podSecurity
  if (podSecurity === undefined) return rule
  const field = `${path}.validate.podSecurity`
  const spec = extraExcludes.length === 0 ? podSecurity : { ...podSecurity, exclude: [...(podSecurity.exclude ?? []), ...extraExcludes] }
  try {
    const { validate, variables } = podSecurityAsCel(spec, field)
    return { ...rule, validate, variables: [...(variables ?? []), ...(rule.variables ?? [])] }
  } catch (error) {
    if (error instanceof PodSecurityInvalid) return { rule: rule.name, path: error.field, message: error.problem }
    if (error instanceof PodSecurityUnsupported) return { rule: rule.name, path: field, message: error.message }
    throw error
  }
}

export function isCompileProblem(value: Rule | CompileProblem): value is CompileProblem {
  return 'path' in value
}
