import { CONTAINERS_VARIABLE } from '../index.js'
import type { CelValidation, Validate, Variable } from '../../model/rule.js'
import { errorsVariable, exclusionVariables, matchingVariables, remainingErrorsVariable } from './exclusions.js'
import { failureMessage, failureMessageExpression } from './messages.js'
import { readPodSecuritySpec } from './pod-security-spec.js'
import { ACTUAL_POD, CONTAINER_ENTRIES_VARIABLE } from './pod-views.js'
import { checksOfLevel } from './psa-checks.js'

/**
 * A Kyverno `validate.podSecurity` block (`field` is where it is, for errors) as a Verdict rule's
 * `validate.cel` and `variables`, judging a Pod (or, under autogen, a pod template) as Kyverno
 * does: every check of Kubernetes' pod-security-admission library for the level (restricted
 * includes baseline) in the version asked for, then the excludes (see the files beside this one).
 * One validation per check, in the library's order, each failing with Kyverno's message naming
 * its control; the verdicts of checks no exclude touches come from the Pod Security controls the
 * authoring catalog uses too (engine/pod-security), read as written.
 *
 * Throws PodSecurityInvalid for a block Kyverno would refuse (an unknown level, a version that is
 * neither "latest" nor a published v1.x, an exclude its validation rejects), and PodSecurityUnsupported for
 * what cannot be judged exactly as Kyverno does (level privileged, some orders of excludes).
 */
export function podSecurityAsCel(podSecurity: unknown, field: string): { validate: Validate; variables?: Variable[] } {
  const spec = readPodSecuritySpec(podSecurity, field)
  const variables: Variable[] = [CONTAINERS_VARIABLE, CONTAINER_ENTRIES_VARIABLE, ...matchingVariables(spec.excludes)]
  const cel = checksOfLevel(spec.level).map((check): CelValidation => {
    const message = failureMessage(spec, check)
    const excludes = spec.excludes.filter((exclude) => exclude.control === check.control)
    const all = `variables.${errorsVariable(check)}`
    if (check.fieldErrors && excludes.length > 0) {
      variables.push(...exclusionVariables(check, excludes, spec.version, `${field}.exclude`))
      const remaining = `variables.${remainingErrorsVariable(check)}`
      return { expression: `size(${remaining}) == 0`, message, messageExpression: failureMessageExpression(spec, check, remaining, all) }
    }
    const validation: CelValidation = { expression: check.check(spec.version).expression, message }
    if (check.fieldErrors) {
      variables.push({ name: errorsVariable(check), expression: check.fieldErrors(ACTUAL_POD, spec.version) })
      validation.messageExpression = failureMessageExpression(spec, check, all, all)
    }
    return validation
  })
  return { validate: { cel }, variables }
}
