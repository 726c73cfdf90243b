import { DefinitionController, type ControllerTimings, type DefinitionControllerOptions } from '../../src/k8s/definition-controller.js'
import type { ControllerLogger } from '../../src/k8s/controller-logger.js'
import { DefinitionCatalog } from '../../src/services/definition-catalog.js'
import type { Db } from '../../src/store/db.js'
import { createTestDatabase, resetTestDatabase, type TestDatabase } from '../support/databases.js'
import { FakeKubeApi, type Json } from './fake-kube-api.js'
import { waitFor } from './wait-for.js'

/** Short enough that takeovers and retries happen within a test; ratios as in production. */
export const FAST_TIMINGS: Partial<ControllerTimings> = {
  leaseDurationMs: 1_000,
  renewPeriodMs: 100,
  renewDeadlineMs: 600,
  retryPeriodMs: 100,
  resyncMs: 60_000,
  reconcileBackoff: { initialMs: 50, maxMs: 400 },
  watchBackoff: { initialMs: 50, maxMs: 400 },
  webhookDebounceMs: 20,
}

export interface LogLine {
  level: string
  message: string
  fields: Record<string, unknown>
}

/** Keeps what the controller logs, for assertions and for reading a failure (VERDICT_TEST_LOGS=1 prints it). */
export function recordingLogger(identity: string): ControllerLogger & { lines: LogLine[] } {
  const lines: LogLine[] = []
  const log = (level: string) => (fields: Record<string, unknown>, message: string) => {
    lines.push({ level, message, fields })
    if (process.env.VERDICT_TEST_LOGS) console.log(identity, level, message, JSON.stringify(fields))
  }
  return { lines, debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') }
}

export interface Replica {
  identity: string
  controller: DefinitionController
  catalog: DefinitionCatalog
  /** `kind:result` of every reconcile, as the metrics see them. */
  reconciles: string[]
  logger: ReturnType<typeof recordingLogger>
  stop(): Promise<void>
}

/** A fake API server, one PGlite store, and as many controller replicas as a test starts. */
export class ControllerHarness {
  readonly api: FakeKubeApi
  readonly #database: TestDatabase
  readonly #ownsDatabase: boolean
  readonly #replicas: Replica[] = []

  private constructor(api: FakeKubeApi, database: TestDatabase, ownsDatabase: boolean) {
    this.api = api
    this.#database = database
    this.#ownsDatabase = ownsDatabase
  }

  /**
   * On `shared` (a file's useTestDatabase('pglite')), emptied first and kept at close: a copy of its
   * own per test costs a second or two. Without it, on a copy of its own.
   */
  static async start(shared?: TestDatabase): Promise<ControllerHarness> {
    if (shared) await resetTestDatabase(shared.db)
    const [api, database] = await Promise.all([FakeKubeApi.start(), shared ?? createTestDatabase('pglite')])
    return new ControllerHarness(api, database, shared === undefined)
  }

  get db(): Db {
    return this.#database.db
  }

  /** A replica with its own catalog on the shared store; its bearer token is its identity. */
  async replica(identity: string, timings: Partial<ControllerTimings> = {}, options: Partial<Pick<DefinitionControllerOptions, 'generatedVaps' | 'exceptions'>> = {}): Promise<Replica> {
    const catalog = new DefinitionCatalog(this.db)
    await catalog.start()
    const logger = recordingLogger(identity)
    const reconciles: string[] = []
    const controller = new DefinitionController({
      kubeConfig: this.api.kubeConfig(identity),
      db: this.db,
      catalog,
      logger,
      identity,
      leaseNamespace: 'verdict',
      webhookConfiguration: 'verdict',
      timings: { ...FAST_TIMINGS, ...timings },
      onReconciled: (kind, result) => reconciles.push(`${kind}:${result}`),
      ...options,
    })
    controller.start()
    let stopped = false
    const replica: Replica = {
      identity,
      controller,
      catalog,
      logger,
      reconciles,
      async stop() {
        if (stopped) return
        stopped = true
        await controller.stop()
        await catalog.stop()
      },
    }
    this.#replicas.push(replica)
    return replica
  }

  /** A replica that holds the lease and has reconciled what it found. */
  async leader(identity = 'replica-a', timings: Partial<ControllerTimings> = {}, options: Parameters<ControllerHarness['replica']>[2] = {}): Promise<Replica> {
    const replica = await this.replica(identity, timings, options)
    await waitFor(`${identity} to lead`, () => replica.controller.isLeader())
    await this.settled(replica)
    return replica
  }

  /** Waits until the replica has nothing queued or in hand. */
  async settled(replica: Replica): Promise<void> {
    await waitFor(`${replica.identity} to settle`, () => replica.controller.idle())
  }

  async close(): Promise<void> {
    for (const replica of this.#replicas) await replica.stop()
    await this.api.close()
    if (this.#ownsDatabase) await this.#database.dispose()
  }
}

export function rulesetResource(name: string, spec: Json, labels?: Record<string, string>): Json {
  return { apiVersion: 'verdict.dev/v1alpha1', kind: 'Ruleset', metadata: labels ? { name, labels } : { name }, spec }
}

export function policyResource(name: string, spec: Json): Json {
  return { apiVersion: 'verdict.dev/v1alpha1', kind: 'Policy', metadata: { name }, spec }
}

export const NO_LATEST_TAG = {
  name: 'no-latest-tag',
  severity: 'high',
  match: { kinds: ['Pod'] },
  validate: { cel: [{ expression: "object.spec.containers.all(c, !c.image.endsWith(':latest'))", message: 'container images must be pinned' }] },
}

export const TEAM_LABEL = {
  name: 'team-label',
  validate: { cel: [{ expression: "object.metadata.?labels.?team.orValue('') != ''" }] },
}

/** The Ready condition of a resource, as the controller last wrote it. */
export function readyOf(api: FakeKubeApi, resource: 'rulesets' | 'policies', name: string): Json | undefined {
  const conditions = ((api.get(resource, name)?.status as Json | undefined)?.conditions ?? []) as Json[]
  return conditions.find((condition) => condition.type === 'Ready')
}

export function statusOf(api: FakeKubeApi, resource: 'rulesets' | 'policies', name: string): Json | undefined {
  return api.get(resource, name)?.status as Json | undefined
}
