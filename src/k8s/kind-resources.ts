/**
 * Admission webhooks register resources (plural, lowercase, per API group); policies name kinds.
 * This table maps the built-in kinds; other kinds are taken to be custom resources whose plural
 * follows the usual English rules, in whatever group the kind entry names (any group if none).
 */

export interface GroupResource {
  group: string
  resource: string
}

interface BuiltIn extends GroupResource {
  kind: string
}

const BUILT_INS: readonly BuiltIn[] = [
  ...core([
    ['Pod', 'pods'],
    ['Service', 'services'],
    ['ConfigMap', 'configmaps'],
    ['Secret', 'secrets'],
    ['Namespace', 'namespaces'],
    ['ServiceAccount', 'serviceaccounts'],
    ['PersistentVolume', 'persistentvolumes'],
    ['PersistentVolumeClaim', 'persistentvolumeclaims'],
    ['ReplicationController', 'replicationcontrollers'],
    ['PodTemplate', 'podtemplates'],
    ['LimitRange', 'limitranges'],
    ['ResourceQuota', 'resourcequotas'],
    ['Endpoints', 'endpoints'],
    ['Node', 'nodes'],
    ['Event', 'events'],
  ]),
  ...group('apps', [
    ['Deployment', 'deployments'],
    ['StatefulSet', 'statefulsets'],
    ['DaemonSet', 'daemonsets'],
    ['ReplicaSet', 'replicasets'],
    ['ControllerRevision', 'controllerrevisions'],
  ]),
  ...group('batch', [
    ['Job', 'jobs'],
    ['CronJob', 'cronjobs'],
  ]),
  ...group('networking.k8s.io', [
    ['Ingress', 'ingresses'],
    ['IngressClass', 'ingressclasses'],
    ['NetworkPolicy', 'networkpolicies'],
  ]),
  ...group('policy', [['PodDisruptionBudget', 'poddisruptionbudgets']]),
  ...group('autoscaling', [['HorizontalPodAutoscaler', 'horizontalpodautoscalers']]),
  ...group('rbac.authorization.k8s.io', [
    ['Role', 'roles'],
    ['RoleBinding', 'rolebindings'],
    ['ClusterRole', 'clusterroles'],
    ['ClusterRoleBinding', 'clusterrolebindings'],
  ]),
  ...group('storage.k8s.io', [
    ['StorageClass', 'storageclasses'],
    ['CSIDriver', 'csidrivers'],
    ['VolumeAttachment', 'volumeattachments'],
  ]),
  ...group('scheduling.k8s.io', [['PriorityClass', 'priorityclasses']]),
  ...group('discovery.k8s.io', [['EndpointSlice', 'endpointslices']]),
  ...group('apiextensions.k8s.io', [['CustomResourceDefinition', 'customresourcedefinitions']]),
  ...group('admissionregistration.k8s.io', [
    ['ValidatingWebhookConfiguration', 'validatingwebhookconfigurations'],
    ['MutatingWebhookConfiguration', 'mutatingwebhookconfigurations'],
    ['ValidatingAdmissionPolicy', 'validatingadmissionpolicies'],
    ['ValidatingAdmissionPolicyBinding', 'validatingadmissionpolicybindings'],
  ]),
  ...group('certificates.k8s.io', [['CertificateSigningRequest', 'certificatesigningrequests']]),
  ...group('coordination.k8s.io', [['Lease', 'leases']]),
  ...group('events.k8s.io', [['Event', 'events']]),
]

/**
 * The controllers whose pod templates a Pod rule also judges (autogen), as the engine's
 * src/engine/autogen/pod-controllers.ts lists them: the webhook must see them too.
 */
export const POD_CONTROLLERS: readonly string[] = ['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job', 'ReplicationController', 'CronJob']

/**
 * Never sent to the webhook, whatever a policy says: leader election and event recording write
 * these constantly, and a webhook that is down or slow must not stall them (Verdict's own Lease
 * included).
 */
export function isNeverAdmitted(resource: GroupResource): boolean {
  return resource.resource === 'leases' || resource.resource === 'events'
}

/** The built-in resources of a kind: one for most, several for a kind that lives in several groups. */
export function builtInResources(kind: string, group?: string): GroupResource[] {
  return BUILT_INS.filter((entry) => entry.kind === kind && (group === undefined || entry.group === group)).map(({ group: g, resource }) => ({ group: g, resource }))
}

/** Every built-in resource of a group, or of every group. */
export function builtInResourcesOfGroup(group?: string): GroupResource[] {
  return BUILT_INS.filter((entry) => group === undefined || entry.group === group).map(({ group: g, resource }) => ({ group: g, resource }))
}

export function isBuiltInGroup(group: string): boolean {
  return BUILT_INS.some((entry) => entry.group === group)
}

/** The plural a CRD of this kind most likely registers: lower case, English plural rules. */
export function pluralOf(kind: string): string {
  const lower = kind.toLowerCase()
  if (/(s|x|z|ch|sh)$/.test(lower)) return `${lower}es`
  if (/[^aeiou]y$/.test(lower)) return `${lower.slice(0, -1)}ies`
  return `${lower}s`
}

function core(entries: [string, string][]): BuiltIn[] {
  return group('', entries)
}

function group(name: string, entries: [string, string][]): BuiltIn[] {
  return entries.map(([kind, resource]) => ({ kind, group: name, resource }))
}
