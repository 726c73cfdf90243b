import { CoreV1Api, type KubeConfig, type V1ConfigMap, type V1ConfigMapList } from '@kubernetes/client-node'
import type { ClusterData } from '../engine/index.js'
import { backoffDelay, type Backoff, type ControllerLogger } from './controller-logger.js'
import { describeKubeError } from './kube-errors.js'
import { plainJson } from './plain-json.js'
import { RestartingInformer } from './restarting-informer.js'

/** Which ConfigMaps are cached and how much of them (VERDICT_CONTEXT_CONFIGMAP_* settings). */
export interface ConfigMapCacheSettings {
  /** Label selector of the ConfigMaps watched, in every namespace. */
  selector: string
  /** Largest ConfigMap kept, in bytes of its kept JSON (metadata and data). */
  maxBytes: number
  /** Most bytes of all kept ConfigMaps together; 0: no ConfigMap is watched or kept. */
  cacheBytes: number
}

/** The defaults of src/config.ts, for callers that build a controller without a Config. */
export const DEFAULT_CONFIGMAP_CACHE: ConfigMapCacheSettings = {
  selector: 'verdict.dev/context=true',
  maxBytes: 256 * 1024,
  cacheBytes: 32 * 1024 * 1024,
}

/** Distinct ConfigMaps whose failed lookup is logged; past this, misses are not logged at all. */
const MISS_LOG_LIMIT = 1_000

const CONFIGMAP_TYPE = { apiVersion: 'v1', kind: 'ConfigMap' }

type LeftOut = 'too large' | 'no room'

interface Kept {
  object: Record<string, unknown>
  bytes: number
}

/**
 * The ConfigMaps that Kyverno `configMap` context entries read (the engine's `ClusterData`), kept
 * by an informer in every replica, since every replica serves the webhook.
 *
 * Which ConfigMaps: only those carrying a label (`verdict.dev/context=true` by default; any label
 * selector, e.g. Kyverno's `cache.kyverno.io/enabled` while migrating), in every namespace. The
 * API server filters the list and the watch, so memory and watch traffic follow what operators
 * chose to label, not how many ConfigMaps the cluster holds (thousands in a large one, many large:
 * dashboards, CA bundles, Helm-rendered configuration). Kyverno also caches only labelled
 * ConfigMaps, but falls back to a GET against the API server for the others; the engine here
 * evaluates synchronously and never calls out, so an unlabelled ConfigMap is simply not found
 * (and that is logged once, naming the label).
 *
 * Bounds: a ConfigMap whose kept JSON exceeds `maxBytes` is left out, and one that would take the
 * total past `cacheBytes` is left out too (the ConfigMaps already kept stay, so a new one can never
 * take a policy's data away). Both are logged. When room frees up (a deletion, a smaller version)
 * the ConfigMaps left out for room are listed again and taken in, in namespace/name order. A kept
 * ConfigMap whose new version no longer fits is dropped rather than served stale.
 *
 * What is kept: apiVersion, kind, metadata without managedFields, data (and `immutable`); not
 * binaryData, which Kyverno's entries never expose (they give `{data, metadata}`). The objects are
 * plain JSON (as for Namespaces) and frozen: every evaluation shares them. The informer's own
 * cache, which client-node keeps beside this one, is reduced to names and resourceVersions as each
 * object arrives, so a left-out ConfigMap costs nothing after its event.
 */
export class ConfigMapInformer implements ClusterData {
  readonly #settings: ConfigMapCacheSettings
  readonly #logger: ControllerLogger
  readonly #backoff: Backoff
  readonly #api: CoreV1Api
  readonly #informer: RestartingInformer<V1ConfigMap> | undefined
  readonly #kept = new Map<string, Kept>()
  readonly #left = new Map<string, { reason: LeftOut; resourceVersion: string | undefined }>()
  readonly #missesLogged = new Set<string>()
  #totalBytes = 0
  #stopped = true
  #recovering = false
  #recoverAgain = false
  #recoveryFailures = 0
  #recoveryTimer: NodeJS.Timeout | undefined

  constructor(options: { kubeConfig: KubeConfig; logger: ControllerLogger; backoff: Backoff; settings?: Partial<ConfigMapCacheSettings> }) {
    this.#settings = { ...DEFAULT_CONFIGMAP_CACHE, ...options.settings }
    this.#logger = options.logger
    this.#backoff = options.backoff
    this.#api = options.kubeConfig.makeApiClient(CoreV1Api)
    if (this.#settings.cacheBytes <= 0) return
    this.#informer = new RestartingInformer<V1ConfigMap>({
      kubeConfig: options.kubeConfig,
      path: '/api/v1/configmaps',
      labelSelector: this.#settings.selector,
      list: () => this.#list(),
      what: `configmaps (${this.#settings.selector})`,
      logger: options.logger,
      backoff: options.backoff,
      onEvent: (event, configMap) => {
        try {
          if (event === 'delete') this.#remove(configMap)
          else this.#take(configMap, 'event')
        } catch (error) {
          // Nothing about one ConfigMap may stop the watch that feeds all the others.
          this.#logger.error({ configMap: keyOfObject(configMap), error: describeKubeError(error) }, 'a ConfigMap event could not be applied')
        }
      },
    })
  }

  /** The ConfigMap as JSON, or undefined when it is not kept (absent, unlabelled, too large). Shared and frozen: never modify it. */
  configMap(namespace: string, name: string): Record<string, unknown> | undefined {
    const key = `${namespace}/${name}`
    const kept = this.#kept.get(key)
    if (kept) return kept.object
    this.#logMiss(key)
    return undefined
  }

  /** Bytes of JSON kept, and how many ConfigMaps (kept, and left out by the bounds). */
  stats(): { bytes: number; kept: number; leftOut: number } {
    return { bytes: this.#totalBytes, kept: this.#kept.size, leftOut: this.#left.size }
  }

  start(): void {
    this.#stopped = false
    this.#informer?.start()
  }

  async stop(): Promise<void> {
    this.#stopped = true
    clearTimeout(this.#recoveryTimer)
    this.#recoveryTimer = undefined
    await this.#informer?.stop()
  }

  /** True once the first list has been applied (always, when the cache is off). */
  synced(): boolean {
    return this.#informer?.synced() ?? true
  }

  whenSynced(): Promise<void> {
    return this.#informer?.whenSynced() ?? Promise.resolve()
  }

  #list(): Promise<V1ConfigMapList> {
    return this.#api.listConfigMapForAllNamespaces({ labelSelector: this.#settings.selector })
  }

  /** A new or changed ConfigMap: kept if it fits, else left out; the informer's copy is then reduced. */
  #take(configMap: V1ConfigMap, from: 'event' | 'recovery'): void {
    const key = keyOfObject(configMap)
    if (key === undefined) {
      this.#logger.warn({}, 'a ConfigMap without a name or namespace was ignored')
      return
    }
    const resourceVersion = configMap.metadata?.resourceVersion
    const kept = keptJson(configMap)
    const bytes = Buffer.byteLength(JSON.stringify(kept), 'utf8')
    if (from === 'event') reduce(configMap)
    const previous = this.#kept.get(key)
    const roomFreed = previous !== undefined && previous.bytes > bytes
    if (previous) {
      this.#kept.delete(key)
      this.#totalBytes -= previous.bytes
    }
    const { maxBytes, cacheBytes } = this.#settings
    // Larger than the whole cache is as final as larger than maxBytes: no deletion makes room for it.
    const reason: LeftOut | undefined = bytes > Math.min(maxBytes, cacheBytes) ? 'too large' : this.#totalBytes + bytes > cacheBytes ? 'no room' : undefined
    if (reason === undefined) {
      this.#kept.set(key, { object: deepFreeze(kept), bytes })
      this.#totalBytes += bytes
      this.#missesLogged.delete(key)
      if (this.#left.delete(key)) this.#logger.info({ configMap: key, bytes }, 'ConfigMap now cached for context entries')
    } else {
      const before = this.#left.get(key)
      this.#left.set(key, { reason, resourceVersion })
      if (before?.reason !== reason || before.resourceVersion !== resourceVersion || previous) this.#logLeftOut(key, reason, bytes, previous !== undefined)
      if (previous) this.#scheduleRecovery()
    }
    if (roomFreed && reason === undefined) this.#scheduleRecovery()
  }

  #remove(configMap: V1ConfigMap): void {
    const key = keyOfObject(configMap)
    if (key === undefined) return
    this.#left.delete(key)
    const previous = this.#kept.get(key)
    if (!previous) return
    this.#kept.delete(key)
    this.#totalBytes -= previous.bytes
    this.#scheduleRecovery()
  }

  #logLeftOut(key: string, reason: LeftOut, bytes: number, wasKept: boolean): void {
    const { maxBytes, cacheBytes } = this.#settings
    const fields = { configMap: key, bytes, ...(reason === 'too large' ? { maxBytes: Math.min(maxBytes, cacheBytes) } : { cachedBytes: this.#totalBytes, cacheBytes }) }
    const why =
      reason === 'too large'
        ? maxBytes <= cacheBytes
          ? 'it is larger than VERDICT_CONTEXT_CONFIGMAP_MAX_BYTES'
          : 'it is larger than the whole cache, VERDICT_CONTEXT_CONFIGMAP_CACHE_BYTES'
        : 'the ConfigMaps cached already fill VERDICT_CONTEXT_CONFIGMAP_CACHE_BYTES; it is taken in when room frees up'
    const effect = wasKept ? 'its new version is not cached and the old one is dropped' : 'it is not cached'
    this.#logger.warn(fields, `ConfigMap for context entries left out: ${why}; ${effect}, so configMap context entries naming it find nothing`)
  }

  /** Once per ConfigMap (up to MISS_LOG_LIMIT of them), after the first list: why a lookup found nothing. */
  #logMiss(key: string): void {
    if (!this.synced() || this.#missesLogged.has(key) || this.#missesLogged.size >= MISS_LOG_LIMIT) return
    this.#missesLogged.add(key)
    const left = this.#left.get(key)
    if (this.#informer === undefined) {
      this.#logger.info({ configMap: key }, 'a configMap context entry found nothing: the ConfigMap cache is off (VERDICT_CONTEXT_CONFIGMAP_CACHE_BYTES=0)')
    } else if (left) {
      this.#logger.warn({ configMap: key, reason: left.reason }, `a configMap context entry found nothing: the ConfigMap is left out of the cache (${left.reason})`)
    } else {
      this.#logger.info(
        { configMap: key, selector: this.#settings.selector },
        'a configMap context entry found nothing: no such ConfigMap among those cached; only ConfigMaps matching the selector are (label it, e.g. kubectl label configmap)',
      )
    }
  }

  #scheduleRecovery(): void {
    if (this.#stopped || ![...this.#left.values()].some((left) => left.reason === 'no room')) return
    // A list already under way may have been read before this room freed up: one more after it.
    if (this.#recovering) this.#recoverAgain = true
    if (this.#recovering || this.#recoveryTimer !== undefined) return
    // After the events arriving together: one list for all of them.
    this.#recoverAfter(0)
  }

  #recoverAfter(ms: number): void {
    this.#recoveryTimer = setTimeout(() => {
      this.#recoveryTimer = undefined
      void this.#recover()
    }, ms)
  }

  /**
   * Lists the labelled ConfigMaps again and takes in those left out for room, while they fit. Only
   * a listed version equal to the one the watch last brought is taken: an older one would go back in
   * time, a newer one arrives through the watch anyway.
   */
  async #recover(): Promise<void> {
    this.#recovering = true
    this.#recoverAgain = false
    let retryInMs: number | undefined
    try {
      const list = await this.#list()
      if (this.#stopped) return
      this.#recoveryFailures = 0
      const items = list.items
        .map((item) => ({ item, key: keyOfObject(item) }))
        .filter((entry): entry is { item: V1ConfigMap; key: string } => entry.key !== undefined && this.#left.get(entry.key)?.reason === 'no room')
        .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      for (const { item, key } of items) {
        const seen = this.#informer?.get(item.metadata?.name ?? '', item.metadata?.namespace)
        if (seen?.metadata?.resourceVersion === item.metadata?.resourceVersion && this.#left.get(key)?.reason === 'no room') this.#take(item, 'recovery')
      }
    } catch (error) {
      if (this.#stopped) return
      this.#recoveryFailures += 1
      retryInMs = backoffDelay(this.#backoff, this.#recoveryFailures)
      this.#logger.warn({ error: describeKubeError(error), retryInMs }, 'listing the ConfigMaps left out for room failed; trying again')
    } finally {
      this.#recovering = false
    }
    if (retryInMs !== undefined) this.#recoverAfter(retryInMs)
    else if (this.#recoverAgain) this.#scheduleRecovery()
  }
}

function keyOfObject(configMap: V1ConfigMap): string | undefined {
  const { name, namespace } = configMap.metadata ?? {}
  return name && namespace ? `${namespace}/${name}` : undefined
}

/** What is kept of a ConfigMap: no managedFields (server bookkeeping), no binaryData (never read). */
export function keptJson(configMap: V1ConfigMap): Record<string, unknown> {
  const { binaryData: _binaryData, ...rest } = plainJson(configMap, CONFIGMAP_TYPE)
  const metadata = rest.metadata as Record<string, unknown> | undefined
  if (metadata && 'managedFields' in metadata) {
    const { managedFields: _managedFields, ...kept } = metadata
    rest.metadata = kept
  }
  return rest
}

/**
 * The informer's copy down to what it compares (name, namespace, resourceVersion): client-node's
 * informer keeps every object it saw, and that copy must not hold the data this cache bounds.
 */
function reduce(configMap: V1ConfigMap): void {
  const { name, namespace, resourceVersion } = configMap.metadata ?? {}
  configMap.metadata = { name, namespace, resourceVersion }
  delete configMap.data
  delete configMap.binaryData
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child)
    Object.freeze(value)
  }
  return value
}
