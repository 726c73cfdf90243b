import type { Validate, Variable } from '../engine/model/rule.js'
import { PodSecurityInvalid, PodSecurityUnsupported } from '../engine/pod-security/kyverno/refusal.js'
import { podSecurityAsCel } from '../engine/pod-security/kyverno/translate.js'
import { ImportError, Unsupported } from './import-error.js'

/**
 * A Kyverno `validate.podSecurity` block (`field` is where it is, for errors) as the engine
 * judges it (engine/pod-security/kyverno): the Pod Security checks as CEL, with the variables they
 * read. Throws ImportError for a block Kyverno would refuse and Unsupported for one that cannot be
 * judged exactly as Kyverno does.
 */
export function importedPodSecurity(podSecurity: unknown, field: string): { validate: Validate; variables?: Variable[] } {
  try {
    return podSecurityAsCel(podSecurity, field)
  } catch (error) {
    if (error instanceof PodSecurityInvalid) throw new ImportError(error.field, error.problem)
    if (error instanceof PodSecurityUnsupported) throw new Unsupported(error.message)
    throw error
  }
}
