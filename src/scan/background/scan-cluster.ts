import type { KubeConfig } from '@kubernetes/client-node'
import type { NamespaceSource } from '../../admission/namespace-source.js'
import { PreparedInput, type ClusterData, type CompiledRuleset, type EvaluationInput, type Exemptions, type Policy, type Ruleset } from '../../engine/index.js'
import { judgeExisting, planScanPolicies, type ExistingVerdict } from './judge-existing.js'
import { ListExpiredError, ListNotServedError, listPages, type KubeObject } from './paged-list.js'
import { PolicyReportBuilder, type ReportedObject } from './policy-reports.js'
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
  /** Write PolicyReports (a scan from a laptop writes nothing). */
  writeReports: boolean
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
  reports: ReportWriteCounts | undefined
  /** Why no report was written though reports were asked for: the cluster serves no PolicyReports (Policy Reporter's CRDs are not installed). */
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
  const builder = new PolicyReportBuilder({ maxResults: settings.maxResults, now: options.now })
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
  if (settings.writeReports) {
    // A target that could not be read leaves its objects out: the reports they were in must not be pruned.
    const desired = [...builder.reports().values()].flat()
    try {
      outcome.reports = await writeReports(kubeConfig, desired, { prune: outcome.failures.length === 0, ...(only ? { policies: only } : {}) })
    } catch (error) {
      // The verdicts and audits stand without reports: the scan is still complete.
      if (!(error instanceof ListNotServedError)) throw error
      outcome.reportsNotWritten = `${error.message}: install the wgpolicyk8s.io/v1alpha2 CRDs (Policy Reporter brings them) for PolicyReports`
    }
  }
  return outcome
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
