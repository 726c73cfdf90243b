import { ADMISSION_API_VERSION, ADMISSION_KIND, type AdmissionResponse, type AdmissionReviewResponse } from './admission-review.js'
import type { AdmissionDecision } from './decide-admission.js'

/** The AdmissionReview sent back: the request's uid, the decision, and only the fields that say something. */
export function admissionResponse(uid: string, decision: AdmissionDecision): AdmissionReviewResponse {
  const response: AdmissionResponse = { uid, allowed: decision.allowed }
  // 403 makes kubectl print "Error from server (Forbidden)", as for an RBAC refusal.
  if (!decision.allowed) response.status = { code: 403, message: decision.message ?? 'denied by Verdict' }
  if (decision.warnings.length > 0) response.warnings = decision.warnings
  if (Object.keys(decision.auditAnnotations).length > 0) response.auditAnnotations = decision.auditAnnotations
  return { apiVersion: ADMISSION_API_VERSION, kind: ADMISSION_KIND, response }
}

/** A request the webhook does not judge (see shouldSkipRequest) is allowed without comment. */
export function allowedResponse(uid: string): AdmissionReviewResponse {
  return { apiVersion: ADMISSION_API_VERSION, kind: ADMISSION_KIND, response: { uid, allowed: true } }
}
