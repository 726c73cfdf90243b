import {
  AdmissionregistrationV1Api,
  CoordinationV1Api,
  CustomObjectsApi,
  PatchStrategy,
  setHeaderOptions,
  type KubeConfig,
  type KubernetesListObject,
} from '@kubernetes/client-node'
import type { ObjectReference } from '../events/violation.js'
import { CrdDefinitions } from '../services/crd-definitions.js'
import type { DefinitionCatalog, DefinitionChange } from '../services/definition-catalog.js'
import type { ExceptionCatalog } from '../services/exception-catalog.js'
import type { Db } from '../store/db.js'
import { ConfigMapInformer, type ConfigMapCacheSettings } from './configmap-informer.js'
import { backoffDelay, type Backoff, type ControllerLogger } from './controller-logger.js'
import { reconcilePolicy, reconcileRuleset, type ReconcileResult, type ReconcilerDeps } from './definition-reconciler.js'
import type { DefinitionStatus } from './definition-status.js'
import { describeKubeError, isNotFound } from './kube-errors.js'
import { ExceptionController } from './exception-controller.js'
import { GeneratedVapController } from './generated-vap-controller.js'
import { DEFAULT_LEADER_ELECTION, LeaderElector, type LeaderElectionTimings } from './leader-election.js'
import { NamespaceInformer } from './namespace-informer.js'
import { ReconcileQueue, type HandleResult } from './reconcile-queue.js'
import { GROUP, POLICIES, RULESETS, VERSION, type DefinitionObject, type DefinitionResource } from './resources.js'
import { RestartingInformer } from './restarting-informer.js'
import { WebhookConfigurationSync } from './webhook-configuration-sync.js'
import { webhookRules } from './webhook-rules.js'

export interface ControllerTimings extends LeaderElectionTimings {
  /** How often the leader reconciles everything again, repairing what an event or a NOTIFY lost. */
  resyncMs: number
  /** Backoff of a reconcile that failed (store or API server down) or waits (missing rulesets). */
  reconcileBackoff: Backoff
  /** Backoff of a list or watch that failed. */
  watchBackoff: Backoff
  /** Definition changes arriving together patch the webhook configuration once. */
  webhookDebounceMs: number
}

export const DEFAULT_CONTROLLER_TIMINGS: ControllerTimings = {
  ...DEFAULT_LEADER_ELECTION,
  resyncMs: 5 * 60_000,
  reconcileBackoff: { initialMs: 500, maxMs: 60_000 },
  watchBackoff: { initialMs: 1_000, maxMs: 30_000 },
  webhookDebounceMs: 500,
}

export interface DefinitionControllerOptions {
  kubeConfig: KubeConfig
  db: Db
  catalog: DefinitionCatalog
  logger: ControllerLogger
  /** This replica's identity in the Lease (the pod name). */
  identity: string
  /** Where the Lease lives (the pod's namespace). */
  leaseNamespace: string
  leaseName?: string
  webhookConfiguration: string
  /** Which ConfigMaps every replica caches for context entries, and how much (default DEFAULT_CONFIGMAP_CACHE). */
  configMaps?: Partial<ConfigMapCacheSettings>
  timings?: Partial<ControllerTimings>
  now?: () => Date
  /** Told of every reconcile (metrics): the kind and how it ended (a status reason, waiting, deleted, unchanged or error). */
  onReconciled?: (kind: 'ruleset' | 'policy' | 'exception', result: string) => void
  /** The service's exceptions: when given, PolicyException resources are reconciled into them too (exception-controller.ts). */
  exceptions?: ExceptionCatalog
  /** Whether policies with generateValidatingAdmissionPolicy are kept as ValidatingAdmissionPolicies (VERDICT_GENERATED_VAPS; default true). */
  generatedVaps?: boolean
}

export const LEASE_NAME = 'verdict-controller'

/**
 * Turns Ruleset and Policy resources into stored definitions and keeps the webhook configuration
 * in step. Every replica watches (so a new leader starts from a warm cache) and caches Namespaces
 * and the labelled ConfigMaps of context entries (every replica serves the webhook); only the
 * leader reconciles, writes the store, the status and the webhook configuration.
 */
export class DefinitionController {
  readonly namespaces: NamespaceInformer
  readonly configMaps: ConfigMapInformer
  /** The generated ValidatingAdmissionPolicies: kept by the leader, watched by every replica for the webhook. */
  readonly generatedVaps: GeneratedVapController
  readonly #options: DefinitionControllerOptions
  readonly #timings: ControllerTimings
  readonly #logger: ControllerLogger
  readonly #customObjects: CustomObjectsApi
  readonly #rulesets: RestartingInformer<DefinitionObject>
  readonly #policies: RestartingInformer<DefinitionObject>
  readonly #queue: ReconcileQueue
  readonly #elector: LeaderElector
  readonly #webhook: WebhookConfigurationSync
  readonly #deps: ReconcilerDeps
  readonly #exceptions: ExceptionController | undefined
  /**
   * The status last written per key and the resourceVersion it was written over: until the watch
   * brings the object back with it, the cache still shows the old status, and a reconcile in
   * between would write the same status again.
   */
  readonly #written = new Map<string, { over: string | undefined; status: DefinitionStatus }>()
  /** Keys that wait for other definitions (missing rulesets, a ruleset still named by policies). */
  readonly #waiting = new Set<string>()
  #leading = false
  #stopped = false
  #unsubscribe: (() => void) | undefined
  #resync: NodeJS.Timeout | undefined
  #webhookTimer: NodeJS.Timeout | undefined
  #webhookSyncing = false
  #webhookAgain = false
  #webhookFailures = 0

  constructor(options: DefinitionControllerOptions) {
    this.#options = options
    this.#timings = { ...DEFAULT_CONTROLLER_TIMINGS, ...options.timings }
    this.#logger = options.logger
    const { kubeConfig } = options
    this.#customObjects = kubeConfig.makeApiClient(CustomObjectsApi)
    this.namespaces = new NamespaceInformer({ kubeConfig, logger: options.logger, backoff: this.#timings.watchBackoff })
    this.configMaps = new ConfigMapInformer({
      kubeConfig,
      logger: options.logger,
      backoff: this.#timings.watchBackoff,
      ...(options.configMaps ? { settings: options.configMaps } : {}),
    })
    this.#rulesets = this.#informer(RULESETS)
    this.#policies = this.#informer(POLICIES)
    const now = options.now ?? (() => new Date())
    this.generatedVaps = new GeneratedVapController({
      kubeConfig,
      catalog: options.catalog,
      exceptions: options.exceptions,
      logger: options.logger,
      timings: this.#timings,
      now,
      podNamespace: options.leaseNamespace,
      webhookConfiguration: options.webhookConfiguration,
      enabled: options.generatedVaps ?? true,
      owner: (name) => {
        const reference = this.policyReference(name)
        return reference?.uid ? { apiVersion: reference.apiVersion, kind: reference.kind, name: reference.name, uid: reference.uid } : undefined
      },
      onConditionChange: (name) => {
        if (this.#leading && this.#policies.get(name)) this.#queue.add(keyOf(POLICIES, name))
      },
    })
    this.#deps = {
      store: new CrdDefinitions(options.db, options.catalog, { by: `verdict-controller@${options.identity}` }),
      catalog: options.catalog,
      writeStatus: (resource, object, status) => this.#writeStatus(resource, object, status),
      now,
      policyConditions: (name) => {
        const condition = this.generatedVaps.condition(name)
        return condition ? [condition] : []
      },
    }
    this.#exceptions = options.exceptions
      ? new ExceptionController({
          kubeConfig,
          db: options.db,
          exceptions: options.exceptions,
          logger: options.logger,
          identity: options.identity,
          timings: this.#timings,
          now: this.#deps.now,
          onReconciled: (result) => options.onReconciled?.('exception', result),
        })
      : undefined
    this.#queue = new ReconcileQueue({
      handle: (key) => this.#reconcile(key),
      backoff: this.#timings.reconcileBackoff,
      onError: (key, error, retryInMs) => {
        this.#options.onReconciled?.(splitKey(key)[0], 'error')
        this.#logger.warn({ key, error: describeKubeError(error), retryInMs }, 'reconcile failed; trying again')
      },
    })
    this.#elector = new LeaderElector({
      api: kubeConfig.makeApiClient(CoordinationV1Api),
      namespace: options.leaseNamespace,
      name: options.leaseName ?? LEASE_NAME,
      identity: options.identity,
      timings: this.#timings,
      logger: options.logger,
      onStartedLeading: () => void this.#startLeading(),
      onStoppedLeading: () => this.#stopLeading(),
    })
    this.#webhook = new WebhookConfigurationSync({
      api: kubeConfig.makeApiClient(AdmissionregistrationV1Api),
      name: options.webhookConfiguration,
      logger: options.logger,
    })
  }

  start(): void {
    this.namespaces.start()
    this.configMaps.start()
    this.#rulesets.start()
    this.#policies.start()
    this.#exceptions?.start()
    this.generatedVaps.start()
    this.#unsubscribe = this.#options.catalog.onChange((change) => this.#onDefinitionChange(change))
    this.#elector.start()
  }

  isLeader(): boolean {
    return this.#elector.isLeader()
  }

  /**
   * The Policy resource a stored policy was made from, with its uid (kubectl describe finds Events
   * by it), from this replica's watch; undefined for a policy made through the REST API, and for a
   * resource in Conflict with one.
   */
  policyReference(name: string): ObjectReference | undefined {
    if (this.#options.catalog.policy(name)?.source !== 'crd') return undefined
    const uid = this.#policies.get(name)?.metadata?.uid
    return uid ? { apiVersion: `${GROUP}/${VERSION}`, kind: POLICIES.kind, name, uid } : undefined
  }

  /** Nothing queued or in hand; for tests that wait for the controller to settle. */
  idle(): boolean {
    return this.#queue.idle() && this.#webhookTimer === undefined && !this.#webhookSyncing && (this.#exceptions?.idle() ?? true) && this.generatedVaps.idle()
  }

  /** Finishes the reconcile in hand, hands the lease over, then stops watching. */
  async stop(): Promise<void> {
    this.#stopped = true
    this.#stopLeading()
    await this.#queue.pause()
    await this.#elector.stop()
    this.#unsubscribe?.()
    await Promise.all([this.#rulesets.stop(), this.#policies.stop(), this.namespaces.stop(), this.configMaps.stop(), this.#exceptions?.stop(), this.generatedVaps.stop()])
  }

  #informer(resource: DefinitionResource): RestartingInformer<DefinitionObject> {
    return new RestartingInformer<DefinitionObject>({
      kubeConfig: this.#options.kubeConfig,
      path: resource.path,
      // The custom objects client returns the list as the API server sent it, untyped.
      list: () => this.#customObjects.listClusterCustomObject({ group: GROUP, version: VERSION, plural: resource.plural }) as Promise<KubernetesListObject<DefinitionObject>>,
      what: `${resource.plural}.${GROUP}`,
      logger: this.#logger,
      backoff: this.#timings.watchBackoff,
      onEvent: (_event, object) => {
        const name = object.metadata?.name
        if (name !== undefined) this.#queue.add(keyOf(resource, name))
      },
    })
  }

  async #startLeading(): Promise<void> {
    // Reconciling before both caches are filled would read every resource as deleted.
    await Promise.all([this.#rulesets.whenSynced(), this.#policies.whenSynced()])
    if (!this.#elector.isLeader() || this.#stopped) return
    this.#leading = true
    this.#queue.resume()
    // Not awaited: it waits for its own informer, which may never sync where its CRD is not installed.
    void this.#exceptions?.setLeading(true)
    void this.generatedVaps.setLeading(true)
    await this.#reconcileEverything()
    if (!this.#leading) return
    clearInterval(this.#resync)
    this.#resync = setInterval(() => void this.#reconcileEverything(), this.#timings.resyncMs)
    this.#resync.unref()
  }

  #stopLeading(): void {
    this.#leading = false
    void this.#exceptions?.setLeading(false)
    void this.generatedVaps.setLeading(false)
    clearInterval(this.#resync)
    clearTimeout(this.#webhookTimer)
    this.#webhookTimer = undefined
    this.#waiting.clear()
    this.#written.clear()
    void this.#queue.pause()
  }

  /**
   * Every resource, then every definition stored from a resource that no longer exists (deleted
   * while no leader ran). Rulesets first so policies find them; deletions of policies before
   * rulesets, which stay stored while a policy names them.
   */
  async #reconcileEverything(): Promise<void> {
    if (!this.#leading) return
    for (const object of this.#rulesets.list()) this.#queue.add(keyOf(RULESETS, object.metadata?.name ?? ''))
    for (const object of this.#policies.list()) this.#queue.add(keyOf(POLICIES, object.metadata?.name ?? ''))
    try {
      for (const name of await this.#deps.store.ownedNames('policy')) if (!this.#policies.get(name)) this.#queue.add(keyOf(POLICIES, name))
      for (const name of await this.#deps.store.ownedNames('ruleset')) if (!this.#rulesets.get(name)) this.#queue.add(keyOf(RULESETS, name))
    } catch (error) {
      this.#logger.warn({ error: describeKubeError(error) }, 'listing stored definitions failed; the next resync tries again')
    }
    this.#scheduleWebhookSync(0)
  }

  async #reconcile(key: string): Promise<HandleResult> {
    const [kind, name] = splitKey(key)
    const resource = kind === 'ruleset' ? RULESETS : POLICIES
    let object = (kind === 'ruleset' ? this.#rulesets : this.#policies).get(name)
    const written = this.#written.get(key)
    if (written && object && written.over === object.metadata?.resourceVersion) object = { ...object, status: written.status }
    else this.#written.delete(key)
    const result = kind === 'ruleset' ? await reconcileRuleset(name, object, this.#deps) : await reconcilePolicy(name, object, this.#deps)
    const fields = { resource: `${resource.plural}.${GROUP}`, name }
    this.#options.onReconciled?.(kind, reconcileOutcome(result))
    if (result.stored) this.#logger.info({ ...fields, stored: result.stored }, 'definition stored from its resource')
    if (result.statusWritten && result.verdict && !result.verdict.ready) {
      this.#logger.warn({ ...fields, reason: result.verdict.reason, message: result.verdict.message }, 'resource not ready')
    }
    if (result.waiting) {
      if (!this.#waiting.has(key)) this.#logger.info({ ...fields, waiting: result.waiting }, 'waiting for other definitions')
      this.#waiting.add(key)
      return 'wait'
    }
    this.#waiting.delete(key)
    return 'done'
  }

  /**
   * A definition changed (here, on another replica, or through the REST API): the resource of
   * that name settles again (an API delete of a CRD-made ruleset is undone; an API-made one
   * deleted frees the name for a resource in Conflict), policies recount their rules, waiting
   * keys try again, and the webhook rules follow.
   */
  #onDefinitionChange(change: DefinitionChange): void {
    if (!this.#leading) return
    const resource = change.kind === 'ruleset' ? RULESETS : POLICIES
    const informer = change.kind === 'ruleset' ? this.#rulesets : this.#policies
    const stored = change.kind === 'ruleset' ? this.#options.catalog.ruleset(change.name) : this.#options.catalog.policy(change.name)
    if (informer.get(change.name) || stored?.source === 'crd') this.#queue.add(keyOf(resource, change.name))
    if (change.kind === 'ruleset') for (const policy of this.#policies.list()) this.#queue.add(keyOf(POLICIES, policy.metadata?.name ?? ''))
    for (const key of this.#waiting) this.#queue.add(key)
    this.#scheduleWebhookSync(this.#timings.webhookDebounceMs)
  }

  #scheduleWebhookSync(delayMs: number): void {
    if (!this.#leading) return
    // A change during a sync may not be in what that sync read: sync once more after it.
    if (this.#webhookSyncing) this.#webhookAgain = true
    if (this.#webhookSyncing || this.#webhookTimer) return
    this.#webhookTimer = setTimeout(() => {
      this.#webhookTimer = undefined
      void this.#syncWebhook()
    }, delayMs)
  }

  async #syncWebhook(): Promise<void> {
    this.#webhookSyncing = true
    this.#webhookAgain = false
    let retryInMs: number | undefined
    try {
      const { catalog } = this.#options
      await this.#webhook.sync(webhookRules(catalog.policies(), catalog.rulesets()))
      this.#webhookFailures = 0
    } catch (error) {
      this.#webhookFailures += 1
      retryInMs = backoffDelay(this.#timings.reconcileBackoff, this.#webhookFailures)
      this.#logger.warn({ error: describeKubeError(error), retryInMs }, 'updating the webhook rules failed; trying again')
    } finally {
      this.#webhookSyncing = false
    }
    if (retryInMs !== undefined) this.#scheduleWebhookSync(retryInMs)
    else if (this.#webhookAgain) this.#scheduleWebhookSync(this.#timings.webhookDebounceMs)
  }

  async #writeStatus(resource: DefinitionResource, object: DefinitionObject, status: DefinitionStatus): Promise<void> {
    const name = object.metadata?.name ?? ''
    try {
      await this.#customObjects.patchClusterCustomObjectStatus(
        { group: GROUP, version: VERSION, plural: resource.plural, name, body: { status } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      )
      this.#written.set(keyOf(resource, name), { over: object.metadata?.resourceVersion, status })
    } catch (error) {
      // Deleted meanwhile: its deletion event follows and removes it from the store.
      if (isNotFound(error)) return
      throw error
    }
  }
}

function keyOf(resource: DefinitionResource, name: string): string {
  return `${resource.storeKind}/${name}`
}

function splitKey(key: string): ['ruleset' | 'policy', string] {
  const slash = key.indexOf('/')
  return [key.slice(0, slash) as 'ruleset' | 'policy', key.slice(slash + 1)]
}

function reconcileOutcome(result: ReconcileResult): string {
  if (result.waiting) return 'waiting'
  if (result.stored === 'deleted') return 'deleted'
  return result.verdict?.reason ?? 'unchanged'
}
