import type { GroupVersionKind } from '../match/kind-selector.js'

/** The controllers whose pod template a Pod rule also checks, with the API group each lives in. */
export const POD_CONTROLLER_GROUPS: Readonly<Record<string, string>> = {
  Deployment: 'apps',
  ReplicaSet: 'apps',
  StatefulSet: 'apps',
  DaemonSet: 'apps',
  Job: 'batch',
  ReplicationController: '',
  CronJob: 'batch',
}

export const DEFAULT_POD_CONTROLLERS: readonly string[] = Object.keys(POD_CONTROLLER_GROUPS)

export function isPodController(gvk: GroupVersionKind, controllers: ReadonlySet<string>): boolean {
  return controllers.has(gvk.kind) && POD_CONTROLLER_GROUPS[gvk.kind] === gvk.group
}

/** Where the pod template sits inside a controller. */
export function podTemplateOf(controller: Record<string, unknown>): Record<string, unknown> | undefined {
  const spec = asRecord(controller.spec)
  if (!spec) return undefined
  if (controller.kind === 'CronJob') return asRecord(asRecord(asRecord(spec.jobTemplate)?.spec)?.template)
  return asRecord(spec.template)
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
}
