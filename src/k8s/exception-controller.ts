import { CustomObjectsApi, PatchStrategy, setHeaderOptions, type KubeConfig, type KubernetesListObject } from '@kubernetes/client-node'
import { CrdExceptions } from '../services/crd-exceptions.js'
import type { ExceptionCatalog } from '../services/exception-catalog.js'
import type { Db } from '../store/db.js'
import type { Backoff, ControllerLogger } from './controller-logger.js'
import { reconcileException, type ExceptionReconcileResult } from './exception-reconciler.js'
import type { ExceptionStatus } from './exception-status.js'
import { describeKubeError, isNotFound } from './kube-errors.js'
import { ReconcileQueue } from './reconcile-queue.js'
import { GROUP, POLICY_EXCEPTIONS, VERSION, type DefinitionObject } from './resources.js'
import { RestartingInformer } from './restarting-informer.js'

export interface ExceptionControllerOptions {
  kubeConfig: KubeConfig
  db: Db
  exceptions: ExceptionCatalog
  logger: ControllerLogger
  /** This replica, written to createdBy/updatedBy. */
  identity: string
  timings: { resyncMs: number; reconcileBackoff: Backoff; watchBackoff: Backoff }
  now: () => Date
  onReconciled?: (result: string) => void
}

/** setTimeout holds at most 2^31-1 ms; an expiry further away is caught by a later resync. */
const LONGEST_TIMER_MS = 2_147_483_647

/**
 * Turns PolicyException resources into stored exceptions and keeps their status (Ready, Expired).
 * Every replica watches; only the leader (told by the definition controller, which holds the
 * Lease) reconciles. Its informer is apart from the Ruleset and Policy ones, so a cluster whose
 * PolicyException CRD is not installed yet still has its rulesets and policies reconciled. An
 * exception's status turns Expired at its expiresAt: a timer reconciles it then (evaluation needs
 * no such timer; it compares expiresAt with its clock each time).
 */
export class ExceptionController {
  readonly #options: ExceptionControllerOptions
  readonly #informer: RestartingInformer<DefinitionObject>
  readonly #queue: ReconcileQueue
  readonly #store: CrdExceptions
  readonly #customObjects: CustomObjectsApi
  readonly #expiryTimers = new Map<string, NodeJS.Timeout>()
  /** The status last written per name and the resourceVersion it was written over (see DefinitionController). */
  readonly #written = new Map<string, { over: string | undefined; status: ExceptionStatus }>()
  #leading = false
  #resync: NodeJS.Timeout | undefined
  #unsubscribe: (() => void) | undefined

  constructor(options: ExceptionControllerOptions) {
    this.#options = options
    this.#customObjects = options.kubeConfig.makeApiClient(CustomObjectsApi)
    this.#store = new CrdExceptions(options.db, options.exceptions, { by: `verdict-controller@${options.identity}` })
    this.#informer = new RestartingInformer<DefinitionObject>({
      kubeConfig: options.kubeConfig,
      path: POLICY_EXCEPTIONS.path,
      list: () =>
        this.#customObjects.listClusterCustomObject({ group: GROUP, version: VERSION, plural: POLICY_EXCEPTIONS.plural }) as Promise<KubernetesListObject<DefinitionObject>>,
      what: `${POLICY_EXCEPTIONS.plural}.${GROUP}`,
      logger: options.logger,
      backoff: options.timings.watchBackoff,
      onEvent: (_event, object) => {
        const name = object.metadata?.name
        if (name !== undefined) this.#queue.add(name)
      },
    })
    this.#queue = new ReconcileQueue({
      handle: async (name) => {
        this.#report(name, await this.#reconcile(name))
        return 'done'
      },
      backoff: options.timings.reconcileBackoff,
      onError: (name, error, retryInMs) => {
        options.onReconciled?.('error')
        options.logger.warn({ resource: `${POLICY_EXCEPTIONS.plural}.${GROUP}`, name, error: describeKubeError(error), retryInMs }, 'reconcile failed; trying again')
      },
    })
  }

  start(): void {
    this.#informer.start()
    // An exception changed here, on another replica or through the REST API: the resource of that name settles again
    // (one made through the API deleted frees the name for a resource in Conflict, at once rather than at the resync).
    this.#unsubscribe = this.#options.exceptions.onChange((change) => {
      if (this.#leading && this.#informer.get(change.name)) this.#queue.add(change.name)
    })
  }

  /** Called by the definition controller as this replica gains or loses the Lease. */
  async setLeading(leading: boolean): Promise<void> {
    this.#leading = leading
    if (!leading) {
      this.#stopLeading()
      return
    }
    // Reconciling before the cache is filled would read every resource as deleted.
    await this.#informer.whenSynced()
    if (!this.#leading) return
    this.#queue.resume()
    await this.#reconcileEverything()
    clearInterval(this.#resync)
    this.#resync = setInterval(() => void this.#reconcileEverything(), this.#options.timings.resyncMs)
    this.#resync.unref()
  }

  idle(): boolean {
    return this.#queue.idle()
  }

  async stop(): Promise<void> {
    this.#leading = false
    this.#unsubscribe?.()
    this.#stopLeading()
    await this.#queue.pause()
    await this.#informer.stop()
  }

  #stopLeading(): void {
    clearInterval(this.#resync)
    for (const timer of this.#expiryTimers.values()) clearTimeout(timer)
    this.#expiryTimers.clear()
    this.#written.clear()
    void this.#queue.pause()
  }

  /** Every resource, then every exception stored from a resource that no longer exists (deleted while no leader ran). */
  async #reconcileEverything(): Promise<void> {
    if (!this.#leading) return
    for (const object of this.#informer.list()) this.#queue.add(object.metadata?.name ?? '')
    try {
      for (const name of await this.#store.ownedNames()) if (!this.#informer.get(name)) this.#queue.add(name)
    } catch (error) {
      this.#options.logger.warn({ error: describeKubeError(error) }, 'listing stored exceptions failed; the next resync tries again')
    }
  }

  async #reconcile(name: string): Promise<ExceptionReconcileResult> {
    let object = this.#informer.get(name)
    const written = this.#written.get(name)
    if (written && object && written.over === object.metadata?.resourceVersion) object = { ...object, status: written.status }
    else this.#written.delete(name)
    clearTimeout(this.#expiryTimers.get(name))
    this.#expiryTimers.delete(name)
    const result = await reconcileException(name, object, {
      store: this.#store,
      writeStatus: (target, status) => this.#writeStatus(target, status),
      now: this.#options.now,
    })
    if (result.expiresInMs !== undefined && result.expiresInMs <= LONGEST_TIMER_MS) {
      const timer = setTimeout(() => {
        this.#expiryTimers.delete(name)
        this.#queue.add(name)
      }, result.expiresInMs)
      timer.unref()
      this.#expiryTimers.set(name, timer)
    }
    return result
  }

  #report(name: string, result: ExceptionReconcileResult): void {
    const fields = { resource: `${POLICY_EXCEPTIONS.plural}.${GROUP}`, name }
    this.#options.onReconciled?.(result.stored === 'deleted' ? 'deleted' : (result.verdict?.reason ?? 'unchanged'))
    if (result.stored) this.#options.logger.info({ ...fields, stored: result.stored }, 'exception stored from its resource')
    if (result.statusWritten && result.verdict && !result.verdict.ready) {
      this.#options.logger.warn({ ...fields, reason: result.verdict.reason, message: result.verdict.message }, 'resource not ready')
    }
  }

  async #writeStatus(object: DefinitionObject, status: ExceptionStatus): Promise<void> {
    const name = object.metadata?.name ?? ''
    try {
      await this.#customObjects.patchClusterCustomObjectStatus(
        { group: GROUP, version: VERSION, plural: POLICY_EXCEPTIONS.plural, name, body: { status } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      )
      this.#written.set(name, { over: object.metadata?.resourceVersion, status })
    } catch (error) {
      // Deleted meanwhile: its deletion event follows and removes it from the store.
      if (isNotFound(error)) return
      throw error
    }
  }
}
