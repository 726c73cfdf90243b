import type { KubeConfig } from '@kubernetes/client-node'
import type { NamespaceSource } from '../../admission/namespace-source.js'
import type { ClusterData } from '../../engine/index.js'
import type { ControllerLogger } from '../../k8s/controller-logger.js'
import type { DefinitionCatalog } from '../../services/definition-catalog.js'
import type { AuditRows } from '../../store/audits-repository.js'
import { forgetVerdictsNotSeenSince, noteVerdicts } from '../../store/background-verdicts-repository.js'
import type { Db } from '../../store/db.js'
import { scanCluster, type ScanOutcome, type ScanSettings } from './scan-cluster.js'
import { changedVerdictAudits, notedVerdicts } from './verdict-audits.js'

export interface BackgroundScannerOptions {
  kubeConfig: KubeConfig
  catalog: DefinitionCatalog
  namespaces: NamespaceSource
  cluster?: ClusterData
  db: Db
  /** Where audits go: the service's audit writer (group commit, spool through an outage). */
  writeAudits: (rows: AuditRows) => Promise<unknown>
  logger: ControllerLogger
  /** Only the leader scans. */
  isLeader: () => boolean
  /** 0: no scans at all. */
  intervalMs: number
  settings: Omit<ScanSettings, 'writeReports'>
  /** How long a policy change waits for the next one before the scan starts (kubectl apply -f dir/ makes several). */
  settleMs?: number
  /** How often leadership is checked, so a new leader scans without waiting a whole interval. */
  leadershipCheckMs?: number
  now?: () => Date
  onScanned?: (outcome: ScanOutcome) => void
}

/**
 * Scans what already runs, in the leader only: when it becomes leader, when a policy or ruleset
 * changes (after `settleMs` without another change), and every `intervalMs`. One scan at a time;
 * a change during a scan asks for one more after it. Each page's verdicts are noted in the store
 * and only changed ones are audited (source `background`), so the audit tables do not grow with
 * the interval; a scan that read every target then forgets the objects it did not see.
 */
export class BackgroundScanner {
  readonly #options: BackgroundScannerOptions
  readonly #timers = new Set<NodeJS.Timeout>()
  #unsubscribe: (() => void) | undefined
  #running: Promise<void> | undefined
  #again = false
  #wasLeader = false
  #stopped = false
  #lastScanAt = 0
  #settleTimer: NodeJS.Timeout | undefined
  readonly #abort = new AbortController()

  constructor(options: BackgroundScannerOptions) {
    this.#options = options
  }

  start(): void {
    if (this.#options.intervalMs <= 0) return
    this.#unsubscribe = this.#options.catalog.onChange(() => this.#settle())
    this.#every(this.#options.leadershipCheckMs ?? 2_000, () => {
      const leader = this.#options.isLeader()
      const due = Date.now() - this.#lastScanAt >= this.#options.intervalMs
      if (leader && (!this.#wasLeader || due)) this.request()
      this.#wasLeader = leader
    })
  }

  /** Asks for a scan now (or right after the one running); ignored when this replica does not lead. */
  request(): void {
    if (this.#stopped || !this.#options.isLeader()) return
    if (this.#running) {
      this.#again = true
      return
    }
    this.#running = this.#loop().finally(() => {
      this.#running = undefined
    })
  }

  /** Resolves when no scan runs or is asked for. */
  async idle(): Promise<void> {
    while (this.#running) await this.#running
  }

  /** Stops scheduling and ends a running scan at its next page (a scan of a large cluster takes minutes). */
  async stop(): Promise<void> {
    this.#stopped = true
    this.#abort.abort(new Error('the background scanner stopped'))
    this.#unsubscribe?.()
    for (const timer of this.#timers) clearTimeout(timer)
    this.#timers.clear()
    await this.idle()
  }

  async #loop(): Promise<void> {
    do {
      this.#again = false
      this.#lastScanAt = Date.now()
      try {
        const outcome = await this.scanOnce()
        this.#options.onScanned?.(outcome)
      } catch (error) {
        if (this.#abort.signal.aborted) this.#options.logger.info({}, 'background scan stopped before its end')
        else this.#options.logger.error({ error: error instanceof Error ? error.message : String(error) }, 'background scan failed')
      }
    } while (this.#again && !this.#stopped && this.#options.isLeader())
  }

  /** One scan, whoever leads: what `request` runs, and what tests call. */
  async scanOnce(): Promise<ScanOutcome> {
    const { catalog, db, logger } = this.#options
    const now = this.#options.now?.() ?? new Date()
    const started = Date.now()
    const outcome = await scanCluster({
      kubeConfig: this.#options.kubeConfig,
      definitions: { policies: catalog.policies(), rulesets: catalog.rulesets(), compile: (ruleset) => catalog.compiled(ruleset) },
      namespaces: this.#options.namespaces,
      ...(this.#options.cluster ? { cluster: this.#options.cluster } : {}),
      settings: { ...this.#options.settings, writeReports: true },
      now,
      signal: this.#abort.signal,
      onPage: async (page) => {
        const changed = await noteVerdicts(db, page.flatMap(notedVerdicts), now)
        if (changed.length > 0) await this.#options.writeAudits(changedVerdictAudits(page, changed, now))
      },
    })
    const forgotten = outcome.failures.length === 0 ? await forgetVerdictsNotSeenSince(db, now) : 0
    const fields = {
      targets: outcome.targets.length,
      objectsRead: outcome.objectsRead,
      objectsJudged: outcome.objectsJudged,
      restarts: outcome.restarts,
      reports: outcome.reports,
      forgotten,
      millis: Date.now() - started,
    }
    if (outcome.failures.length > 0) logger.warn({ ...fields, failures: outcome.failures }, 'background scan done, with lists that could not be read')
    else logger.info(fields, 'background scan done')
    if (outcome.unlistable.length > 0) logger.warn({ unlistable: outcome.unlistable }, 'background scans cannot list some kinds the policies name')
    return outcome
  }

  #settle(): void {
    const existing = this.#settleTimer
    if (existing) {
      clearTimeout(existing)
      this.#timers.delete(existing)
    }
    const timer = setTimeout(() => {
      this.#timers.delete(timer)
      this.#settleTimer = undefined
      this.request()
    }, this.#options.settleMs ?? 1_000)
    timer.unref()
    this.#settleTimer = timer
    this.#timers.add(timer)
  }

  #every(ms: number, action: () => void): void {
    const tick = (): void => {
      if (this.#stopped) return
      action()
      const timer = setTimeout(() => {
        this.#timers.delete(timer)
        tick()
      }, ms)
      timer.unref()
      this.#timers.add(timer)
    }
    tick()
  }
}
