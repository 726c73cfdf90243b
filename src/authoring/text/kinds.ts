/**
 * The Kubernetes kinds instructions name, with the words authors use for them. Plurals and
 * common short forms map to the canonical kind.
 */
export const KIND_WORDS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    pod: 'Pod',
    pods: 'Pod',
    deployment: 'Deployment',
    deployments: 'Deployment',
    deploy: 'Deployment',
    deploys: 'Deployment',
    statefulset: 'StatefulSet',
    statefulsets: 'StatefulSet',
    sts: 'StatefulSet',
    daemonset: 'DaemonSet',
    daemonsets: 'DaemonSet',
    ds: 'DaemonSet',
    replicaset: 'ReplicaSet',
    replicasets: 'ReplicaSet',
    job: 'Job',
    jobs: 'Job',
    cronjob: 'CronJob',
    cronjobs: 'CronJob',
    service: 'Service',
    services: 'Service',
    svc: 'Service',
    ingress: 'Ingress',
    ingresses: 'Ingress',
    hpa: 'HorizontalPodAutoscaler',
    hpas: 'HorizontalPodAutoscaler',
    horizontalpodautoscaler: 'HorizontalPodAutoscaler',
    horizontalpodautoscalers: 'HorizontalPodAutoscaler',
    autoscaler: 'HorizontalPodAutoscaler',
    autoscalers: 'HorizontalPodAutoscaler',
    pdb: 'PodDisruptionBudget',
    pdbs: 'PodDisruptionBudget',
    poddisruptionbudget: 'PodDisruptionBudget',
    poddisruptionbudgets: 'PodDisruptionBudget',
    namespace: 'Namespace',
    namespaces: 'Namespace',
    configmap: 'ConfigMap',
    configmaps: 'ConfigMap',
    secret: 'Secret',
    secrets: 'Secret',
    serviceaccount: 'ServiceAccount',
    serviceaccounts: 'ServiceAccount',
    networkpolicy: 'NetworkPolicy',
    networkpolicies: 'NetworkPolicy',
    netpol: 'NetworkPolicy',
    netpols: 'NetworkPolicy',
    persistentvolumeclaim: 'PersistentVolumeClaim',
    persistentvolumeclaims: 'PersistentVolumeClaim',
    pvc: 'PersistentVolumeClaim',
    pvcs: 'PersistentVolumeClaim',
    persistentvolume: 'PersistentVolume',
    persistentvolumes: 'PersistentVolume',
    storageclass: 'StorageClass',
    storageclasses: 'StorageClass',
    clusterrole: 'ClusterRole',
    clusterroles: 'ClusterRole',
    clusterrolebinding: 'ClusterRoleBinding',
    clusterrolebindings: 'ClusterRoleBinding',
    rolebinding: 'RoleBinding',
    rolebindings: 'RoleBinding',
    limitrange: 'LimitRange',
    limitranges: 'LimitRange',
    resourcequota: 'ResourceQuota',
    resourcequotas: 'ResourceQuota',
    priorityclass: 'PriorityClass',
    priorityclasses: 'PriorityClass',
    ingressclass: 'IngressClass',
    ingressclasses: 'IngressClass',
    replicationcontroller: 'ReplicationController',
    replicationcontrollers: 'ReplicationController',
    validatingwebhookconfiguration: 'ValidatingWebhookConfiguration',
    validatingwebhookconfigurations: 'ValidatingWebhookConfiguration',
    mutatingwebhookconfiguration: 'MutatingWebhookConfiguration',
    mutatingwebhookconfigurations: 'MutatingWebhookConfiguration',
  }),
)

/**
 * Names that only a label spells out (`resource: Role`, `resource: pv`): in running text "role" or
 * "sc" is as often an IAM role or an abbreviation as the kind.
 */
const LABEL_ONLY_KIND_WORDS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    role: 'Role',
    roles: 'Role',
    pv: 'PersistentVolume',
    pvs: 'PersistentVolume',
    sc: 'StorageClass',
    quota: 'ResourceQuota',
    quotas: 'ResourceQuota',
    limits: 'LimitRange',
    rc: 'ReplicationController',
    ns: 'Namespace',
    cm: 'ConfigMap',
    sa: 'ServiceAccount',
    ing: 'Ingress',
  }),
)

/**
 * Two-word names ("stateful set", "cron job"), joined before KIND_WORDS is consulted. "storage
 * class", "priority class" and "ingress class" are left out: in a sentence they are the field a
 * PVC, Pod or Ingress names (`storageClassName`), far more often than the kind.
 */
export const KIND_PHRASES: ReadonlyArray<[RegExp, string]> = [
  [/\bstateful ?sets?\b/, 'StatefulSet'],
  [/\bdaemon ?sets?\b/, 'DaemonSet'],
  [/\breplica ?sets?\b/, 'ReplicaSet'],
  [/\bcron ?jobs?\b/, 'CronJob'],
  [/\bhorizontal pod autoscalers?\b/, 'HorizontalPodAutoscaler'],
  [/\bpod disruption budgets?\b/, 'PodDisruptionBudget'],
  [/\bconfig ?maps?\b/, 'ConfigMap'],
  [/\bservice ?accounts?\b/, 'ServiceAccount'],
  [/\bnetwork ?polic(?:y|ies)\b/, 'NetworkPolicy'],
  [/\bpersistent ?volume ?claims?\b/, 'PersistentVolumeClaim'],
  [/\bpersistent ?volumes?\b/, 'PersistentVolume'],
  [/\bcluster ?role ?bindings?\b/, 'ClusterRoleBinding'],
  [/\brole ?bindings?\b/, 'RoleBinding'],
  [/\bcluster ?roles?\b/, 'ClusterRole'],
  [/\blimit ?ranges?\b/, 'LimitRange'],
  [/\bresource ?quotas?\b/, 'ResourceQuota'],
  [/\breplication ?controllers?\b/, 'ReplicationController'],
  [/\bvalidating ?webhook ?configurations?\b/, 'ValidatingWebhookConfiguration'],
  [/\bmutating ?webhook ?configurations?\b/, 'MutatingWebhookConfiguration'],
]

/** Kinds whose pod template a Pod rule also judges (the engine's autogen). */
export const POD_CONTROLLERS: readonly string[] = ['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job', 'CronJob']

/** Canonical kind for a label value or word ("deployments", "Deployment", "apps/Deployment"). */
export function canonicalKind(word: string): string | undefined {
  return KIND_WORDS.get(bareKindWord(word))
}

/** The kind a `resource` label names: also the short names ("pv", "role", "sa") that in running text are other words. */
export function kindFromLabel(value: string): string | undefined {
  const bare = bareKindWord(value)
  return KIND_WORDS.get(bare) ?? LABEL_ONLY_KIND_WORDS.get(bare)
}

/** "apps/Deployment", "Stateful Sets", "cron_job": lower case, without group, spaces or separators. */
function bareKindWord(word: string): string {
  return word.trim().split('/').pop()?.toLowerCase().replace(/[\s_-]/g, '') ?? ''
}

/** Whether a rule written for `templateKinds` judges documents of `kind`. */
export function judgesKind(templateKinds: readonly string[], kind: string): boolean {
  if (templateKinds.includes('*') || templateKinds.includes(kind)) return true
  return templateKinds.includes('Pod') && POD_CONTROLLERS.includes(kind)
}
