import type { ObjectReference, Violation, ViolationEvents } from '../events/violation.js'
import type { AdmissionRequest } from './admission-review.js'
import { countsAsFailure } from './decide-admission.js'
import { describeFailure, rulePath } from './describe-failure.js'
import { subjectOf } from './evaluation-input-of.js'
import type { PolicyJudgement } from './judge-request.js'

/** Subresources whose requests carry the object itself (a Pod), not an object of their own (a Scale, an Eviction). */
const OBJECT_SUBRESOURCES = new Set(['ephemeralcontainers', 'resize'])

/**
 * The violations of a denied request, one per failed rule of a Deny policy, for Kubernetes Events:
 * - an object that exists (UPDATE, DELETE) gets them itself, the Policy resource as `related`
 *   when the policy was made from one;
 * - an object a denied CREATE never stored (or a subresource of its own kind) cannot be described,
 *   so they go on the Policy resource, naming the object in the note and as `related`;
 * - a policy made through the REST API has no resource: they name the object without a uid, in its
 *   namespace, where `kubectl get events -n <namespace>` finds them (`default` for a
 *   cluster-scoped one), unless the request names no object at all.
 */
export function denialViolations(request: AdmissionRequest, judgements: readonly PolicyJudgement[], events: Pick<ViolationEvents, 'policyResource'>): Violation[] {
  const object = objectOf(request)
  const violations: Violation[] = []
  for (const judgement of judgements) {
    if (judgement.action !== 'Deny') continue
    const policyResource = events.policyResource(judgement.policy)
    for (const result of judgement.output.results) {
      if (!countsAsFailure(result, judgement.ignoreErrors)) continue
      const rule = rulePath(judgement.policy, result)
      const failure = describeFailure(judgement.policy, result)
      if (object.exists) {
        violations.push({ action: 'Admission', regarding: object.reference, ...(policyResource ? { related: policyResource } : {}), rule, note: `denied ${request.operation}: ${failure}` })
        continue
      }
      const { uid: _never, ...named } = object.reference
      if (policyResource) {
        const related = named.name === '' ? {} : { related: named }
        violations.push({ action: 'Admission', regarding: policyResource, ...related, rule, note: `denied ${request.operation} of ${describeObject(named)}: ${failure}` })
      } else if (named.name !== '') {
        violations.push({ action: 'Admission', regarding: named, rule, note: `denied ${request.operation}: ${failure}` })
      }
    }
  }
  return violations
}

/** The request's object as a reference, and whether it exists to carry an Event of its own. */
function objectOf(request: AdmissionRequest): { reference: ObjectReference; exists: boolean } {
  const subject = subjectOf(request)
  const metadata = (typeof subject.metadata === 'object' && subject.metadata !== null ? subject.metadata : {}) as Record<string, unknown>
  const { group, version, kind } = request.kind
  const name = typeof metadata.name === 'string' && metadata.name !== '' ? metadata.name : (request.name ?? '')
  // A Namespace request carries the namespace's own name as its namespace; the object is cluster-scoped.
  const namespace = kind === 'Namespace' && group === '' ? '' : request.namespace || (typeof metadata.namespace === 'string' ? metadata.namespace : '')
  const uid = typeof metadata.uid === 'string' ? metadata.uid : ''
  const reference: ObjectReference = { apiVersion: group === '' ? version : `${group}/${version}`, kind, name, ...(namespace ? { namespace } : {}), ...(uid ? { uid } : {}) }
  const ownObject = request.subResource === undefined || request.subResource === '' || OBJECT_SUBRESOURCES.has(request.subResource)
  return { reference, exists: request.operation !== 'CREATE' && ownObject && uid !== '' && name !== '' }
}

function describeObject(reference: ObjectReference): string {
  const where = reference.namespace ? `${reference.namespace}/` : ''
  return `${reference.kind} ${where}${reference.name || '(unnamed)'}`
}
