import type { KubeConfig } from '@kubernetes/client-node'
import type { GeneratedVapView } from '../admission/generated-vap-view.js'
import type { NamespaceSource } from '../admission/namespace-source.js'
import type { Config } from '../config.js'
import type { ClusterData } from '../engine/index.js'
import type { EventRecorderSettings, EventReport } from '../events/event-recorder.js'
import type { ViolationEvents } from '../events/violation.js'
import type { DefinitionCatalog } from '../services/definition-catalog.js'
import type { ExceptionCatalog } from '../services/exception-catalog.js'
import type { AuditRows } from '../store/audits-repository.js'
import type { Db } from '../store/db.js'
import type { ControllerLogger } from './controller-logger.js'
import type { ControllerTimings } from './definition-controller.js'

export { ControllerStartError } from './controller-start-error.js'

export interface StartControllerOptions {
  config: Pick<Config, 'controller' | 'podNamespace' | 'podName' | 'webhookConfiguration'> &
    Partial<
      Pick<
        Config,
        | 'contextConfigMapSelector'
        | 'contextConfigMapMaxBytes'
        | 'contextConfigMapCacheBytes'
        | 'scanIntervalSeconds'
        | 'scanPageSize'
        | 'scanExcludedNamespaces'
        | 'reportMaxResults'
        | 'reportsApi'
        | 'events'
        | 'generatedVaps'
      >
    >
  db: Db
  /** The catalog the service already started: the controller refreshes it and follows its changes. */
  catalog: DefinitionCatalog
  logger: ControllerLogger
  /** Where the cluster is; default: KUBECONFIG, ~/.kube/config, or the pod's service account. */
  kubeConfig?: KubeConfig
  /** For `auto`: whether a cluster is there to find (default process.env). */
  env?: NodeJS.ProcessEnv
  timings?: Partial<ControllerTimings>
  onReconciled?: (kind: 'ruleset' | 'policy' | 'exception', result: string) => void
  /** The service's exceptions, which PolicyException resources are reconciled into; without it they are not watched. */
  exceptions?: ExceptionCatalog
  /** The clock the controller judges expiry by (the service's). */
  now?: () => Date
  /** Hears of each rule result a background scan let through by an exception (for when it last applied). */
  onExempted?: (exception: string) => void
  /** Where background scans write their audits; without it, no background scans run. */
  writeAudits?: (rows: AuditRows) => Promise<unknown>
  /** The Event recorder's limits and timings (default DEFAULT_EVENT_RECORDER_SETTINGS); tests set flushEveryMs 0 and flush. */
  eventSettings?: Partial<EventRecorderSettings>
  /** Metrics: every Event write and every violation no Event records. */
  onEvents?: (report: EventReport) => void
}

/** The controller's Event recorder, as the webhook sees it. */
export interface ControllerEvents extends ViolationEvents {
  /** Writes what is queued and every count not yet on its Event, now. */
  flush(): Promise<void>
}

export interface RunningController {
  /** The Namespace cache, for the admission webhook. */
  readonly namespaces: NamespaceSource
  /** The ConfigMap cache, for context entries in admission and REST evaluations. */
  readonly configMaps: ClusterData
  isLeader(): boolean
  /** Where admission denials are recorded as Kubernetes Events; undefined with VERDICT_EVENTS=off. */
  readonly events: ControllerEvents | undefined
  /** The generated ValidatingAdmissionPolicies in the cluster, which the webhook leaves rules to; undefined with VERDICT_GENERATED_VAPS=off. */
  readonly generatedVaps: GeneratedVapView | undefined
  /** Resolves once the Namespace and ConfigMap caches hold their first list. */
  whenSynced(): Promise<void>
  /** Hands the lease to another replica and stops watching. */
  stop(): Promise<void>
}

/**
 * Starts the CRD controller as `VERDICT_CONTROLLER` says:
 * - `off`: undefined.
 * - `auto`: on when a cluster is there to find (`KUBERNETES_SERVICE_HOST`, as in a pod, or
 *   `KUBECONFIG`), else undefined. A cluster that does not answer (or lacks the CRDs) is logged and
 *   tried again in the background; the service starts anyway.
 * - `on`: required; throws ControllerStartError when the API server cannot be reached or the
 *   Verdict CRDs are not installed, so a misconfigured deployment fails at once.
 */
export async function startController(options: StartControllerOptions): Promise<RunningController | undefined> {
  const { config, logger } = options
  if (config.controller === 'off') return undefined
  const env = options.env ?? process.env
  if (config.controller === 'auto' && !options.kubeConfig && !env.KUBERNETES_SERVICE_HOST && !env.KUBECONFIG) {
    logger.info({}, 'no Kubernetes cluster found (KUBERNETES_SERVICE_HOST and KUBECONFIG unset); the CRD controller is off')
    return undefined
  }
  // The Kubernetes client is the largest thing the service could load (about 20 MB of heap, 45 MB
  // of RSS, for its generated API classes): a replica without a cluster never loads it.
  const { runController } = await import('./run-controller.js')
  return runController(options)
}
