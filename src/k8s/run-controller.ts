import { CustomObjectsApi, KubeConfig } from '@kubernetes/client-node'
import { ThrottledLog } from '../admission/throttled-log.js'
import { EventRecorder } from '../events/event-recorder.js'
import { KubeEventSink } from '../events/kube-event-sink.js'
import type { ViolationEvents } from '../events/violation.js'
import { BackgroundScanner } from '../scan/background/background-scanner.js'
import { DEFAULT_CONFIGMAP_CACHE, type ConfigMapCacheSettings } from './configmap-informer.js'
import { ControllerStartError } from './controller-start-error.js'
import { DefinitionController } from './definition-controller.js'
import { describeKubeError, isNotFound } from './kube-errors.js'
import { GROUP, RULESETS, VERSION } from './resources.js'
import type { ControllerEvents, RunningController, StartControllerOptions } from './start-controller.js'

/**
 * The controller once start-controller.ts has decided a cluster is wanted: everything that needs
 * the Kubernetes client, loaded only then. Reaching the cluster fails the start under `on` and is
 * retried in the background under `auto`.
 */
export async function runController(options: StartControllerOptions): Promise<RunningController | undefined> {
  const { config, logger } = options
  let kubeConfig: KubeConfig
  try {
    kubeConfig = options.kubeConfig ?? defaultKubeConfig()
  } catch (error) {
    if (config.controller === 'on') throw new ControllerStartError(`VERDICT_CONTROLLER=on but no Kubernetes configuration loads: ${describeKubeError(error)}`, { cause: error })
    logger.warn({ error: describeKubeError(error) }, 'the Kubernetes configuration does not load; the CRD controller is off')
    return undefined
  }
  const problem = await probe(kubeConfig)
  if (problem) {
    if (config.controller === 'on') throw new ControllerStartError(`VERDICT_CONTROLLER=on but ${problem}`)
    logger.warn({ problem }, 'the CRD controller starts anyway and keeps trying')
  }
  const controller = new DefinitionController({
    kubeConfig,
    db: options.db,
    catalog: options.catalog,
    logger,
    identity: config.podName,
    leaseNamespace: config.podNamespace,
    webhookConfiguration: config.webhookConfiguration,
    configMaps: configMapSettings(config),
    generatedVaps: config.generatedVaps ?? true,
    ...(options.timings ? { timings: options.timings } : {}),
    ...(options.onReconciled ? { onReconciled: options.onReconciled } : {}),
    ...(options.exceptions ? { exceptions: options.exceptions } : {}),
    ...(options.now ? { now: options.now } : {}),
  })
  controller.start()
  const events = eventRecorder(options, kubeConfig, controller)
  const scanner = backgroundScanner(options, kubeConfig, controller, events)
  scanner?.start()
  const contextConfigMaps = config.contextConfigMapCacheBytes === 0 ? 'off' : (config.contextConfigMapSelector ?? DEFAULT_CONFIGMAP_CACHE.selector)
  logger.info(
    {
      server: kubeConfig.getCurrentCluster()?.server,
      identity: config.podName,
      leaseNamespace: config.podNamespace,
      contextConfigMaps,
      events: events ? 'on' : 'off',
      generatedVaps: config.generatedVaps === false ? 'off' : 'on',
    },
    'CRD controller started',
  )
  return {
    namespaces: controller.namespaces,
    configMaps: controller.configMaps,
    events,
    generatedVaps: config.generatedVaps === false ? undefined : controller.generatedVaps,
    isLeader: () => controller.isLeader(),
    whenSynced: async () => {
      await Promise.all([controller.namespaces.whenSynced(), controller.configMaps.whenSynced()])
    },
    stop: async () => {
      await scanner?.stop()
      // Before the controller: the last counts still find their Policy resources' uids in its cache.
      await events?.close()
      await controller.stop()
    },
  }
}

/**
 * The leader's scans of what already runs (VERDICT_SCAN_INTERVAL, 0 = none), judged with the
 * controller's Namespace and ConfigMap caches; Verdict's own namespace is never judged, as the
 * webhook never sees it.
 */
function backgroundScanner(options: StartControllerOptions, kubeConfig: KubeConfig, controller: DefinitionController, events: ViolationEvents | undefined): BackgroundScanner | undefined {
  const { config, exceptions } = options
  const intervalSeconds = config.scanIntervalSeconds ?? 3600
  if (intervalSeconds <= 0 || !options.writeAudits) return undefined
  return new BackgroundScanner({
    kubeConfig,
    catalog: options.catalog,
    namespaces: controller.namespaces,
    cluster: controller.configMaps,
    db: options.db,
    writeAudits: options.writeAudits,
    logger: options.logger,
    isLeader: () => controller.isLeader(),
    intervalMs: intervalSeconds * 1000,
    ...(exceptions ? { exemptions: (now: Date) => exceptions.exemptions(now), onExceptionChange: (listener) => exceptions.onChange(listener) } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(options.onExempted ? { onExempted: options.onExempted } : {}),
    reportsApi: config.reportsApi ?? 'auto',
    ...(events ? { events } : {}),
    settings: {
      pageSize: config.scanPageSize ?? 100,
      maxResults: config.reportMaxResults ?? 1000,
      excludedNamespaces: new Set([...(config.scanExcludedNamespaces ?? ['kube-system']), config.podNamespace]),
      listRestarts: 3,
    },
  })
}

/**
 * Every replica records its own denials (each answers reviews); the leader also its scans'
 * violations. The recorder writes through the API server the controller already talks to; with
 * VERDICT_EVENTS=off there is none.
 */
function eventRecorder(options: StartControllerOptions, kubeConfig: KubeConfig, controller: DefinitionController): (ControllerEvents & { close(): Promise<void> }) | undefined {
  const { config, logger } = options
  if (config.events === false) return undefined
  const failures = new ThrottledLog(logger, 'warn', 'writing a Kubernetes Event failed; the violations it carried are counted in verdict_events_dropped_total', 60_000)
  const now = options.now
  const recorder = new EventRecorder({
    sink: new KubeEventSink(kubeConfig),
    instance: config.podName,
    ...(now ? { now: () => now().getTime() } : {}),
    ...(options.eventSettings ? { settings: options.eventSettings } : {}),
    ...(options.onEvents ? { onReport: options.onEvents } : {}),
    onWriteError: (error) => failures.note({ error: describeKubeError(error) }),
  })
  return {
    record: (violation) => recorder.record(violation),
    policyResource: (name) => controller.policyReference(name),
    flush: () => recorder.flush(),
    close: () => recorder.close(),
  }
}

/** The VERDICT_CONTEXT_CONFIGMAP_* settings given; the others keep DEFAULT_CONFIGMAP_CACHE. */
function configMapSettings(config: StartControllerOptions['config']): Partial<ConfigMapCacheSettings> {
  const settings: Partial<ConfigMapCacheSettings> = {}
  if (config.contextConfigMapSelector !== undefined) settings.selector = config.contextConfigMapSelector
  if (config.contextConfigMapMaxBytes !== undefined) settings.maxBytes = config.contextConfigMapMaxBytes
  if (config.contextConfigMapCacheBytes !== undefined) settings.cacheBytes = config.contextConfigMapCacheBytes
  return settings
}

function defaultKubeConfig(): KubeConfig {
  const kubeConfig = new KubeConfig()
  kubeConfig.loadFromDefault()
  if (!kubeConfig.getCurrentCluster()) throw new Error('no current cluster in the Kubernetes configuration')
  return kubeConfig
}

/** One cheap call that needs both a reachable API server and the Ruleset CRD; a description of what is wrong, if anything. */
async function probe(kubeConfig: KubeConfig): Promise<string | undefined> {
  const server = kubeConfig.getCurrentCluster()?.server ?? 'the API server'
  try {
    await kubeConfig.makeApiClient(CustomObjectsApi).listClusterCustomObject({ group: GROUP, version: VERSION, plural: RULESETS.plural, limit: 1 })
    return undefined
  } catch (error) {
    if (isNotFound(error)) return `the CRD ${RULESETS.plural}.${GROUP} is not installed on ${server} (kubectl apply -f manifests/crds/)`
    return `${server} cannot be used: ${describeKubeError(error)}`
  }
}
