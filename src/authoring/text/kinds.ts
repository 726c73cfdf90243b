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
  }),
)

/** Two-word names ("stateful set", "cron job"), joined before KIND_WORDS is consulted. */
export const KIND_PHRASES: ReadonlyArray<[RegExp, string]> = [
  [/\bstateful ?sets?\b/, 'StatefulSet'],
  [/\bdaemon ?sets?\b/, 'DaemonSet'],
  [/\breplica ?sets?\b/, 'ReplicaSet'],
  [/\bcron ?jobs?\b/, 'CronJob'],
  [/\bhorizontal pod autoscalers?\b/, 'HorizontalPodAutoscaler'],
  [/\bpod disruption budgets?\b/, 'PodDisruptionBudget'],
  [/\bconfig ?maps?\b/, 'ConfigMap'],
  [/\bservice ?accounts?\b/, 'ServiceAccount'],
]

/** Kinds whose pod template a Pod rule also judges (the engine's autogen). */
export const POD_CONTROLLERS: readonly string[] = ['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job', 'CronJob']

/** Canonical kind for a label value or word ("deployments", "Deployment", "apps/Deployment"). */
export function canonicalKind(word: string): string | undefined {
  const bare = word.trim().split('/').pop()?.toLowerCase().replace(/[\s_-]/g, '') ?? ''
  return KIND_WORDS.get(bare)
}

/** Whether a rule written for `templateKinds` judges documents of `kind`. */
export function judgesKind(templateKinds: readonly string[], kind: string): boolean {
  if (templateKinds.includes('*') || templateKinds.includes(kind)) return true
  return templateKinds.includes('Pod') && POD_CONTROLLERS.includes(kind)
}
