import { KubeConfig } from '@kubernetes/client-node'
import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { eventCreateProblems, eventUpdateProblems } from './fake-event-validation.js'
import { applyJsonPatch, applyMergePatch, PatchError } from './json-patches.js'
import { decodeContinue, encodeContinue, INCONSISTENT_CONTINUE, keyOf, lowerBound, namespaceRange, ObjectStore, type Json, type SortedView } from './fake-kube-paging.js'

/**
 * A Kubernetes API server in the test process, speaking the REST protocol the real client uses
 * for the resources the controller touches: list with resourceVersion, chunked watch streams
 * (ADDED, MODIFIED, DELETED, BOOKMARK when asked, ERROR 410 Gone for a resourceVersion older
 * than the compacted history), `labelSelector` on lists and watches (a watch sees an object that
 * starts or stops matching as ADDED or DELETED, as from a real API server's watch cache),
 * create/update/delete with 409 on a stale resourceVersion or an
 * existing name, merge and JSON patches, and the status subresource (writes to the object keep
 * the status, writes to /status keep everything else, spec changes bump metadata.generation).
 * events.k8s.io/v1 Events are refused with 422 as the real server refuses them
 * (fake-event-validation.ts: required fields, limits, immutable fields on patch).
 *
 * Paged lists as the real server serves them: `limit` and `continue`, objects in namespace then
 * name order, every page of one list read from the snapshot of its first page (its
 * resourceVersion), `metadata.continue` and `metadata.remainingItemCount` while more remain, 410
 * Expired for a token whose snapshot is gone (`compact`, `expireContinueTokens`, or more than
 * `maxListSnapshots` lists held open), 400 for a token that does not decode. A list without
 * `limit` or `continue` is one page in creation order, as before.
 *
 * `GET /version` answers `version` (settable), and ValidatingAdmissionPolicies are type-checked as
 * kube-controller-manager does (`typeChecksVaps`): each generation gets status.observedGeneration.
 *
 * Discovery of a group version (`GET /apis/<group>/<version>`): an APIResourceList of the
 * resources it serves. Every group is served until a test removes its CRDs (`removeGroup`): then
 * its discovery and every path under it answer 404 and its objects are gone, as when the CRDs are
 * deleted; `restoreGroup` serves it again, empty.
 *
 * Tests change resources as kubectl would (`create`, `update`, `delete`), or behind the watches'
 * back (`silent`), load many objects at once (`createMany`), compact the history, close watches,
 * fail requests and cut one client off (`partition`), and read every request made (`requests`,
 * with the bearer token that made it, its query string and, for a list, the page served).
 *
 * No test framework imports here: bench scripts compiled by tsc import this file.
 */

export type { Json }

interface ResourceType {
  plural: string
  prefix: string
  apiVersion: string
  kind: string
  namespaced: boolean
  statusSubresource: boolean
}

const RESOURCE_TYPES = {
  rulesets: { plural: 'rulesets', prefix: '/apis/verdict.dev/v1alpha1', apiVersion: 'verdict.dev/v1alpha1', kind: 'Ruleset', namespaced: false, statusSubresource: true },
  policies: { plural: 'policies', prefix: '/apis/verdict.dev/v1alpha1', apiVersion: 'verdict.dev/v1alpha1', kind: 'Policy', namespaced: false, statusSubresource: true },
  policyexceptions: { plural: 'policyexceptions', prefix: '/apis/verdict.dev/v1alpha1', apiVersion: 'verdict.dev/v1alpha1', kind: 'PolicyException', namespaced: false, statusSubresource: true },
  // Kyverno's, which `verdict scan --cluster` reads beside Verdict's.
  kyvernopolicyexceptions: { plural: 'policyexceptions', prefix: '/apis/kyverno.io/v2', apiVersion: 'kyverno.io/v2', kind: 'PolicyException', namespaced: true, statusSubresource: false },
  // Before namespaces: /api/v1/namespaces/<ns>/configmaps is a ConfigMap path, not a Namespace subresource
  // (parseRoute also tries every namespaced reading of a path before any cluster-scoped one).
  configmaps: { plural: 'configmaps', prefix: '/api/v1', apiVersion: 'v1', kind: 'ConfigMap', namespaced: true, statusSubresource: false },
  pods: { plural: 'pods', prefix: '/api/v1', apiVersion: 'v1', kind: 'Pod', namespaced: true, statusSubresource: true },
  replicationcontrollers: { plural: 'replicationcontrollers', prefix: '/api/v1', apiVersion: 'v1', kind: 'ReplicationController', namespaced: true, statusSubresource: true },
  namespaces: { plural: 'namespaces', prefix: '/api/v1', apiVersion: 'v1', kind: 'Namespace', namespaced: false, statusSubresource: true },
  leases: { plural: 'leases', prefix: '/apis/coordination.k8s.io/v1', apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', namespaced: true, statusSubresource: false },
  validatingwebhookconfigurations: {
    plural: 'validatingwebhookconfigurations',
    prefix: '/apis/admissionregistration.k8s.io/v1',
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    namespaced: false,
    statusSubresource: false,
  },
  // What the controller generates from policies with generateValidatingAdmissionPolicy (kept type-checked: typeChecksVaps).
  validatingadmissionpolicies: {
    plural: 'validatingadmissionpolicies',
    prefix: '/apis/admissionregistration.k8s.io/v1',
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    namespaced: false,
    statusSubresource: true,
  },
  validatingadmissionpolicybindings: {
    plural: 'validatingadmissionpolicybindings',
    prefix: '/apis/admissionregistration.k8s.io/v1',
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    namespaced: false,
    statusSubresource: false,
  },
  // The workload kinds a Pod Security scan reads (each holds a pod template).
  deployments: { plural: 'deployments', prefix: '/apis/apps/v1', apiVersion: 'apps/v1', kind: 'Deployment', namespaced: true, statusSubresource: true },
  replicasets: { plural: 'replicasets', prefix: '/apis/apps/v1', apiVersion: 'apps/v1', kind: 'ReplicaSet', namespaced: true, statusSubresource: true },
  statefulsets: { plural: 'statefulsets', prefix: '/apis/apps/v1', apiVersion: 'apps/v1', kind: 'StatefulSet', namespaced: true, statusSubresource: true },
  daemonsets: { plural: 'daemonsets', prefix: '/apis/apps/v1', apiVersion: 'apps/v1', kind: 'DaemonSet', namespaced: true, statusSubresource: true },
  jobs: { plural: 'jobs', prefix: '/apis/batch/v1', apiVersion: 'batch/v1', kind: 'Job', namespaced: true, statusSubresource: true },
  cronjobs: { plural: 'cronjobs', prefix: '/apis/batch/v1', apiVersion: 'batch/v1', kind: 'CronJob', namespaced: true, statusSubresource: true },
  // What a background scan writes (the wg-policy CRDs have no status subresource: results are top-level fields).
  policyreports: { plural: 'policyreports', prefix: '/apis/wgpolicyk8s.io/v1alpha2', apiVersion: 'wgpolicyk8s.io/v1alpha2', kind: 'PolicyReport', namespaced: true, statusSubresource: false },
  // What the webhook and background scans record violations as (validated as the real server validates them).
  events: { plural: 'events', prefix: '/apis/events.k8s.io/v1', apiVersion: 'events.k8s.io/v1', kind: 'Event', namespaced: true, statusSubresource: false },
  clusterpolicyreports: {
    plural: 'clusterpolicyreports',
    prefix: '/apis/wgpolicyk8s.io/v1alpha2',
    apiVersion: 'wgpolicyk8s.io/v1alpha2',
    kind: 'ClusterPolicyReport',
    namespaced: false,
    statusSubresource: false,
  },
  // The OpenReports CRDs (openreports.io), which Kyverno 1.15 on, Kubewarden 1.33 on and Verdict write, and Policy Reporter 3 reads.
  reports: { plural: 'reports', prefix: '/apis/openreports.io/v1alpha1', apiVersion: 'openreports.io/v1alpha1', kind: 'Report', namespaced: true, statusSubresource: false },
  clusterreports: { plural: 'clusterreports', prefix: '/apis/openreports.io/v1alpha1', apiVersion: 'openreports.io/v1alpha1', kind: 'ClusterReport', namespaced: false, statusSubresource: false },
} satisfies Record<string, ResourceType>

export type ResourceName = keyof typeof RESOURCE_TYPES

export interface RecordedRequest {
  method: string
  path: string
  query: string
  /** The bearer token: which client (replica) made the request. */
  token: string
  contentType: string | undefined
  body: unknown
  status: number
  /** For a LIST answered with 200: the page served (`limit` and `continue` asked are in `query`). */
  page?: ListPage
}

export interface ListPage {
  /** The list's resourceVersion: the snapshot's, the same on every page of one list. */
  resourceVersion: string
  items: number
  /** The token handed out for the next page; undefined on the last page. */
  continue: string | undefined
  remainingItemCount: number | undefined
}

interface Route {
  resource: ResourceName
  namespace: string | undefined
  name: string | undefined
  subresource: string | undefined
}

interface WatchEvent {
  rv: number
  resource: ResourceName
  type: 'ADDED' | 'MODIFIED' | 'DELETED'
  object: Json
  /** The object before a MODIFIED, for watches with a label selector. */
  previous: Json | undefined
}

/** One history entry for a whole `createMany`: object i was ADDED at resourceVersion firstRv + i. */
interface BulkAdded {
  resource: ResourceName
  firstRv: number
  objects: readonly Json[]
}

/** What pages after the first of one list read from. */
interface ListSnapshot extends SortedView {
  rv: number
}

interface Watcher {
  resource: ResourceName
  namespace: string | undefined
  selector: LabelMatcher
  token: string
  bookmarks: boolean
  response: ServerResponse
}

interface InjectedFailure {
  method: string | undefined
  pathIncludes: string
  status: number
  remaining: number
}

export class FakeKubeApi {
  readonly requests: RecordedRequest[] = []
  /** Watches refused with ERROR 410 Gone because their resourceVersion was compacted away. */
  expiredWatches = 0
  /**
   * As kube-controller-manager's ValidatingAdmissionPolicy status controller: each new generation
   * of a ValidatingAdmissionPolicy gets `status.observedGeneration` (and an empty `typeChecking`)
   * in a write of its own right after. False: nothing type-checks them (a cluster without it).
   */
  typeChecksVaps = true
  /** What `GET /version` answers, as the API server's version.Info. */
  version = { major: '1', minor: '33' }
  /**
   * How many list snapshots are kept for continue tokens, the least recently used dropped first;
   * a token whose snapshot was dropped answers 410 Expired, as after `compact`.
   */
  maxListSnapshots = 64
  readonly #server: Server
  readonly #objects = new Map<ResourceName, ObjectStore>()
  #history: (WatchEvent | BulkAdded)[] = []
  /** By `${resource}@${rv}`, in order of last use. */
  readonly #snapshots = new Map<string, ListSnapshot>()
  #resourceVersion = 1000
  #compactedTo = 0
  readonly #watchers = new Set<Watcher>()
  readonly #partitioned = new Set<string>()
  readonly #failures: InjectedFailure[] = []
  /** Groups whose CRDs a test removed. */
  readonly #removedGroups = new Set<string>()
  #url = ''

  private constructor() {
    this.#server = createServer((request, response) => {
      this.#handle(request, response).catch((error: unknown) => {
        if (!response.headersSent) sendStatus(response, 500, 'InternalError', String(error))
        else response.destroy()
      })
    })
  }

  static async start(): Promise<FakeKubeApi> {
    const api = new FakeKubeApi()
    await new Promise<void>((resolve) => api.#server.listen(0, '127.0.0.1', resolve))
    api.#url = `http://127.0.0.1:${(api.#server.address() as AddressInfo).port}`
    return api
  }

  get url(): string {
    return this.#url
  }

  /** A client configuration for this server; the token tells replicas apart in `requests`. */
  kubeConfig(token = 'test'): KubeConfig {
    const kubeConfig = new KubeConfig()
    kubeConfig.loadFromOptions({
      clusters: [{ name: 'fake', server: this.#url, skipTLSVerify: true }],
      users: [{ name: token, token }],
      contexts: [{ name: 'fake', cluster: 'fake', user: token }],
      currentContext: 'fake',
    })
    return kubeConfig
  }

  async close(): Promise<void> {
    for (const watcher of this.#watchers) watcher.response.destroy()
    this.#watchers.clear()
    this.#server.closeAllConnections()
    await new Promise<void>((resolve) => this.#server.close(() => resolve()))
  }

  // ---- What kubectl (or another controller) would do -------------------------------------------

  /** Creates an object as `kubectl create` would; `silent` hides the event from open watches. */
  create(resource: ResourceName, object: Json, options: { silent?: boolean } = {}): Json {
    const result = this.#create(resource, structuredClone(object), options.silent ?? false)
    if ('error' in result) throw new Error(result.error.message)
    return structuredClone(result.object)
  }

  /** Replaces an object's fields except status (as `kubectl apply` would); spec changes bump the generation. */
  update(resource: ResourceName, object: Json, options: { silent?: boolean } = {}): Json {
    const metadata = object.metadata as Json
    const current = this.get(resource, metadata.name as string, metadata.namespace as string | undefined)
    if (!current) throw new Error(`${resource} ${String(metadata.name)} does not exist`)
    const next = { ...structuredClone(object), metadata: { ...(current.metadata as Json), ...structuredClone(metadata), resourceVersion: undefined } }
    const result = this.#update(resource, current, next, 'object', options.silent ?? false)
    if ('error' in result) throw new Error(result.error.message)
    return structuredClone(result.object)
  }

  delete(resource: ResourceName, name: string, options: { namespace?: string; silent?: boolean } = {}): void {
    const current = this.#collection(resource).get(keyOf(options.namespace, name))
    if (!current) throw new Error(`${resource} ${name} does not exist`)
    this.#commit(resource, 'DELETED', current, options.silent ?? false)
  }

  /**
   * Creates many objects at once, for benches and big tests: one pass, one copy of each object,
   * each its own resourceVersion, one history entry for them all (a watch resuming from before
   * still sees each ADDED). All or nothing: a missing name or an existing one throws before any
   * is stored. `silent` hides the events from open watches, as for `create`.
   */
  createMany(resource: ResourceName, objects: readonly Json[], options: { silent?: boolean } = {}): { created: number; resourceVersion: string } {
    const type = RESOURCE_TYPES[resource]
    const store = this.#collection(resource)
    const prepared: { key: string; object: Json; metadata: Json; namespace: string | undefined }[] = []
    const keys = new Set<string>()
    for (const input of objects) {
      const object = JSON.parse(JSON.stringify(input)) as Json
      const metadata = (object.metadata ?? {}) as Json
      const name = metadata.name
      if (typeof name !== 'string' || name === '') throw new Error('metadata.name: Required value')
      const namespace = type.namespaced ? (metadata.namespace as string | undefined) : undefined
      const key = keyOf(namespace, name)
      if (store.has(key) || keys.has(key)) throw new Error(`${type.plural} "${name}" already exists`)
      keys.add(key)
      prepared.push({ key, object, metadata, namespace })
    }
    const created = now()
    const firstRv = this.#resourceVersion + 1
    const stored: Json[] = []
    for (const { key, object, metadata, namespace } of prepared) {
      this.#resourceVersion += 1
      const storedMeta: Json = { ...metadata, namespace, uid: randomUUID(), creationTimestamp: created, generation: 1, resourceVersion: String(this.#resourceVersion) }
      if (namespace === undefined) delete storedMeta.namespace
      const result: Json = { ...object, apiVersion: type.apiVersion, kind: type.kind, metadata: storedMeta }
      if (type.statusSubresource) delete result.status
      store.set(key, result)
      stored.push(result)
    }
    if (stored.length > 0) this.#history.push({ resource, firstRv, objects: stored })
    if (!(options.silent ?? false)) {
      for (const watcher of this.#watchers) {
        if (watcher.resource !== resource) continue
        for (const object of stored) if (inNamespace(object, watcher.namespace) && watcher.selector(labelsOf(object))) writeEvent(watcher.response, 'ADDED', object)
      }
    }
    return { created: stored.length, resourceVersion: String(this.#resourceVersion) }
  }

  get(resource: ResourceName, name: string, namespace?: string): Json | undefined {
    const object = this.#collection(resource).get(keyOf(namespace, name))
    return object ? structuredClone(object) : undefined
  }

  /** Copies of the objects in creation order, those of one namespace if given (`list('policyreports', { namespace })`). */
  list(resource: ResourceName, options: { namespace?: string } = {}): Json[] {
    const objects = [...this.#collection(resource).values()]
    return (options.namespace === undefined ? objects : objects.filter((object) => inNamespace(object, options.namespace))).map((object) => structuredClone(object))
  }

  /** How many objects of a resource are stored, without copying them. */
  count(resource: ResourceName): number {
    return this.#collection(resource).size
  }

  // ---- Failure modes ----------------------------------------------------------------------------

  /** Forgets the watch history up to now: a watch resuming from an older resourceVersion gets 410 Gone. */
  compact(): void {
    this.#compactedTo = this.#resourceVersion
    this.#history = []
    this.#snapshots.clear()
  }

  /** Every continue token handed out so far answers 410 Expired, as when etcd compacted past its snapshot. */
  expireContinueTokens(): void {
    this.#snapshots.clear()
  }

  /** Ends every open watch, as an API server does at its request timeout or when it restarts. */
  closeWatches(): void {
    for (const watcher of this.#watchers) watcher.response.end()
    this.#watchers.clear()
  }

  /** A BOOKMARK to every watch that asked for them (allowWatchBookmarks=true). */
  sendBookmarks(): void {
    for (const watcher of this.#watchers) {
      if (!watcher.bookmarks) continue
      const type = RESOURCE_TYPES[watcher.resource]
      writeEvent(watcher.response, 'BOOKMARK', { apiVersion: type.apiVersion, kind: type.kind, metadata: { resourceVersion: String(this.#resourceVersion) } })
    }
  }

  /** Cuts one client off (its connections are dropped) or lets it back. */
  partition(token: string, cut = true): void {
    if (!cut) {
      this.#partitioned.delete(token)
      return
    }
    this.#partitioned.add(token)
    for (const watcher of [...this.#watchers]) {
      if (watcher.token !== token) continue
      watcher.response.destroy()
      this.#watchers.delete(watcher)
    }
  }

  /** The next `times` requests whose path contains `pathIncludes` (and method, if given) fail with `status`. */
  failRequests(options: { pathIncludes: string; status: number; method?: string; times?: number }): void {
    this.#failures.push({ method: options.method, pathIncludes: options.pathIncludes, status: options.status, remaining: options.times ?? 1 })
  }

  /** Open watches on a resource, to wait until a client is watching again. */
  watchCount(resource: ResourceName): number {
    return [...this.#watchers].filter((watcher) => watcher.resource === resource).length
  }

  /** As when a group's CRDs are deleted: its objects are gone, its discovery and every path under /apis/<group>/ answer 404. */
  removeGroup(group: string): void {
    this.#removedGroups.add(group)
    for (const resource of resourcesOf(group)) this.#objects.delete(resource)
  }

  /** As when a group's CRDs are installed again: served, with no objects. */
  restoreGroup(group: string): void {
    this.#removedGroups.delete(group)
  }

  // ---- HTTP ------------------------------------------------------------------------------------

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://fake')
    const token = (request.headers.authorization ?? '').replace(/^Bearer /, '')
    if (this.#partitioned.has(token)) {
      request.socket.destroy()
      return
    }
    const text = await readBody(request)
    const contentType = request.headers['content-type']?.split(';')[0]
    let body: unknown
    try {
      body = text === '' ? undefined : JSON.parse(text)
    } catch {
      sendStatus(response, 400, 'BadRequest', 'the body is not JSON')
      return
    }
    const record: RecordedRequest = { method: request.method ?? 'GET', path: url.pathname, query: url.search, token, contentType, body, status: 0 }
    this.requests.push(record)
    response.on('finish', () => (record.status = response.statusCode))
    const failure = this.#failures.find((entry) => url.pathname.includes(entry.pathIncludes) && (entry.method === undefined || entry.method === record.method))
    if (failure) {
      failure.remaining -= 1
      if (failure.remaining <= 0) this.#failures.splice(this.#failures.indexOf(failure), 1)
      sendStatus(response, failure.status, 'InternalError', 'injected failure')
      return
    }
    const group = /^\/apis\/([^/]+)\//.exec(url.pathname)?.[1]
    if (group !== undefined && this.#removedGroups.has(group)) {
      sendStatus(response, 404, 'NotFound', `the server could not find the requested resource (${url.pathname})`)
      return
    }
    if (record.method === 'GET' && url.pathname === '/version') {
      const { major, minor } = this.version
      return sendJson(response, 200, { major, minor, gitVersion: `v${major}.${minor.replace(/\D.*$/, '')}.0`, platform: 'linux/amd64' })
    }
    const discovery = record.method === 'GET' ? discoveryOf(url.pathname) : undefined
    if (discovery) return sendJson(response, 200, discovery)
    const route = parseRoute(url.pathname)
    if (!route) {
      sendStatus(response, 404, 'NotFound', `the server could not find the requested resource (${url.pathname})`)
      return
    }
    this.#dispatch(record, route, url.searchParams, body, contentType, response)
  }

  #dispatch(record: RecordedRequest, route: Route, query: URLSearchParams, body: unknown, contentType: string | undefined, response: ServerResponse): void {
    const { method, token } = record
    const type = RESOURCE_TYPES[route.resource]
    if (route.subresource !== undefined && (route.subresource !== 'status' || !type.statusSubresource)) {
      sendStatus(response, 404, 'NotFound', `no subresource ${route.subresource}`)
      return
    }
    if (route.name === undefined) {
      if (method === 'GET' && query.get('watch') === 'true') return this.#watch(route, query, token, response)
      if (method === 'GET') {
        const selector = labelMatcher(query.get('labelSelector'))
        if (!selector) return sendStatus(response, 400, 'BadRequest', `unable to parse requirement: ${String(query.get('labelSelector'))}`)
        const result = this.#listBody(route, query, selector)
        if ('error' in result) return sendStatus(response, result.error.code, result.error.reason, result.error.message, result.error.metadata)
        const metadata = result.list.metadata as Json
        record.page = {
          resourceVersion: metadata.resourceVersion as string,
          items: (result.list.items as Json[]).length,
          continue: metadata.continue as string | undefined,
          remainingItemCount: metadata.remainingItemCount as number | undefined,
        }
        return sendJson(response, 200, result.list)
      }
      if (method === 'POST') {
        const object = asObject(body)
        if (!object) return sendStatus(response, 400, 'BadRequest', 'the body must be an object')
        const metadata = (object.metadata ?? {}) as Json
        object.metadata = { ...metadata, namespace: type.namespaced ? route.namespace : undefined }
        if (route.resource === 'events') {
          const problems = eventCreateProblems(object, route.namespace)
          if (problems.length > 0) return sendStatus(response, 422, 'Invalid', `Event "${String(metadata.name)}" is invalid: ${problems.join(', ')}`)
        }
        const result = this.#create(route.resource, object, false)
        return 'error' in result ? sendStatus(response, result.error.code, result.error.reason, result.error.message) : sendJson(response, 201, result.object)
      }
      return sendStatus(response, 405, 'MethodNotAllowed', `${method} on a collection`)
    }
    const current = this.#collection(route.resource).get(keyOf(route.namespace, route.name))
    if (method === 'GET') {
      return current ? sendJson(response, 200, current) : sendStatus(response, 404, 'NotFound', notFound(type, route.name))
    }
    if (!current) return sendStatus(response, 404, 'NotFound', notFound(type, route.name))
    const part = route.subresource === 'status' ? 'status' : 'object'
    if (method === 'DELETE') {
      const deleted = this.#commit(route.resource, 'DELETED', current, false)
      return sendJson(response, 200, deleted)
    }
    let next: Json | undefined
    if (method === 'PUT') {
      next = asObject(body)
      if (!next) return sendStatus(response, 400, 'BadRequest', 'the body must be an object')
    } else if (method === 'PATCH') {
      try {
        if (contentType === 'application/merge-patch+json' || contentType === 'application/strategic-merge-patch+json') next = applyMergePatch(current, body) as Json
        else if (contentType === 'application/json-patch+json') next = applyJsonPatch(current, body)
        else return sendStatus(response, 415, 'UnsupportedMediaType', `unsupported patch type ${String(contentType)}`)
      } catch (error) {
        if (error instanceof PatchError) return sendStatus(response, error.code, error.code === 422 ? 'Invalid' : 'BadRequest', error.message)
        throw error
      }
    } else {
      return sendStatus(response, 405, 'MethodNotAllowed', method)
    }
    if (route.resource === 'events') {
      const problems = eventUpdateProblems(next, current, route.namespace)
      if (problems.length > 0) return sendStatus(response, 422, 'Invalid', `Event "${route.name}" is invalid: ${problems.join(', ')}`)
    }
    const result = this.#update(route.resource, current, next, part, false)
    return 'error' in result ? sendStatus(response, result.error.code, result.error.reason, result.error.message) : sendJson(response, 200, result.object)
  }

  #watch(route: Route, query: URLSearchParams, token: string, response: ServerResponse): void {
    const selector = labelMatcher(query.get('labelSelector'))
    if (!selector) return sendStatus(response, 400, 'BadRequest', `unable to parse requirement: ${String(query.get('labelSelector'))}`)
    response.writeHead(200, { 'content-type': 'application/json' })
    response.flushHeaders()
    const from = query.get('resourceVersion')
    if (from && from !== '0') {
      const since = Number(from)
      if (!(since >= this.#compactedTo)) {
        this.expiredWatches += 1
        writeEvent(response, 'ERROR', { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `too old resource version: ${from} (${this.#compactedTo})`, reason: 'Expired', code: 410 })
        response.end()
        return
      }
      for (const event of this.#history) {
        if (event.resource !== route.resource) continue
        if ('objects' in event) {
          event.objects.forEach((object, index) => {
            if (event.firstRv + index > since && inNamespace(object, route.namespace) && selector(labelsOf(object))) writeEvent(response, 'ADDED', object)
          })
          continue
        }
        if (event.rv <= since || !inNamespace(event.object, route.namespace)) continue
        const type = selectedEvent(event, selector)
        if (type) writeEvent(response, type, event.object)
      }
    } else {
      for (const object of this.#collection(route.resource).values()) if (inNamespace(object, route.namespace) && selector(labelsOf(object))) writeEvent(response, 'ADDED', object)
    }
    const watcher: Watcher = { resource: route.resource, namespace: route.namespace, selector, token, bookmarks: query.get('allowWatchBookmarks') === 'true', response }
    this.#watchers.add(watcher)
    // The response's close, not the request's: the request closed as soon as its body was read.
    response.on('close', () => this.#watchers.delete(watcher))
  }

  /**
   * A LIST: without `limit` or `continue` everything in one page, in creation order; otherwise a
   * page of the snapshot in key order, O(page) after a binary search (more with a label selector,
   * which skips what it does not match, as the real server does).
   */
  #listBody(route: Route, query: URLSearchParams, selector: LabelMatcher): { list: Json } | { error: ApiError } {
    const type = RESOURCE_TYPES[route.resource]
    const list = (metadata: Json, items: Json[]): { list: Json } => ({ list: { apiVersion: type.apiVersion, kind: `${type.kind}List`, metadata, items } })
    const limitText = query.get('limit') ?? ''
    const continueText = query.get('continue') ?? ''
    const limit = limitText === '' ? 0 : Number(limitText)
    if (!Number.isInteger(limit)) return { error: { code: 400, reason: 'BadRequest', message: `limit: Invalid value: "${limitText}": not an integer` } }
    if (continueText === '' && limit <= 0) {
      const items = [...this.#collection(route.resource).values()].filter((object) => inNamespace(object, route.namespace) && selector(labelsOf(object)))
      return list({ resourceVersion: String(this.#resourceVersion) }, items)
    }
    let snapshot: ListSnapshot
    let start: string | undefined
    if (continueText !== '') {
      const resourceVersion = query.get('resourceVersion') ?? ''
      if (resourceVersion !== '' && resourceVersion !== '0') return { error: { code: 400, reason: 'BadRequest', message: 'specifying resource version is not allowed when using continue' } }
      const token = decodeContinue(continueText)
      if ('error' in token) return { error: { code: 400, reason: 'BadRequest', message: `invalid continue token: ${token.error}` } }
      const kept = token.rv === -1 ? this.#snapshotNow(route.resource) : this.#snapshots.get(`${route.resource}@${token.rv}`)
      if (!kept) {
        // As the real server: the answer carries a token that continues from the latest state.
        return { error: { code: 410, reason: 'Expired', message: INCONSISTENT_CONTINUE, metadata: { continue: encodeContinue({ rv: -1, start: token.start }) } } }
      }
      snapshot = kept
      start = token.start
    } else {
      snapshot = this.#snapshotNow(route.resource)
    }
    let from = 0
    let to = snapshot.keys.length
    if (route.namespace !== undefined) {
      const [low, high] = namespaceRange(route.namespace)
      from = lowerBound(snapshot.keys, low)
      to = lowerBound(snapshot.keys, high, from)
    }
    let index = start === undefined ? from : lowerBound(snapshot.keys, start, from, to)
    const pageSize = limit > 0 ? limit : Infinity
    const items: Json[] = []
    while (index < to && items.length < pageSize) {
      const object = snapshot.objects[index] as Json
      index += 1
      if (selector(labelsOf(object))) items.push(object)
    }
    const metadata: Json = { resourceVersion: String(snapshot.rv) }
    if (index < to) {
      this.#keepSnapshot(route.resource, snapshot)
      metadata.continue = encodeContinue({ rv: snapshot.rv, start: `${snapshot.keys[index - 1] as string}\u0000` })
      // Counted only without a selector, as by the real server (it would have to read everything to count the matches).
      if ((query.get('labelSelector') ?? '').trim() === '' && (query.get('fieldSelector') ?? '').trim() === '') metadata.remainingItemCount = to - index
    }
    return list(metadata, items)
  }

  /** The resource as of now; the sorted view is shared with every other snapshot taken since its last write. */
  #snapshotNow(resource: ResourceName): ListSnapshot {
    const view = this.#collection(resource).sorted()
    return { rv: this.#resourceVersion, keys: view.keys, objects: view.objects }
  }

  #keepSnapshot(resource: ResourceName, snapshot: ListSnapshot): void {
    const key = `${resource}@${snapshot.rv}`
    this.#snapshots.delete(key)
    this.#snapshots.set(key, snapshot)
    for (const oldest of this.#snapshots.keys()) {
      if (this.#snapshots.size <= this.maxListSnapshots) break
      this.#snapshots.delete(oldest)
    }
  }

  // ---- Storage ---------------------------------------------------------------------------------

  #create(resource: ResourceName, object: Json, silent: boolean): { object: Json } | { error: ApiError } {
    const type = RESOURCE_TYPES[resource]
    const metadata = (object.metadata ?? {}) as Json
    const name = metadata.name
    if (typeof name !== 'string' || name === '') return { error: { code: 422, reason: 'Invalid', message: 'metadata.name: Required value' } }
    const namespace = type.namespaced ? (metadata.namespace as string | undefined) : undefined
    if (this.#collection(resource).has(keyOf(namespace, name))) {
      return { error: { code: 409, reason: 'AlreadyExists', message: `${type.plural} "${name}" already exists` } }
    }
    const stored: Json = {
      ...object,
      apiVersion: type.apiVersion,
      kind: type.kind,
      metadata: dropUndefined({ ...metadata, namespace, uid: randomUUID(), creationTimestamp: now(), generation: 1, resourceVersion: undefined }),
    }
    if (type.statusSubresource) delete stored.status
    const created = this.#commit(resource, 'ADDED', stored, silent)
    this.#typeCheck(resource, created, silent)
    return { object: created }
  }

  /** The status controller's write after a new generation of a ValidatingAdmissionPolicy (typeChecksVaps). */
  #typeCheck(resource: ResourceName, object: Json, silent: boolean): void {
    if (resource !== 'validatingadmissionpolicies' || !this.typeChecksVaps) return
    const generation = (object.metadata as Json).generation
    if ((object.status as Json | undefined)?.observedGeneration === generation) return
    this.#commit(resource, 'MODIFIED', { ...object, status: { observedGeneration: generation, typeChecking: {} } }, silent)
  }

  /** PUT or PATCH result `next` onto `current`, for the object or its status. */
  #update(resource: ResourceName, current: Json, next: Json, part: 'object' | 'status', silent: boolean): { object: Json } | { error: ApiError } {
    const type = RESOURCE_TYPES[resource]
    const currentMeta = current.metadata as Json
    const nextMeta = (next.metadata ?? {}) as Json
    if (nextMeta.resourceVersion !== undefined && nextMeta.resourceVersion !== currentMeta.resourceVersion) {
      return {
        error: {
          code: 409,
          reason: 'Conflict',
          message: `Operation cannot be fulfilled on ${type.plural} "${String(currentMeta.name)}": the object has been modified; please apply your changes to the latest version and try again`,
        },
      }
    }
    let updated: Json
    if (part === 'status') {
      updated = { ...current, status: next.status }
    } else {
      updated = {
        ...next,
        apiVersion: type.apiVersion,
        kind: type.kind,
        metadata: {
          ...nextMeta,
          name: currentMeta.name,
          namespace: currentMeta.namespace,
          uid: currentMeta.uid,
          creationTimestamp: currentMeta.creationTimestamp,
          generation: currentMeta.generation,
          resourceVersion: currentMeta.resourceVersion,
        },
      }
      if (type.statusSubresource) updated.status = current.status
      if (specOf(updated) !== specOf(current)) (updated.metadata as Json).generation = (currentMeta.generation as number) + 1
    }
    updated = dropUndefined(updated)
    if (JSON.stringify(updated) === JSON.stringify(current)) return { object: structuredClone(current) }
    const committed = this.#commit(resource, 'MODIFIED', updated, silent)
    if (part === 'object') this.#typeCheck(resource, committed, silent)
    return { object: committed }
  }

  /** Stores (or removes) with a new resourceVersion, records the event and tells the watches. */
  #commit(resource: ResourceName, type: WatchEvent['type'], object: Json, silent: boolean): Json {
    this.#resourceVersion += 1
    const rv = this.#resourceVersion
    const stored = structuredClone({ ...object, metadata: { ...(object.metadata as Json), resourceVersion: String(rv) } })
    const metadata = stored.metadata as Json
    const key = keyOf(metadata.namespace as string | undefined, metadata.name as string)
    const previous = type === 'MODIFIED' ? this.#collection(resource).get(key) : undefined
    if (type === 'DELETED') this.#collection(resource).delete(key)
    else this.#collection(resource).set(key, stored)
    const event: WatchEvent = { rv, resource, type, object: stored, previous }
    this.#history.push(event)
    if (!silent) {
      for (const watcher of this.#watchers) {
        if (watcher.resource !== resource || !inNamespace(stored, watcher.namespace)) continue
        const seen = selectedEvent(event, watcher.selector)
        if (seen) writeEvent(watcher.response, seen, stored)
      }
    }
    return structuredClone(stored)
  }

  #collection(resource: ResourceName): ObjectStore {
    let collection = this.#objects.get(resource)
    if (!collection) {
      collection = new ObjectStore()
      this.#objects.set(resource, collection)
    }
    return collection
  }
}

interface ApiError {
  code: number
  reason: string
  message: string
  /** The Status's ListMeta, for a 410 on a continue token. */
  metadata?: Json
}

/**
 * The resource a path names. A namespaced reading (/namespaces/<ns>/<plural>[/<name>[/status]])
 * wins over a cluster-scoped one whatever the order of RESOURCE_TYPES, so
 * /api/v1/namespaces/<ns>/pods is the pods of <ns>, not a subresource of Namespace <ns>.
 */
function parseRoute(pathname: string): Route | undefined {
  let clusterScoped: Route | undefined
  for (const [resource, type] of Object.entries(RESOURCE_TYPES) as [ResourceName, ResourceType][]) {
    if (!pathname.startsWith(`${type.prefix}/`)) continue
    const segments = pathname.slice(type.prefix.length + 1).split('/').filter((segment) => segment !== '')
    if (type.namespaced && segments[0] === 'namespaces' && segments[2] === type.plural && segments.length <= 5) {
      return { resource, namespace: segments[1], name: segments[3], subresource: segments[4] }
    }
    if (segments[0] === type.plural && segments.length <= 3) clusterScoped ??= { resource, namespace: undefined, name: segments[1], subresource: segments[2] }
  }
  return clusterScoped
}

/** The resources of one API group (by the group of their apiVersion). */
function resourcesOf(group: string): ResourceName[] {
  return (Object.entries(RESOURCE_TYPES) as [ResourceName, ResourceType][]).filter(([, type]) => type.apiVersion.startsWith(`${group}/`)).map(([resource]) => resource)
}

/** `GET /apis/<group>/<version>`: the APIResourceList of what the group version serves, undefined for any other path. */
function discoveryOf(pathname: string): Json | undefined {
  const match = /^\/apis\/([^/]+)\/([^/]+)\/?$/.exec(pathname)
  if (!match) return undefined
  const groupVersion = `${match[1] as string}/${match[2] as string}`
  const types = Object.values(RESOURCE_TYPES as Record<string, ResourceType>).filter((type) => type.apiVersion === groupVersion)
  if (types.length === 0) return undefined
  const verbs = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']
  const resources: Json[] = []
  for (const type of types) {
    resources.push({ name: type.plural, singularName: type.kind.toLowerCase(), namespaced: type.namespaced, kind: type.kind, verbs })
    if (type.statusSubresource) resources.push({ name: `${type.plural}/status`, singularName: '', namespaced: type.namespaced, kind: type.kind, verbs: ['get', 'patch', 'update'] })
  }
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion, resources }
}

/** What metadata.generation tracks: everything but metadata and status. */
function specOf(object: Json): string {
  const { metadata: _metadata, status: _status, ...rest } = object
  return JSON.stringify(rest)
}

type LabelMatcher = (labels: Record<string, string>) => boolean

/**
 * The selector's test, or undefined when it does not parse. Equality (`k=v`, `k==v`, `k!=v`),
 * existence (`k`, `!k`) and sets (`k in (a,b)`, `k notin (a,b)`), ANDed; no selector: everything.
 */
function labelMatcher(selector: string | null): LabelMatcher | undefined {
  if (selector === null || selector.trim() === '') return () => true
  const tests: LabelMatcher[] = []
  for (const part of selector.split(/,(?![^(]*\))/)) {
    const text = part.trim()
    let match: RegExpExecArray | null
    if ((match = /^([\w./-]+)\s+(in|notin)\s*\(([^()]*)\)$/.exec(text))) {
      const [, key, operator, list] = match as unknown as [string, string, string, string]
      const values = list.split(',').map((value) => value.trim())
      tests.push(operator === 'in' ? (labels) => key in labels && values.includes(labels[key] as string) : (labels) => !(key in labels) || !values.includes(labels[key] as string))
    } else if ((match = /^([\w./-]+)\s*(==|=|!=)\s*([\w.-]*)$/.exec(text))) {
      const [, key, operator, value] = match as unknown as [string, string, string, string]
      tests.push(operator === '!=' ? (labels) => labels[key] !== value : (labels) => labels[key] === value)
    } else if ((match = /^(!?)([\w./-]+)$/.exec(text))) {
      const [, not, key] = match as unknown as [string, string, string]
      tests.push(not ? (labels) => !(key in labels) : (labels) => key in labels)
    } else {
      return undefined
    }
  }
  return (labels) => tests.every((test) => test(labels))
}

function labelsOf(object: Json | undefined): Record<string, string> {
  return ((object?.metadata as Json | undefined)?.labels ?? {}) as Record<string, string>
}

/** What a watch with this selector sees of an event: an object starting to match is ADDED, one ceasing to is DELETED. */
function selectedEvent(event: WatchEvent, selector: LabelMatcher): WatchEvent['type'] | undefined {
  const now = selector(labelsOf(event.object))
  if (event.type !== 'MODIFIED') return now ? event.type : undefined
  const before = selector(labelsOf(event.previous))
  if (before && now) return 'MODIFIED'
  if (now) return 'ADDED'
  return before ? 'DELETED' : undefined
}

function inNamespace(object: Json, namespace: string | undefined): boolean {
  return namespace === undefined || (object.metadata as Json).namespace === namespace
}

function writeEvent(response: ServerResponse, type: string, object: Json): void {
  response.write(`${JSON.stringify({ type, object })}\n`)
}

function sendJson(response: ServerResponse, code: number, body: unknown): void {
  response.writeHead(code, { 'content-type': 'application/json' })
  response.end(JSON.stringify(body))
}

function sendStatus(response: ServerResponse, code: number, reason: string, message: string, metadata: Json = {}): void {
  sendJson(response, code, { kind: 'Status', apiVersion: 'v1', metadata, status: 'Failure', message, reason, code })
}

function notFound(type: ResourceType, name: string): string {
  return `${type.plural} "${name}" not found`
}

function asObject(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined
}

function dropUndefined<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T
}

/** metav1.Time: RFC 3339 in whole seconds. */
function now(): string {
  return `${new Date().toISOString().slice(0, 19)}Z`
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}
