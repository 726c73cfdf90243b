import type { KubeConfig, KubernetesListObject } from '@kubernetes/client-node'
import type { GeneratedVapView, ObservedGenerated } from '../admission/generated-vap-view.js'
import type { Policy } from '../engine/index.js'
import { sameBindingSpec, sameVapSpec, type Refusal } from '../export/vap/index.js'
import type { DefinitionCatalog, DefinitionChange } from '../services/definition-catalog.js'
import type { ExceptionCatalog } from '../services/exception-catalog.js'
import { canonicalJson } from './canonical-json.js'
import type { Backoff, ControllerLogger } from './controller-logger.js'
import { VAP_CONDITION, type ConditionVerdict } from './definition-status.js'
import { desiredVaps, type ClusterFacts, type DesiredPair, type DesiredVaps, type PolicyOwner, type WebhookScope } from './desired-vaps.js'
import { BINDINGS, GENERATED_SELECTOR, generatedFrom, typeChecked, VAPS, type GeneratedKind, type GeneratedObject } from './generated-vap-objects.js'
import { describeKubeError } from './kube-errors.js'
import { kubeRequest, type KubeResponse } from './kube-request.js'
import { ReconcileQueue, type HandleResult } from './reconcile-queue.js'
import { RestartingInformer } from './restarting-informer.js'

export interface GeneratedVapControllerOptions {
  kubeConfig: KubeConfig
  catalog: DefinitionCatalog
  /** The PolicyExceptions in force: one reaching a policy makes it not generatable. */
  exceptions: ExceptionCatalog | undefined
  logger: ControllerLogger
  timings: { resyncMs: number; reconcileBackoff: Backoff; watchBackoff: Backoff }
  now: () => Date
  /** Verdict's own namespace, which the webhook never judges: no binding selects it. */
  podNamespace: string
  /** Whose selectors bound what a generated binding may select. */
  webhookConfiguration: string
  /** The Policy resource a CRD-made policy came from, with its uid; undefined for one made through the REST API. */
  owner(policy: string): PolicyOwner | undefined
  /** A policy's ValidatingAdmissionPolicyGenerated condition may have changed (its resource's status is written again). */
  onConditionChange(policy: string): void
  /** False (VERDICT_GENERATED_VAPS=off): nothing is written or watched, and flagged policies say so. */
  enabled: boolean
}

/** How the leader's last sync of a policy ended. */
interface SyncOutcome {
  /** The generated names held by something else, each with what holds it. */
  conflicts: string[]
  /** Why the last sync failed (tried again after a backoff). */
  error?: string
}

/** setTimeout holds at most 2^31-1 ms; a later expiry is caught by a resync. */
const LONGEST_TIMER_MS = 2_147_483_647

/**
 * Keeps every policy with `generateValidatingAdmissionPolicy: true` in the cluster as the
 * ValidatingAdmissionPolicies and bindings desiredVaps makes of it, and nothing else: created,
 * replaced when the policy, its rulesets or a hand edit make them differ, deleted when a rule
 * goes, the field is switched off, the policy is deleted or becomes not generatable. Objects are
 * found by Verdict's labels (a watch on each kind, filtered by the API server) and by the
 * verdict.dev/policy annotation; a name held by anything else is a Conflict, never overwritten.
 *
 * Every replica watches once some policy asks for them (the webhook trusts the API server with a
 * rule only by what the watch shows: GeneratedVapView); only the leader writes. The watch starts
 * lazily, so a cluster where no policy asks (or whose API server serves no
 * ValidatingAdmissionPolicies) is never asked about them; the leader also looks for leftovers of
 * an earlier run at each resync.
 */
export class GeneratedVapController implements GeneratedVapView {
  readonly #options: GeneratedVapControllerOptions
  readonly #vaps: RestartingInformer<GeneratedObject>
  readonly #bindings: RestartingInformer<GeneratedObject>
  readonly #queue: ReconcileQueue
  readonly #outcomes = new Map<string, SyncOutcome>()
  /** The refusals last logged per policy. */
  readonly #refused = new Map<string, string>()
  readonly #listeners = new Set<() => void>()
  #cluster: ClusterFacts
  #watching = false
  #leading = false
  #resync: NodeJS.Timeout | undefined
  #expiry: NodeJS.Timeout | undefined
  #unsubscribe: (() => void)[] = []
  #reportedUnreadable = false
  #scopeRead = false

  constructor(options: GeneratedVapControllerOptions) {
    this.#options = options
    this.#cluster = { scope: { problem: 'the ValidatingWebhookConfiguration has not been read yet' }, podNamespace: options.podNamespace, serverMinor: undefined }
    this.#vaps = this.#informer(VAPS)
    this.#bindings = this.#informer(BINDINGS)
    this.#queue = new ReconcileQueue({
      handle: (policy) => this.#sync(policy),
      backoff: options.timings.reconcileBackoff,
      onError: (policy, error, retryInMs) => options.logger.warn({ policy, error: describeKubeError(error), retryInMs }, 'keeping the generated ValidatingAdmissionPolicies failed; trying again'),
    })
  }

  start(): void {
    if (!this.#options.enabled) return
    this.#unsubscribe.push(this.#options.catalog.onChange((change) => this.#onDefinitionChange(change)))
    if (this.#options.exceptions) this.#unsubscribe.push(this.#options.exceptions.onChange(() => this.#onExceptionChange()))
    if (this.#flagged().length > 0) this.#watch()
  }

  /** Called by the definition controller as this replica gains or loses the Lease. */
  async setLeading(leading: boolean): Promise<void> {
    this.#leading = leading && this.#options.enabled
    if (!this.#leading) {
      clearInterval(this.#resync)
      clearTimeout(this.#expiry)
      this.#outcomes.clear()
      this.#refused.clear()
      await this.#queue.pause()
      return
    }
    // The cluster is read before the first sync: generating without the webhook's scope would select too much.
    await this.#readCluster()
    if (!this.#leading) return
    this.#queue.resume()
    await this.#syncAll()
    if (!this.#leading) return
    clearInterval(this.#resync)
    this.#resync = setInterval(() => void this.#resyncAll(), this.#options.timings.resyncMs)
    this.#resync.unref()
  }

  idle(): boolean {
    return this.#queue.idle()
  }

  async stop(): Promise<void> {
    this.#leading = false
    for (const unsubscribe of this.#unsubscribe.splice(0)) unsubscribe()
    clearInterval(this.#resync)
    clearTimeout(this.#expiry)
    await this.#queue.pause()
    await Promise.all([this.#vaps.stop(), this.#bindings.stop()])
  }

  // ---- GeneratedVapView: what the webhook trusts ------------------------------------------------

  policy(name: string): ObservedGenerated | undefined {
    return observed(this.#vaps.get(name), true)
  }

  binding(name: string): ObservedGenerated | undefined {
    return observed(this.#bindings.get(name), false)
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  // ---- The status condition ---------------------------------------------------------------------

  /** A stored policy's ValidatingAdmissionPolicyGenerated condition; undefined when it does not ask for generated policies. */
  condition(name: string): ConditionVerdict | undefined {
    const policy = this.#options.catalog.policy(name)
    if (policy?.generateValidatingAdmissionPolicy !== true) return undefined
    const verdict = (holds: boolean, reason: ConditionVerdict['reason'], message: string): ConditionVerdict => ({ type: VAP_CONDITION, holds, reason, message })
    const webhook = 'the webhook judges the policy'
    if (!this.#options.enabled) return verdict(false, 'Disabled', `VERDICT_GENERATED_VAPS is off: no ValidatingAdmissionPolicy is kept; ${webhook}`)
    const desired = this.#desired(policy)
    if (!desired.generatable) return verdict(false, 'NotGeneratable', `${describeRefusals(desired.refusals)}; ${webhook}`)
    const outcome = this.#outcomes.get(name)
    if (outcome?.error !== undefined) return verdict(false, 'Failed', `${outcome.error}; trying again, and until then ${webhook}`)
    if (outcome && outcome.conflicts.length > 0) return verdict(false, 'Conflict', `${outcome.conflicts.join('; ')}; the webhook judges their rules`)
    const pending = desired.pairs.flatMap((pair) => {
      const why = this.#notInForce(pair)
      return why === undefined ? [] : [`${pair.name} (${why})`]
    })
    const names = desired.pairs.map((pair) => pair.name)
    if (pending.length === 0) {
      const count = names.length === 1 ? '1 ValidatingAdmissionPolicy and its binding' : `${names.length} ValidatingAdmissionPolicies and their bindings`
      return verdict(true, 'Generated', `${count} in force (${names.join(', ')}): the API server judges the policy's rules, and the webhook leaves them to it`)
    }
    return verdict(false, 'Pending', `${pending.length} of ${names.length} not in force yet: ${pending.join(', ')}; the webhook judges their rules until they are`)
  }

  /** Why a pair does not judge as generated yet, by what the watch shows; undefined when it does. */
  #notInForce(pair: DesiredPair): string | undefined {
    const policy = this.#vaps.get(pair.name)
    const binding = this.#bindings.get(pair.name)
    if (!policy || !binding) return 'not in the cluster yet'
    if (!sameVapSpec(policy.spec, pair.policy.spec) || !sameBindingSpec(binding.spec, pair.binding.spec)) return 'differs from the generated one'
    if (!typeChecked(policy)) return 'not type-checked by the API server yet'
    return undefined
  }

  // ---- What starts a sync -----------------------------------------------------------------------

  #informer(kind: GeneratedKind): RestartingInformer<GeneratedObject> {
    return new RestartingInformer<GeneratedObject>({
      kubeConfig: this.#options.kubeConfig,
      path: kind.path,
      labelSelector: GENERATED_SELECTOR,
      list: () => this.#list(kind),
      what: `${kind.plural}.admissionregistration.k8s.io`,
      logger: this.#options.logger,
      backoff: this.#options.timings.watchBackoff,
      onEvent: (event, object) => {
        const policy = generatedFrom(object)
        if (policy !== undefined && this.#leading) {
          this.#queue.add(policy)
          this.#options.onConditionChange(policy)
        }
        // A name freed: a policy in Conflict over it may take it now.
        if (event === 'delete' && this.#leading) for (const [name, outcome] of this.#outcomes) if (outcome.conflicts.length > 0) this.#queue.add(name)
        for (const listener of this.#listeners) listener()
      },
    })
  }

  async #list(kind: GeneratedKind): Promise<KubernetesListObject<GeneratedObject>> {
    const answer = await kubeRequest(this.#options.kubeConfig, 'GET', kind.path, { labelSelector: GENERATED_SELECTOR })
    if (answer.status !== 200) throw kubeError(answer, `listing ${kind.plural}`)
    return answer.body as KubernetesListObject<GeneratedObject>
  }

  #watch(): void {
    if (this.#watching || !this.#options.enabled) return
    this.#watching = true
    this.#vaps.start()
    this.#bindings.start()
  }

  #flagged(): Policy[] {
    return this.#options.catalog.policies().filter((policy) => policy.generateValidatingAdmissionPolicy === true)
  }

  #onDefinitionChange(change: DefinitionChange): void {
    if (this.#flagged().length > 0) this.#watch()
    if (!this.#leading) return
    if (change.kind === 'policy') this.#queue.add(change.name)
    else this.#queueAll()
  }

  #onExceptionChange(): void {
    if (!this.#leading) return
    this.#queueAll()
    this.#scheduleExpiry()
    for (const policy of this.#flagged()) this.#options.onConditionChange(policy.name)
  }

  /** Every policy that asks, and every policy something generated says it came from (leftovers to delete). */
  #queueAll(): void {
    for (const policy of this.#flagged()) this.#queue.add(policy.name)
    for (const object of [...this.#vaps.list(), ...this.#bindings.list()]) {
      const policy = generatedFrom(object)
      if (policy !== undefined) this.#queue.add(policy)
    }
  }

  /** The cluster read again (webhook scope, version), then everything synced. */
  async #resyncAll(): Promise<void> {
    if (!this.#leading) return
    const before = canonicalJson(this.#cluster)
    await this.#readCluster()
    if (canonicalJson(this.#cluster) !== before) for (const policy of this.#flagged()) this.#options.onConditionChange(policy.name)
    await this.#syncAll()
  }

  /** Leftovers looked for (when not watching yet), every policy that asks and every one something generated came from synced. */
  async #syncAll(): Promise<void> {
    if (!this.#leading) return
    if (!this.#watching && (this.#flagged().length > 0 || (await this.#leftoversExist()))) this.#watch()
    if (!this.#leading) return
    this.#queueAll()
    this.#scheduleExpiry()
  }

  /** An exception that stops reaching a policy at its expiresAt may make it generatable then: everything is synced at that instant. */
  #scheduleExpiry(): void {
    clearTimeout(this.#expiry)
    const nowMs = this.#options.now().getTime()
    const next = Math.min(...(this.#options.exceptions?.stored() ?? []).flatMap((exception) => (exception.expiresAt === undefined ? [] : [Date.parse(exception.expiresAt)])).filter((at) => at > nowMs))
    if (!Number.isFinite(next) || next - nowMs > LONGEST_TIMER_MS) return
    this.#expiry = setTimeout(() => {
      this.#queueAll()
      for (const policy of this.#flagged()) this.#options.onConditionChange(policy.name)
      this.#scheduleExpiry()
    }, next - nowMs)
    this.#expiry.unref()
  }

  // ---- The leader's sync of one policy ---------------------------------------------------------

  async #sync(name: string): Promise<HandleResult> {
    const policy = this.#options.catalog.policy(name)
    if (!this.#watching) {
      // Nothing asks and nothing generated was found: there is nothing to keep or delete.
      if (policy?.generateValidatingAdmissionPolicy !== true) return 'done'
      this.#watch()
    }
    if (!this.#vaps.synced() || !this.#bindings.synced()) return 'wait'
    const desired: DesiredVaps | undefined = policy?.generateValidatingAdmissionPolicy === true ? this.#desired(policy) : undefined
    this.#reportRefusals(name, desired)
    const pairs = desired?.generatable ? desired.pairs : []
    const conflicts: string[] = []
    try {
      for (const pair of pairs) {
        const conflict = (await this.#apply(VAPS, pair.policy, name)) ?? (await this.#apply(BINDINGS, pair.binding, name))
        if (conflict !== undefined) conflicts.push(conflict)
      }
      const wanted = new Set(pairs.map((pair) => pair.name))
      // Bindings first: a binding whose policy is gone only logs in the API server, but it is still Verdict's to remove.
      for (const kind of [BINDINGS, VAPS]) {
        for (const object of this.#informerOf(kind).list()) {
          const objectName = object.metadata?.name ?? ''
          if (generatedFrom(object) === name && !wanted.has(objectName)) await this.#delete(kind, object, name)
        }
      }
    } catch (error) {
      this.#record(name, { conflicts, error: describeKubeError(error) })
      throw error
    }
    this.#record(name, { conflicts })
    return 'done'
  }

  /**
   * Why a policy that asks is not generated, logged when it changes: the only place it shows for a
   * policy made through the REST API, which has no status.
   */
  #reportRefusals(name: string, desired: DesiredVaps | undefined): void {
    const reasons = desired && !desired.generatable ? describeRefusals(desired.refusals) : undefined
    if (reasons === this.#refused.get(name)) return
    if (reasons === undefined) {
      this.#refused.delete(name)
      return
    }
    this.#refused.set(name, reasons)
    this.#options.logger.warn({ policy: name, reasons }, 'the policy asks for generated ValidatingAdmissionPolicies but cannot be generated; the webhook judges it')
  }

  #record(name: string, outcome: SyncOutcome): void {
    const before = this.#outcomes.get(name)
    this.#outcomes.set(name, outcome)
    if (canonicalJson(before) !== canonicalJson(outcome)) this.#options.onConditionChange(name)
  }

  #desired(policy: Policy): DesiredVaps {
    return desiredVaps(policy, this.#options.catalog.rulesets(), {
      exceptions: this.#options.exceptions?.stored() ?? [],
      now: this.#options.now(),
      cluster: this.#cluster,
      owner: this.#options.owner(policy.name),
    })
  }

  /**
   * Makes one object what is desired; a name held by something else is a conflict (its
   * description), never overwritten. The watch may lag behind this replica's own writes: a create
   * that finds the object there, or a replace that finds it changed (409), reads it and goes on
   * from what it read.
   */
  async #apply(kind: GeneratedKind, desired: DesiredPair['policy'] | DesiredPair['binding'], policy: string): Promise<string | undefined> {
    const name = desired.metadata.name
    let current = this.#informerOf(kind).get(name)
    if (!current) {
      const created = await this.#request('POST', kind.path, desired)
      if (created.status === 200 || created.status === 201) {
        this.#options.logger.info({ [kindField(kind)]: name, policy }, `${kind.kind} generated`)
        return undefined
      }
      // There already, but not watched (yet): written a moment ago, a hand edit took Verdict's labels away, or it is not Verdict's.
      if (created.status !== 409) throw kubeError(created, `creating ${kind.kind} "${name}"`)
      current = await this.#read(kind, name)
    }
    for (let attempt = 1; ; attempt++) {
      if (generatedFrom(current) !== policy) return conflict(kind, name, current)
      if (sameObject(kind, current, desired)) return undefined
      const replaced = await this.#request('PUT', `${kind.path}/${encodeURIComponent(name)}`, replacement(current, desired))
      if (replaced.status === 200) {
        this.#options.logger.info({ [kindField(kind)]: name, policy }, `${kind.kind} brought back to the generated one`)
        return undefined
      }
      if (replaced.status !== 409 || attempt === 3) throw kubeError(replaced, `replacing ${kind.kind} "${name}"`)
      current = await this.#read(kind, name)
    }
  }

  async #read(kind: GeneratedKind, name: string): Promise<GeneratedObject> {
    const found = await this.#request('GET', `${kind.path}/${encodeURIComponent(name)}`)
    if (found.status !== 200) throw kubeError(found, `reading ${kind.kind} "${name}"`)
    return found.body as GeneratedObject
  }

  async #delete(kind: GeneratedKind, object: GeneratedObject, policy: string): Promise<void> {
    const name = object.metadata?.name ?? ''
    const uid = object.metadata?.uid
    const deleted = await this.#request('DELETE', `${kind.path}/${encodeURIComponent(name)}`, uid ? { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid } } : undefined)
    // 404: gone already; 409: a newer object of that name (its own watch event brings it back here).
    if (deleted.status !== 200 && deleted.status !== 202 && deleted.status !== 404 && deleted.status !== 409) throw kubeError(deleted, `deleting ${kind.kind} "${name}"`)
    if (deleted.status === 200 || deleted.status === 202) this.#options.logger.info({ [kindField(kind)]: name, policy }, `${kind.kind} no longer generated: deleted`)
  }

  #request(method: string, path: string, body?: unknown): Promise<KubeResponse> {
    return kubeRequest(this.#options.kubeConfig, method, path, {}, body, { timeoutMs: 30_000 })
  }

  #informerOf(kind: GeneratedKind): RestartingInformer<GeneratedObject> {
    return kind === VAPS ? this.#vaps : this.#bindings
  }

  // ---- What the cluster says --------------------------------------------------------------------

  /**
   * The webhook's scope and the API server's version. A scope that cannot be read keeps the one
   * read before: a blip must not delete every generated policy; never read, it is a problem that
   * keeps every policy from being generated.
   */
  async #readCluster(): Promise<void> {
    const scope = await this.#webhookScope()
    const serverMinor = await this.#serverMinor()
    if ('unreadable' in scope) {
      this.#options.logger.warn({ webhookConfiguration: this.#options.webhookConfiguration, error: scope.unreadable }, 'the ValidatingWebhookConfiguration could not be read; generated bindings keep the scope read before')
      if (!this.#scopeRead) this.#cluster = { ...this.#cluster, scope: { problem: `the ValidatingWebhookConfiguration "${this.#options.webhookConfiguration}" could not be read (${scope.unreadable}), so what the webhook is sent is not known` } }
    } else {
      this.#scopeRead = true
      this.#cluster = { ...this.#cluster, scope }
    }
    this.#cluster = { ...this.#cluster, serverMinor: serverMinor ?? this.#cluster.serverMinor }
  }

  /** The selectors of the webhook configuration's webhooks (all alike), why they cannot bound a binding, or why they could not be read. */
  async #webhookScope(): Promise<WebhookScope | { unreadable: string }> {
    const name = this.#options.webhookConfiguration
    let answer: KubeResponse
    try {
      answer = await this.#request('GET', `/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/${encodeURIComponent(name)}`)
    } catch (error) {
      return { unreadable: describeKubeError(error) }
    }
    // Without one (a local run against a cluster) the webhook is sent nothing; only Verdict's own namespace is left out.
    if (answer.status === 404) return {}
    if (answer.status !== 200) return { unreadable: kubeError(answer, 'reading it').message }
    const webhooks = ((answer.body as { webhooks?: unknown[] } | undefined)?.webhooks ?? []) as { namespaceSelector?: unknown; objectSelector?: unknown }[]
    const scopes = new Set(webhooks.map((webhook) => canonicalJson({ namespaceSelector: emptyAsUndefined(webhook.namespaceSelector), objectSelector: emptyAsUndefined(webhook.objectSelector) })))
    if (scopes.size > 1) return { problem: `the webhooks of ValidatingWebhookConfiguration "${name}" select different namespaces or objects, so no one binding selects what the webhook is sent` }
    const first = webhooks[0]
    if (!first) return {}
    const scope: WebhookScope = {}
    const namespaceSelector = emptyAsUndefined(first.namespaceSelector)
    const objectSelector = emptyAsUndefined(first.objectSelector)
    if (namespaceSelector) scope.namespaceSelector = namespaceSelector as NonNullable<typeof scope.namespaceSelector>
    if (objectSelector) scope.objectSelector = objectSelector as NonNullable<typeof scope.objectSelector>
    return scope
  }

  /** The API server's minor version; undefined (not checked) when it cannot be read. */
  async #serverMinor(): Promise<number | undefined> {
    try {
      const answer = await this.#request('GET', '/version')
      const minor = Number.parseInt(String((answer.body as { minor?: unknown } | undefined)?.minor ?? ''), 10)
      if (answer.status === 200 && Number.isInteger(minor)) return minor
    } catch {
      // Reported below, once.
    }
    if (!this.#reportedUnreadable) this.#options.logger.warn({}, "the API server's version could not be read; generated ValidatingAdmissionPolicies are written without checking it")
    this.#reportedUnreadable = true
    return undefined
  }

  /** Whether anything Verdict generated is in the cluster, for a leader that does not watch yet. */
  async #leftoversExist(): Promise<boolean> {
    try {
      const answer = await kubeRequest(this.#options.kubeConfig, 'GET', VAPS.path, { labelSelector: GENERATED_SELECTOR, limit: '1' }, undefined, { timeoutMs: 30_000 })
      return answer.status === 200 && ((answer.body as { items?: unknown[] } | undefined)?.items?.length ?? 0) > 0
    } catch {
      return false
    }
  }
}

/** The generated object over the one there (its resourceVersion guards against a write in between): spec, Verdict's labels and annotations added, the owner. */
function replacement(current: GeneratedObject, desired: DesiredPair['policy'] | DesiredPair['binding']): unknown {
  const metadata = current.metadata ?? {}
  return {
    ...desired,
    metadata: {
      ...metadata,
      labels: { ...metadata.labels, ...desired.metadata.labels },
      annotations: { ...metadata.annotations, ...desired.metadata.annotations },
      ownerReferences: desired.metadata.ownerReferences,
      managedFields: undefined,
    },
  }
}

function observed(object: GeneratedObject | undefined, isPolicy: boolean): ObservedGenerated | undefined {
  if (!object) return undefined
  return { generatedFrom: generatedFrom(object), spec: object.spec, typeChecked: isPolicy && typeChecked(object) }
}

/** Spec, Verdict's labels and annotations and the owner as generated (anything else on the object is left as it is). */
function sameObject(kind: GeneratedKind, current: GeneratedObject, desired: DesiredPair['policy'] | DesiredPair['binding']): boolean {
  const spec = kind === VAPS ? sameVapSpec(current.spec, (desired as DesiredPair['policy']).spec) : sameBindingSpec(current.spec, (desired as DesiredPair['binding']).spec)
  if (!spec) return false
  const metadata = current.metadata ?? {}
  const includes = (have: Record<string, string> | undefined, want: Record<string, string> | undefined) => Object.entries(want ?? {}).every(([key, value]) => have?.[key] === value)
  return (
    includes(metadata.labels, desired.metadata.labels) &&
    includes(metadata.annotations, desired.metadata.annotations) &&
    canonicalJson(metadata.ownerReferences ?? []) === canonicalJson(desired.metadata.ownerReferences ?? [])
  )
}

function conflict(kind: GeneratedKind, name: string, object: GeneratedObject): string {
  const from = generatedFrom(object)
  const holder = from === undefined ? "is not Verdict's" : `was generated from Verdict policy "${from}"`
  return `${kind.kind} "${name}" exists and ${holder}: it is left alone`
}

function describeRefusals(refusals: readonly Refusal[]): string {
  return refusals.map((refusal) => `${refusal.rule === undefined ? '' : `${refusal.ruleset ?? ''}/${refusal.rule} `}${refusal.field}: ${refusal.reason}`).join('; ')
}

function kindField(kind: GeneratedKind): string {
  return kind === VAPS ? 'validatingAdmissionPolicy' : 'validatingAdmissionPolicyBinding'
}

function emptyAsUndefined(selector: unknown): Record<string, unknown> | undefined {
  if (typeof selector !== 'object' || selector === null) return undefined
  const { matchLabels, matchExpressions } = selector as { matchLabels?: Record<string, string>; matchExpressions?: unknown[] }
  const out: Record<string, unknown> = {}
  if (matchLabels && Object.keys(matchLabels).length > 0) out.matchLabels = matchLabels
  if (matchExpressions && matchExpressions.length > 0) out.matchExpressions = matchExpressions
  return Object.keys(out).length > 0 ? out : undefined
}

function kubeError(answer: KubeResponse, what: string): Error {
  const message = (answer.body as { message?: unknown } | undefined)?.message
  return new Error(`${what}: HTTP ${answer.status}${typeof message === 'string' ? `: ${message}` : ''}`)
}
