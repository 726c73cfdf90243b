import { describeDepthExcess, findDepthExcess, PreparedInput, type ClusterData, type Exemptions } from '../engine/index.js'
import type { ViolationEvents } from '../events/violation.js'
import { admissionAuditRows } from './admission-audit-rows.js'
import type { AdmissionLogger } from './admission-logger.js'
import type { AdmissionPolicy } from './admission-policies.js'
import { admissionResponse, allowedResponse } from './admission-response.js'
import type { AdmissionRequest, AdmissionReviewResponse } from './admission-review.js'
import type { BoundedAuditRecorder } from './bounded-audit-recorder.js'
import { decideAdmission } from './decide-admission.js'
import { denialViolations } from './denial-events.js'
import { evaluationInputOf, subjectOf } from './evaluation-input-of.js'
import { judgeRequest, type PolicyJudgement } from './judge-request.js'
import type { NamespaceSource } from './namespace-source.js'
import { parseAdmissionReview } from './parse-admission-review.js'
import { shouldSkipRequest, type SkipSettings } from './should-skip-request.js'
import type { VapDelegation } from './vap-delegation.js'

export interface ReviewHandlerDeps {
  policies: { current(): readonly AdmissionPolicy[] }
  namespaces: NamespaceSource
  /** ConfigMaps for context entries (the controller's cache); absent without a cluster. */
  cluster?: ClusterData
  audits: BoundedAuditRecorder
  skip: SkipSettings
  logger: AdmissionLogger
  /** The PolicyExceptions honoured and the clock they are judged at, asked for at each review; none when absent. */
  exemptions?: () => Exemptions
  /** Hears of each rule result an exception let through (metrics). */
  onExempted?: (exception: string) => void
  /** Where denials are recorded as Kubernetes Events (the controller's recorder); none without a cluster or with VERDICT_EVENTS=off. */
  events?: ViolationEvents
  /** The rules generated ValidatingAdmissionPolicies in force judge in the API server; none without a cluster or with VERDICT_GENERATED_VAPS=off. */
  delegation?: VapDelegation
}

/** `{error, details}`, as every error of the REST API; `details` names the field at fault. */
export interface ReviewErrorBody {
  error: string
  details: string
}

/** What one review came to, for the HTTP answer and for metrics. */
export type HandledReview =
  | { status: 200; body: AdmissionReviewResponse; outcome: ReviewOutcome }
  | { status: 400; body: ReviewErrorBody; outcome?: undefined }

export interface ReviewOutcome {
  uid: string
  /** CREATE, UPDATE, DELETE or CONNECT, as the review says. */
  operation: string
  allowed: boolean
  /** Why the request was allowed unjudged (shouldSkipRequest). */
  skipped?: string
  dryRun: boolean
  /** How many policies judged the request. */
  policies: number
}

/**
 * One AdmissionReview body in, the answer out: parse, skip or judge, decide, audit (bounded, not
 * for dry runs), shape. Transport-free, so the HTTPS listener stays a thin adapter.
 */
export async function handleAdmissionReview(body: string, deps: ReviewHandlerDeps): Promise<HandledReview> {
  const parsed = parseAdmissionReview(body)
  if (parsed.malformed) return { status: 400, body: { error: 'malformed AdmissionReview', details: parsed.malformed.details } }
  const request = parsed.review.request
  const dryRun = request.dryRun === true
  const skipped = shouldSkipRequest(request, deps.skip)
  if (skipped) {
    deps.logger.debug({ requestId: request.uid, reason: skipped }, 'admission request allowed without judging it')
    return { status: 200, body: allowedResponse(request.uid), outcome: { uid: request.uid, operation: request.operation, allowed: true, skipped, dryRun, policies: 0 } }
  }
  const tooDeep = nestingProblem(request)
  if (tooDeep) {
    // Nothing can judge it. As for a rule error: a Deny policy that fails closed denies (allowing what was not judged
    // would let nesting slip past it); otherwise the request goes through with the reason as a warning.
    const message = `Verdict cannot judge this request: ${tooDeep}`
    const allowed = !deps.policies.current().some(({ policy }) => policy.action === 'Deny' && policy.failurePolicy !== 'Ignore')
    deps.logger.info({ requestId: request.uid, resource: describeResource(request), user: userOf(request), dryRun, reason: tooDeep }, allowed ? 'admission request allowed unjudged' : 'admission request denied')
    const decision = allowed ? { allowed, warnings: [message], auditAnnotations: {} } : { allowed, message, warnings: [], auditAnnotations: {} }
    return { status: 200, body: admissionResponse(request.uid, decision), outcome: { uid: request.uid, operation: request.operation, allowed, dryRun, policies: 0 } }
  }
  const input = new PreparedInput(evaluationInputOf(request, deps.namespaces, deps.cluster))
  const exemptions = deps.exemptions?.()
  const judgements = judgeRequest(deps.policies.current(), input, request.operation, exemptions, deps.delegation?.forRequest(request, exemptions))
  if (deps.onExempted) for (const exception of exemptionsIn(judgements)) deps.onExempted(exception)
  const decision = decideAdmission(judgements)
  if (judgements.length > 0 && !dryRun) {
    const stamp = { requestId: request.uid, input: JSON.stringify(subjectOf(request)), updatedBy: userOf(request) }
    await deps.audits.record(admissionAuditRows(judgements, stamp), request.uid)
  }
  if (!decision.allowed) {
    deps.logger.info({ requestId: request.uid, resource: describeResource(request), user: userOf(request), dryRun, reason: decision.message }, 'admission request denied')
    // A dry run changes nothing, and leaves no Event either.
    if (deps.events && !dryRun) recordDenial(request, judgements, deps.events, deps.logger)
  }
  return {
    status: 200,
    body: admissionResponse(request.uid, decision),
    outcome: { uid: request.uid, operation: request.operation, allowed: decision.allowed, dryRun, policies: judgements.length },
  }
}

/** Queues the denial's Events; the answer never waits for them, and a failure here must not turn a denial into an error. */
function recordDenial(request: AdmissionRequest, judgements: readonly PolicyJudgement[], events: ViolationEvents, logger: AdmissionLogger): void {
  try {
    for (const violation of denialViolations(request, judgements, events)) events.record(violation)
  } catch (error) {
    logger.warn({ err: error, requestId: request.uid }, 'recording the Events of a denial failed')
  }
}

function nestingProblem(request: AdmissionRequest): string | undefined {
  for (const [field, value] of [['request.object', request.object], ['request.oldObject', request.oldObject]] as const) {
    const excess = findDepthExcess(value)
    if (excess) return describeDepthExcess(field, excess)
  }
  return undefined
}

/** The API server always names the user; a hand-made review may not, and the audit column needs someone. */
function userOf(request: AdmissionRequest): string {
  return request.userInfo?.username || 'unknown'
}

function describeResource(request: AdmissionRequest): string {
  const where = request.namespace ? `${request.namespace}/` : ''
  const sub = request.subResource ? `/${request.subResource}` : ''
  return `${request.operation} ${request.kind.kind} ${where}${request.name ?? ''}${sub}`
}

/** The exception of every rule result one let through, once per policy that applied it. */
function exemptionsIn(judgements: readonly PolicyJudgement[]): string[] {
  return judgements.flatMap((judgement) => judgement.output.results.flatMap((result) => (result.exception === undefined ? [] : [result.exception])))
}
