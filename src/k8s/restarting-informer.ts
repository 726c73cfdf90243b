import { ADD, DELETE, ERROR, ListWatch, UPDATE, Watch, type KubeConfig, type KubernetesListObject, type KubernetesObject } from '@kubernetes/client-node'
import { backoffDelay, type Backoff, type ControllerLogger } from './controller-logger.js'
import { describeKubeError } from './kube-errors.js'

export type InformerEvent = 'add' | 'update' | 'delete'

export interface RestartingInformerOptions<T extends KubernetesObject> {
  kubeConfig: KubeConfig
  /** The collection's REST path, e.g. `/apis/verdict.dev/v1alpha1/rulesets`. */
  path: string
  /** Must apply `labelSelector` too when one is given. */
  list: () => Promise<KubernetesListObject<T>>
  /** Only objects carrying these labels (the API server filters both the list and the watch). */
  labelSelector?: string
  /** Names the resource in logs. */
  what: string
  logger: ControllerLogger
  backoff: Backoff
  onEvent(event: InformerEvent, object: T): void
}

/** How long stop() waits for a list or watch request that is still being made. */
const STOP_GRACE_MS = 2_000

/**
 * A list-then-watch cache of one resource that never gives up. client-node's informer already
 * re-lists after 410 Gone (on the watch's ERROR event or status) and reconnects when the server
 * ends a watch; on any other failure (connection refused, 5xx, 403 while RBAC is being set up) it
 * reports an error and stops. This restarts it with exponential backoff, resuming from the last
 * resourceVersion it saw, and resets the backoff once a list or an event gets through.
 */
export class RestartingInformer<T extends KubernetesObject> {
  readonly #options: RestartingInformerOptions<T>
  readonly #informer: ListWatch<T>
  #stopped = true
  #failures = 0
  #retry: NodeJS.Timeout | undefined
  #running: Promise<void> | undefined
  #synced = false
  readonly #syncWaiters: (() => void)[] = []

  constructor(options: RestartingInformerOptions<T>) {
    this.#options = options
    // makeInformer, but with a reconnect delay that ends with stop(): the informer's own delay
    // does not look at whether it was stopped and would open a new watch after it.
    this.#informer = new ListWatch<T>(options.path, new Watch(options.kubeConfig), () => this.#list(), false, options.labelSelector, undefined, {
      delayFn: (ms) => this.#delay(ms),
    })
    const forward = (event: InformerEvent) => (object: T) => {
      this.#failures = 0
      options.onEvent(event, object)
    }
    this.#informer.on(ADD, forward('add'))
    this.#informer.on(UPDATE, forward('update'))
    this.#informer.on(DELETE, forward('delete'))
    this.#informer.on(ERROR, (error: unknown) => this.#onError(error))
  }

  start(): void {
    this.#stopped = false
    this.#run()
  }

  async stop(): Promise<void> {
    this.#stopped = true
    clearTimeout(this.#retry)
    if (this.#running) await Promise.race([this.#running, new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref())])
    await this.#informer.stop()
  }

  get(name: string, namespace?: string): T | undefined {
    return this.#informer.get(name, namespace)
  }

  list(): readonly T[] {
    return this.#informer.list()
  }

  /** True once the first list has been applied: an absent object is then really absent. */
  synced(): boolean {
    return this.#synced
  }

  whenSynced(): Promise<void> {
    if (this.#synced) return Promise.resolve()
    return new Promise((resolve) => this.#syncWaiters.push(resolve))
  }

  /** Resolves after `ms`, or never once stopped (nothing then holds the pending reconnect). */
  #delay(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        if (!this.#stopped) resolve()
      }, ms)
      timer.unref()
    })
  }

  #run(): void {
    const running = this.#informer
      .start()
      .then(async () => {
        // Stopped while the list or watch was being made: the informer started a watch anyway.
        if (this.#stopped) await this.#informer.stop()
      })
      .catch((error: unknown) => this.#onError(error))
    this.#running = running
  }

  async #list(): Promise<KubernetesListObject<T>> {
    const result = await this.#options.list()
    // The informer applies the list to its cache right after this resolves, synchronously;
    // setImmediate runs after that, so `synced` never claims a cache that is not filled yet.
    setImmediate(() => {
      this.#failures = 0
      if (this.#synced) return
      this.#synced = true
      for (const resolve of this.#syncWaiters.splice(0)) resolve()
    })
    return result
  }

  #onError(error: unknown): void {
    if (this.#stopped) return
    this.#failures += 1
    const delay = backoffDelay(this.#options.backoff, this.#failures)
    this.#options.logger.warn({ resource: this.#options.what, error: describeKubeError(error), retryInMs: delay }, 'list or watch failed; starting again')
    clearTimeout(this.#retry)
    this.#retry = setTimeout(() => {
      if (!this.#stopped) this.#run()
    }, delay)
  }
}
