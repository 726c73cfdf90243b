import type { KubeConfig } from '@kubernetes/client-node'
import type { NamespaceSource } from '../../admission/namespace-source.js'
import { PreparedInput, type ClusterData, type CompiledRuleset, type EvaluationInput, type Exemptions, type Policy, type Ruleset } from '../../engine/index.js'
import { judgeExisting, planScanPolicies, type ExistingVerdict } from './judge-existing.js'
import { ListExpiredError, ListNotServedError, listPages, type KubeObject } from './paged-list.js'
import type { ReportApiChoice } from './report-api-choice.js'
import { draftFor, type ReportApiName } from './report-apis.js'
import { ReportBuilder, type ReportedObject } from './report-builder.js'
import { writeReports, type ReportWriteCounts } from './report-writer.js'
import { scanTargets, type ScanTarget } from './scan-targets.js'

/** The definitions a scan applies, as the catalog holds them. */
export interface ScanDefinitions<R extends Ruleset> {
  policies: readonly Policy[]
  rulesets: readonly R[]
  compile: (ruleset: R) => CompiledRuleset
}

export interface ScanSettings {
  pageSize: number
  /** Results kept per report (VERDICT_REPORT_MAX_RESULTS); the summary stays exact. */
  maxResults: number
  /** Namespaces never judged: the webhook's (kube-system, Verdict's own, the configured ones). */
  excludedNamespaces: ReadonlySet<string>
  /** How often a list restarts after its continue token expired (410) before the target is given up. */
  listRestarts: number
}

export interface ScannedVerdicts {
  object: ReportedObject
  /**
   * The object as read, as JSON text (managedFields left out), for an audit's input. Text rather
   * than the object: the page's objects can then be collected while it is judged, instead of living
   * (and being promoted) until the page's verdicts are noted.
   */
  input: string
  verdicts: ExistingVerdict[]
}

export interface ScanOutcome {
  targets: ScanTarget[]
  /** Kinds the policies name that could not be listed, with why. */
  unlistable: string[]
  /** Objects read (excluded namespaces included) and objects some policy judged. */
  objectsRead: number
  objectsJudged: number
  /** Lists that restarted after a 410. */
  restarts: number
  /** Targets that could not be read, with the error; their objects are missing from the reports. */
  failures: { target: string; error: string }[]
  /**
   * Per API group, what the scan did to Verdict's reports there: the groups written to, and the
   * groups cleared (not chosen) that the cluster serves. Undefined: no reports were asked for.
   */
  reports: Partial<Record<ReportApiName, ReportWriteCounts>> | undefined
  /** Why reports were not written to a group chosen: the cluster does not serve it (its CRDs are not installed), or discovery failed. */
  reportsNotWritten?: string
  /** The policies the scan applied, each with the rulesets it resolved (a ruleset change rescans the policies that used it). */
  planned: { policy: string; rulesets: string[] }[]
}

/**
 * One background scan: every object of every kind the background policies match, read page by
 * page and judged by the same engine as admission (as a CREATE of the object as it stands), then
 * the reports written. `onPage` hears each page's judged objects as it goes (the audit trail
 * records the changes); it is awaited, so a slow store slows the scan rather than letting pages
 * pile up in memory. A list whose continue token expires starts over, with what it had added to
 * the reports taken back; `onPage` may then hear an object twice.
 */
export async function scanCluster<R extends Ruleset>(options: {
  kubeConfig: KubeConfig
  definitions: ScanDefinitions<R>
  namespaces: NamespaceSource
  cluster?: ClusterData
  settings: ScanSettings
  now: Date
  /** The PolicyExceptions honoured, judged at the scan's `now`; none when absent. */
  exemptions?: Exemptions
  onPage?: (judged: ScannedVerdicts[]) => Promise<void>
  /** Where reports go; undefined: nowhere, and nothing is cleared. */
  reports?: ReportApiChoice
  /** Stops the scan between pages (the service is shutting down): it then throws the signal's reason and writes no report. */
  signal?: AbortSignal
  /**
   * Only these policies (a definition changed): only their kinds are listed, and only their
   * reports written and pruned; the other policies' reports stay as their last scan left them.
   * Undefined: every background policy.
   */
  only?: ReadonlySet<string>
}): Promise<ScanOutcome> {
  const { kubeConfig, definitions, settings, only } = options
  const policies = only ? definitions.policies.filter((policy) => only.has(policy.name)) : definitions.policies
  const plan = planScanPolicies(policies, definitions.rulesets, definitions.compile)
  const { targets, unlistable } = scanTargets(policies, definitions.rulesets)
  const builder = new ReportBuilder({ maxResults: settings.maxResults, now: options.now })
  const outcome: ScanOutcome = {
    targets,
    unlistable: unlistable.map((entry) => `${entry.group || 'core'}/${entry.resource}: ${entry.reason}`),
    objectsRead: 0,
    objectsJudged: 0,
    restarts: 0,
    failures: [],
    reports: undefined,
    planned: plan.map((entry) => ({ policy: entry.policy.name, rulesets: [...entry.rulesets.map((ruleset) => ruleset.name), ...entry.missing] })),
  }
  for (const target of targets) {
    for (let attempt = 0; ; attempt++) {
      const mark = builder.mark()
      try {
        for await (const page of listPages(kubeConfig, target, settings.pageSize)) {
          const judgedPage: ScannedVerdicts[] = []
          for (let index = 0; index < page.length; index++) {
            const object = page[index] as KubeObject
            // Let go of each object once judged: what the page still needs is its verdicts and text.
            page[index] = RELEASED
            outcome.objectsRead++
            const judged = judgeObject(object, plan, options, settings)
            if (!judged) continue
            outcome.objectsJudged++
            for (const verdict of judged.verdicts) builder.add(judged.object, verdict)
            judgedPage.push(judged)
          }
          if (judgedPage.length > 0) await options.onPage?.(judgedPage)
          options.signal?.throwIfAborted()
        }
        break
      } catch (error) {
        if (options.signal?.aborted) throw error
        builder.rollback(mark)
        if (error instanceof ListNotServedError) {
          // Not a failure: a kind the cluster does not serve has no objects, and its reports may be pruned.
          outcome.unlistable.push(`${target.group || 'core'}/${target.resource}: not served by the API server (404)`)
          break
        }
        if (error instanceof ListExpiredError && attempt < settings.listRestarts) {
          outcome.restarts++
          continue
        }
        outcome.failures.push({ target: targetName(target), error: error instanceof Error ? error.message : String(error) })
        break
      }
    }
  }
  if (options.reports) outcome.reports = await writeChosenReports(kubeConfig, options.reports, builder, outcome, only)
  return outcome
}

/**
 * The scan's reports written to each chosen group, then Verdict's reports deleted from the groups
 * not chosen: after the writes, and only when every chosen group was written, so a switch never
 * leaves a moment without reports, nor deletes the old ones when the new group's CRDs are missing
 * (`reportsNotWritten` says so). A group not served has nothing to clear.
 */
async function writeChosenReports(
  kubeConfig: KubeConfig,
  reports: ReportApiChoice,
  builder: ReportBuilder,
  outcome: ScanOutcome,
  only: ReadonlySet<string> | undefined,
): Promise<Partial<Record<ReportApiName, ReportWriteCounts>>> {
  const counts: Partial<Record<ReportApiName, ReportWriteCounts>> = {}
  const scope = only ? { policies: only } : {}
  const built = [...builder.reports().values()].flat()
  const notServed: string[] = []
  for (const api of reports.write) {
    try {
      // A target that could not be read leaves its objects out: the reports they were in must not be pruned.
      counts[api.name] = await writeReports(kubeConfig, api, built.map((report) => draftFor(api, report)), { prune: outcome.failures.length === 0, ...scope })
    } catch (error) {
      // The verdicts and audits stand without reports: the scan is still complete.
      if (!(error instanceof ListNotServedError)) throw error
      notServed.push(`${error.message}: install the ${api.group}/${api.version} CRDs (${api.crdsFrom})`)
    }
  }
  for (const api of notServed.length === 0 ? reports.clear : []) {
    try {
      // Whatever the scan could read, a report in a group not chosen is stale.
      counts[api.name] = await writeReports(kubeConfig, api, [], { prune: true, ...scope })
    } catch (error) {
      if (!(error instanceof ListNotServedError)) throw error
    }
  }
  if (notServed.length > 0) outcome.reportsNotWritten = notServed.join('; ')
  return counts
}

function judgeObject(
  object: KubeObject,
  plan: ReturnType<typeof planScanPolicies>,
  options: { namespaces: NamespaceSource; cluster?: ClusterData; exemptions?: Exemptions },
  settings: ScanSettings,
): ScannedVerdicts | undefined {
  const metadata = (typeof object.metadata === 'object' && object.metadata !== null ? object.metadata : {}) as KubeObject
  const namespace = typeof metadata.namespace === 'string' ? metadata.namespace : ''
  if (namespace !== '' && settings.excludedNamespaces.has(namespace)) return undefined
  const input: EvaluationInput = { object, request: { operation: 'CREATE' } }
  const namespaceObject = namespace === '' ? undefined : options.namespaces.get(namespace)
  if (namespaceObject) input.namespaceObject = namespaceObject
  if (options.cluster) input.cluster = options.cluster
  const verdicts = judgeExisting(plan, new PreparedInput(input), options.exemptions)
  if (verdicts.length === 0) return undefined
  const reported: ReportedObject = { apiVersion: String(object.apiVersion), kind: String(object.kind), name: String(metadata.name ?? ''), namespace }
  if (typeof metadata.uid === 'string') reported.uid = metadata.uid
  const { managedFields: _managedFields, ...kept } = metadata
  return { object: reported, input: JSON.stringify({ ...object, metadata: kept }), verdicts }
}

const RELEASED: KubeObject = Object.freeze({})

function targetName(target: ScanTarget): string {
  return `${target.group === '' ? '' : `${target.group}/`}${target.version}/${target.resource}`
}
