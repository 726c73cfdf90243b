import type { KubeConfig } from '@kubernetes/client-node'
import type { NamespaceSource } from '../../admission/namespace-source.js'
import type { ReportsApiMode } from '../../config.js'
import { judgesInBackground, namesPolicy, resolvePolicyRulesets, type ClusterData, type Exemptions } from '../../engine/index.js'
import type { ViolationEvents } from '../../events/violation.js'
import type { ControllerLogger } from '../../k8s/controller-logger.js'
import type { DefinitionCatalog, DefinitionChange } from '../../services/definition-catalog.js'
import type { ExceptionChange } from '../../services/exception-catalog.js'
import type { AuditRows } from '../../store/audits-repository.js'
import { forgetVerdictsNotSeenSince, noteVerdicts } from '../../store/background-verdicts-repository.js'
import type { Db } from '../../store/db.js'
import { chooseReportApis, groupVersion, type ReportApiChoice } from './report-api-choice.js'
import { scanViolations } from './scan-events.js'
import { scanCluster, type ScanOutcome, type ScannedVerdicts, type ScanSettings } from './scan-cluster.js'
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
  settings: ScanSettings
  /** Where reports go (VERDICT_REPORTS_API); `auto` when absent. */
  reportsApi?: ReportsApiMode
  /** How long a policy change waits for the next one before the scan starts (kubectl apply -f dir/ makes several). */
  settleMs?: number
  /** How often leadership is checked, so a new leader scans without waiting a whole interval. */
  leadershipCheckMs?: number
  now?: () => Date
  /** The PolicyExceptions a scan at `now` honours (an expired one no longer does: the scan reports what it covered). */
  exemptions?: (now: Date) => Exemptions
  /** Subscribes to exception changes: the policies a changed exception names are scanned again, as for a policy change. */
  onExceptionChange?: (listener: (change: ExceptionChange) => void) => () => void
  onScanned?: (outcome: ScanOutcome) => void
  /** Hears of each rule result an exception let through, page by page. */
  onExempted?: (exception: string) => void
  /** Where the violations a scan finds anew are recorded as Kubernetes Events; none when absent. */
  events?: ViolationEvents
}

/**
 * Scans what already runs, in the leader only: every background policy when it becomes leader and
 * every `intervalMs`; when a policy or ruleset changes (after `settleMs` without another change),
 * only the policies the changes touch (the changed policies, and those that use or used a changed
 * ruleset), so editing one policy does not relist the whole cluster. One scan at a time; what is
 * asked for during a scan runs after it. Each page's verdicts are noted in the store and only
 * changed ones are audited (source `background`), so the audit tables do not grow with the
 * interval; a scan that read every target then forgets the objects it did not see, for the
 * policies it scanned. A scan that fails leaves what it was asked for to the next full scan.
 */
export class BackgroundScanner {
  readonly #options: BackgroundScannerOptions
  readonly #timers = new Set<NodeJS.Timeout>()
  #unsubscribe: (() => void) | undefined
  #unsubscribeExceptions: (() => void) | undefined
  #running: Promise<void> | undefined
  /** What is asked for and not yet scanned: everything, or the changes since the last scan. */
  #wanted: { full: boolean; policies: Set<string>; rulesets: Set<string> } = { full: false, policies: new Set(), rulesets: new Set() }
  /** Per policy, the rulesets its last scan applied: a change to one of them rescans it even when the policy no longer picks it. */
  readonly #lastRulesets = new Map<string, readonly string[]>()
  /** A full scan finished: until then, a change rescans everything (nothing is known to be current). */
  #scannedAll = false
  #wasLeader = false
  #stopped = false
  #lastScanAt = 0
  #settleTimer: NodeJS.Timeout | undefined
  /** The report groups of the last full scan (a scan of some policies writes where the last full scan did). */
  #reportApis: ReportApiChoice | undefined
  readonly #abort = new AbortController()

  constructor(options: BackgroundScannerOptions) {
    this.#options = options
  }

  start(): void {
    if (this.#options.intervalMs <= 0) return
    this.#unsubscribe = this.#options.catalog.onChange((change) => this.#changed(change))
    this.#unsubscribeExceptions = this.#options.onExceptionChange?.((change) => this.#exceptionChanged(change))
    this.#every(this.#options.leadershipCheckMs ?? 2_000, () => {
      const leader = this.#options.isLeader()
      const due = Date.now() - this.#lastScanAt >= this.#options.intervalMs
      if (leader && (!this.#wasLeader || due)) this.request()
      this.#wasLeader = leader
    })
  }

  /** Asks for a scan of every background policy now (or right after the one running); ignored when this replica does not lead. */
  request(): void {
    this.#wanted.full = true
    this.#run()
  }

  #run(): void {
    if (this.#stopped || !this.#options.isLeader() || this.#running) return
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
    this.#unsubscribeExceptions?.()
    for (const timer of this.#timers) clearTimeout(timer)
    this.#timers.clear()
    await this.idle()
  }

  async #loop(): Promise<void> {
    while (!this.#stopped && this.#options.isLeader()) {
      const only = this.#takeWanted()
      if (only === 'nothing') return
      if (only === undefined) this.#lastScanAt = Date.now()
      try {
        const outcome = await this.scanOnce(only)
        this.#options.onScanned?.(outcome)
      } catch (error) {
        if (this.#abort.signal.aborted) this.#options.logger.info({}, 'background scan stopped before its end')
        else this.#options.logger.error({ error: error instanceof Error ? error.message : String(error) }, 'background scan failed')
      }
    }
  }

  /** What the next scan covers: every policy (undefined), the policies the changes touch, or nothing. */
  #takeWanted(): ReadonlySet<string> | undefined | 'nothing' {
    const wanted = this.#wanted
    this.#wanted = { full: false, policies: new Set(), rulesets: new Set() }
    if (wanted.full || (!this.#scannedAll && (wanted.policies.size > 0 || wanted.rulesets.size > 0))) return undefined
    const only = new Set(wanted.policies)
    if (wanted.rulesets.size > 0) {
      const rulesets = this.#options.catalog.rulesets()
      for (const policy of this.#options.catalog.policies()) {
        const { found, missing } = resolvePolicyRulesets(policy, rulesets)
        if ([...found.map((ruleset) => ruleset.name), ...missing].some((name) => wanted.rulesets.has(name))) only.add(policy.name)
      }
      for (const [policy, used] of this.#lastRulesets) if (used.some((name) => wanted.rulesets.has(name))) only.add(policy)
    }
    return only.size > 0 ? only : 'nothing'
  }

  /**
   * One scan, whoever leads: what the schedule runs, and what tests call. `only`: these policies
   * alone (their kinds listed, their reports written and pruned, their forgotten verdicts dropped).
   */
  async scanOnce(only?: ReadonlySet<string>): Promise<ScanOutcome> {
    const { catalog, db, logger } = this.#options
    const now = this.#options.now?.() ?? new Date()
    const started = Date.now()
    const reports = await this.#chooseReportApis(only === undefined)
    const outcome = await scanCluster({
      kubeConfig: this.#options.kubeConfig,
      definitions: { policies: catalog.policies(), rulesets: catalog.rulesets(), compile: (ruleset) => catalog.compiled(ruleset) },
      namespaces: this.#options.namespaces,
      ...(this.#options.cluster ? { cluster: this.#options.cluster } : {}),
      settings: this.#options.settings,
      ...('problem' in reports ? {} : { reports }),
      now,
      ...(this.#options.exemptions ? { exemptions: this.#options.exemptions(now) } : {}),
      ...(only ? { only } : {}),
      signal: this.#abort.signal,
      onPage: async (page) => {
        if (this.#options.onExempted) for (const exception of exemptionsIn(page)) this.#options.onExempted(exception)
        const changed = await noteVerdicts(db, page.flatMap(notedVerdicts), now)
        if (changed.length > 0) await this.#options.writeAudits(changedVerdictAudits(page, changed, now))
        const events = this.#options.events
        if (events && changed.length > 0) for (const violation of scanViolations(page, changed, events)) events.record(violation)
      },
    })
    if ('problem' in reports) outcome.reportsNotWritten = reports.problem
    const complete = outcome.failures.length === 0
    const forgotten = complete ? await forgetVerdictsNotSeenSince(db, now, only ? [...only] : undefined) : 0
    this.#remember(outcome, only, complete)
    const fields = {
      scope: only ? [...only] : 'all',
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
    if (outcome.reportsNotWritten !== undefined) logger.warn({ reason: outcome.reportsNotWritten }, 'background scan could not write its reports')
    return outcome
  }

  /**
   * The groups reports go to, chosen again at each full scan (under `auto`, by the API server's
   * discovery: OpenReports CRDs installed after Verdict started are picked up at the next full scan)
   * and logged when they change. A discovery that fails keeps the last choice, said in a warning; with
   * none to keep, this scan writes and deletes no report, and the next asks again.
   */
  async #chooseReportApis(full: boolean): Promise<ReportApiChoice | { problem: string }> {
    const last = this.#reportApis
    if (last && !full) return last
    let chosen: ReportApiChoice
    try {
      chosen = await chooseReportApis(this.#options.kubeConfig, this.#options.reportsApi ?? 'auto')
    } catch (error) {
      const problem = error instanceof Error ? error.message : String(error)
      if (!last) return { problem: `${problem}; the next scan asks again` }
      this.#options.logger.warn({ problem, write: last.write.map(groupVersion) }, 'background scan could not read which report groups the cluster serves: reports go where the last scan wrote them')
      return last
    }
    this.#reportApis = chosen
    const fields = { write: chosen.write.map(groupVersion), clear: chosen.clear.map(groupVersion), reason: chosen.reason }
    if (fields.write.join() !== last?.write.map(groupVersion).join()) {
      this.#options.logger.info(fields, fields.write.length === 0 ? 'background scans write no reports' : `background scans write their reports to ${fields.write.join(' and ')}`)
    }
    return chosen
  }

  /** Which rulesets each scanned policy applied, and whether everything is now known to be current. */
  #remember(outcome: ScanOutcome, only: ReadonlySet<string> | undefined, complete: boolean): void {
    if (only) for (const policy of only) this.#lastRulesets.delete(policy)
    else this.#lastRulesets.clear()
    for (const entry of outcome.planned) this.#lastRulesets.set(entry.policy, entry.rulesets)
    if (!only && complete) this.#scannedAll = true
  }

  /** The background policies an exception names (every one when it names rules only) are scanned again. */
  #exceptionChanged(change: ExceptionChange): void {
    for (const policy of this.#options.catalog.policies()) {
      if (judgesInBackground(policy) && namesPolicy(change, policy.name)) this.#wanted.policies.add(policy.name)
    }
    this.#settle()
  }

  #changed(change: DefinitionChange): void {
    if (change.kind === 'policy') this.#wanted.policies.add(change.name)
    else this.#wanted.rulesets.add(change.name)
    this.#settle()
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
      this.#run()
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

/** The exceptions that let something of the page through, each once. */
function exemptionsIn(page: readonly ScannedVerdicts[]): Set<string> {
  const names = new Set<string>()
  for (const scanned of page) {
    for (const verdict of scanned.verdicts) for (const result of verdict.judged) if (result.exception !== undefined) names.add(result.exception)
  }
  return names
}
