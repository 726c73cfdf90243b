import type { Requirement } from './requirement.js'

/** Kinds Kubernetes keeps outside namespaces (Namespace aside: its exemptions by namespace name its own name). */
const CLUSTER_SCOPED = new Set([
  'Node',
  'PersistentVolume',
  'StorageClass',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding',
  'PriorityClass',
  'IngressClass',
  'RuntimeClass',
  'CSIDriver',
  'CSINode',
  'VolumeAttachment',
  'APIService',
  'CertificateSigningRequest',
  'VolumeSnapshotClass',
])

/**
 * A condition or exemption on the namespace of objects that have none ("StorageClasses for other
 * provisioners are out of scope" read as the namespace `provisioners`): it never holds, so an
 * exemption exempts nothing and a condition scopes the rule to nothing. Returns the kind and
 * the words read as a namespace, or undefined.
 */
export function namespaceOfClusterScoped(requirement: Requirement): { kind: string; said: string } | undefined {
  if (requirement.subject.platform !== 'kubernetes') return undefined
  const kind = requirement.subject.kinds.find((name) => CLUSTER_SCOPED.has(name))
  if (kind === undefined || requirement.subject.kinds.some((name) => !CLUSTER_SCOPED.has(name))) return undefined
  const onNamespace = [...requirement.conditions, ...requirement.exemptions].find((scope) => scope.value.variants.some((variant) => variant.segments.join('.') === 'metadata.namespace'))
  return onNamespace ? { kind, said: onNamespace.text } : undefined
}
