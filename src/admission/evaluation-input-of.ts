import type { ClusterData, EvaluationInput, EvaluationRequest } from '../engine/index.js'
import type { AdmissionRequest } from './admission-review.js'
import type { NamespaceSource } from './namespace-source.js'

/**
 * What the engine judges for an admission request. DELETE carries the resource only as
 * `oldObject`; it is judged as `object` too, so rules written about a resource read it the same
 * way whatever the operation (`oldObject` stays set for rules that look for it). `cluster` (the
 * controller's ConfigMap cache) serves `configMap` context entries; without a cluster it stays unset.
 */
export function evaluationInputOf(request: AdmissionRequest, namespaces: NamespaceSource, cluster?: ClusterData): EvaluationInput {
  const subject = subjectOf(request)
  const input: EvaluationInput = { object: withRequestIdentity(subject, request), request: celRequestOf(request) }
  if (request.oldObject) input.oldObject = request.oldObject
  const namespaceObject = namespaceObjectOf(request, namespaces)
  if (namespaceObject) input.namespaceObject = namespaceObject
  if (cluster) input.cluster = cluster
  return input
}

/** The resource a request is about: the object, or for DELETE the object being deleted. */
export function subjectOf(request: AdmissionRequest): Record<string, unknown> {
  return (request.operation === 'DELETE' ? request.oldObject : request.object) ?? {}
}

function celRequestOf(request: AdmissionRequest): EvaluationRequest {
  const celRequest: EvaluationRequest = { uid: request.uid, operation: request.operation, dryRun: request.dryRun ?? false }
  if (request.userInfo) celRequest.userInfo = request.userInfo
  if (request.namespace !== undefined) celRequest.namespace = request.namespace
  if (request.name !== undefined) celRequest.name = request.name
  if (request.subResource !== undefined) celRequest.subResource = request.subResource
  return celRequest
}

/**
 * Matching reads kind and namespace from the object itself. The API server fills both in before
 * validating webhooks run, but an object created without `metadata.namespace` has been seen to
 * arrive without it, and such a Pod must still meet the namespace's policies: the request's
 * identity fills the gaps (copies; the request's object stays as sent for the audit).
 */
function withRequestIdentity(subject: Record<string, unknown>, request: AdmissionRequest): Record<string, unknown> {
  const missingKind = typeof subject.kind !== 'string' || typeof subject.apiVersion !== 'string'
  const metadata = isObject(subject.metadata) ? subject.metadata : undefined
  const missingNamespace = Boolean(request.namespace) && !isNamespaceRequest(request) && !metadata?.namespace
  if (!missingKind && !missingNamespace) return subject
  const filled: Record<string, unknown> = { ...subject }
  if (missingKind) {
    const { group, version, kind } = request.kind
    filled.apiVersion = group ? `${group}/${version}` : version
    filled.kind = kind
  }
  if (missingNamespace) filled.metadata = { ...metadata, namespace: request.namespace }
  return filled
}

/** Namespaced resources only: for a Namespace, `request.namespace` is its own name, not a parent. */
function namespaceObjectOf(request: AdmissionRequest, namespaces: NamespaceSource): Record<string, unknown> | undefined {
  if (!request.namespace || isNamespaceRequest(request)) return undefined
  return namespaces.get(request.namespace)
}

function isNamespaceRequest(request: AdmissionRequest): boolean {
  return request.kind.group === '' && request.kind.kind === 'Namespace'
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
