import type { KubernetesObject } from '@kubernetes/client-node'
import { createHash } from 'node:crypto'
import { ANNOTATIONS } from '../export/vap/index.js'

/** The two kinds the controller keeps for a policy with generateValidatingAdmissionPolicy. */
export interface GeneratedKind {
  readonly kind: 'ValidatingAdmissionPolicy' | 'ValidatingAdmissionPolicyBinding'
  readonly plural: string
  /** The collection's REST path. */
  readonly path: string
}

const ADMISSION = '/apis/admissionregistration.k8s.io/v1'

export const VAPS: GeneratedKind = { kind: 'ValidatingAdmissionPolicy', plural: 'validatingadmissionpolicies', path: `${ADMISSION}/validatingadmissionpolicies` }
export const BINDINGS: GeneratedKind = { kind: 'ValidatingAdmissionPolicyBinding', plural: 'validatingadmissionpolicybindings', path: `${ADMISSION}/validatingadmissionpolicybindings` }

export const MANAGED_BY_LABEL = 'app.kubernetes.io/managed-by'
export const MANAGED_BY = 'verdict'
/** The Verdict policy, as a label value (kubectl get vap -l verdict.dev/policy=NAME); the annotation of the same key holds the whole name. */
export const POLICY_LABEL = ANNOTATIONS.policy
/** What the informers watch: Verdict's generated objects, and nothing else of these kinds. */
export const GENERATED_SELECTOR = `${MANAGED_BY_LABEL}=${MANAGED_BY},${POLICY_LABEL}`

/** A generated policy or binding as the API server returns it (raw JSON). */
export interface GeneratedObject extends KubernetesObject {
  spec?: unknown
  status?: unknown
}

const LABEL_VALUE_MAX = 63

/**
 * A policy name as a label value: itself when it fits (63 characters), else its first part and a
 * hash of the whole, so two long names never share a value.
 */
export function policyLabelValue(policy: string): string {
  if (policy.length <= LABEL_VALUE_MAX) return policy
  const hash = createHash('sha256').update(policy).digest('hex').slice(0, 10)
  return `${policy.slice(0, LABEL_VALUE_MAX - 11).replace(/[-.]+$/, '')}-${hash}`
}

/** The Verdict policy a generated object was made from: its annotation, else (edited away) its label. */
export function generatedFrom(object: GeneratedObject): string | undefined {
  return object.metadata?.annotations?.[ANNOTATIONS.policy] ?? object.metadata?.labels?.[POLICY_LABEL]
}

/** Whether the API server has type-checked the policy's current generation (kube-controller-manager writes status.observedGeneration). */
export function typeChecked(object: GeneratedObject): boolean {
  const observed = (object.status as { observedGeneration?: unknown } | undefined)?.observedGeneration
  return typeof observed === 'number' && observed === object.metadata?.generation
}
