import type { CelValidation } from '../engine/model/rule.js'
import { deriveRemediation } from '../remediation/derive-remediation.js'

/**
 * Kyverno and ValidatingAdmissionPolicy documents have no remediation field, yet results should
 * say what to change: every imported rule gets one derived from its message, else its
 * validations' messages, else the policy's description, else its expressions.
 */
export function importedRemediation(message: string | undefined, validations: readonly CelValidation[], description: string | undefined): string {
  return deriveRemediation({
    ...(message === undefined ? {} : { message }),
    celMessages: validations.map((validation) => validation.message),
    ...(description === undefined ? {} : { description }),
    expressions: validations.map((validation) => validation.expression),
  })
}
