import { POLICY_LABEL, reportContentDigest, type BuiltReport, type ReportResultStatus } from './report-builder.js'
import type { ScanTarget } from './scan-targets.js'

export type ReportApiName = 'openreports' | 'wgpolicyk8s'

/**
 * An API group reports are written to, and how a built report looks in it. Both groups carry the
 * same summary, labels and results (report-builder.ts); a group adds only its own top-level fields.
 */
export interface ReportApi {
  readonly name: ReportApiName
  readonly group: string
  readonly version: string
  readonly namespaced: { readonly kind: string; readonly resource: string }
  readonly cluster: { readonly kind: string; readonly resource: string }
  /** Where its CRDs come from, for the message when the cluster does not serve them. */
  readonly crdsFrom: string
  /** The report's top-level fields besides metadata and results, as this group's schema has them (its API server prunes any other). */
  head(report: BuiltReport): Record<string, unknown>
}

/** What a report of Verdict's lists: never a pass, a skip only when an exception or a switched-off rule made it. */
const LISTED_STATUSES: readonly ReportResultStatus[] = ['fail', 'warn', 'error', 'skip']

/** `wgpolicyk8s.io/v1alpha2` PolicyReport and ClusterPolicyReport: what Policy Reporter 2 and `kubectl get polr` read. */
export const WGPOLICYK8S: ReportApi = {
  name: 'wgpolicyk8s',
  group: 'wgpolicyk8s.io',
  version: 'v1alpha2',
  namespaced: { kind: 'PolicyReport', resource: 'policyreports' },
  cluster: { kind: 'ClusterPolicyReport', resource: 'clusterpolicyreports' },
  crdsFrom: 'Policy Reporter or Kyverno bring them',
  head: (report) => ({ summary: { ...report.summary } }),
}

/**
 * `openreports.io/v1alpha1` Report and ClusterReport: what Kyverno (1.15 on) and Kubewarden (1.33
 * on) write and Policy Reporter 3 reads. The report names its source, and its `configuration`
 * tells a reader that results are capped and hold no passes (the summary still counts them).
 */
export const OPENREPORTS: ReportApi = {
  name: 'openreports',
  group: 'openreports.io',
  version: 'v1alpha1',
  namespaced: { kind: 'Report', resource: 'reports' },
  cluster: { kind: 'ClusterReport', resource: 'clusterreports' },
  crdsFrom: 'the chart installs them with backgroundScan.installOpenReportsCRDs=true, or see github.com/openreports/reports-api',
  head: (report) => ({
    source: 'verdict',
    configuration: { limits: { maxResults: report.maxResults, statusFilter: [...LISTED_STATUSES] } },
    summary: { ...report.summary },
  }),
}

export const REPORT_APIS: readonly ReportApi[] = [OPENREPORTS, WGPOLICYK8S]

/** A built report as one group holds it, to be compared with the cluster's copy and, if it differs, written. */
export interface ReportDraft {
  kind: string
  name: string
  /** '' for a cluster-scoped report. */
  namespace: string
  /** What the report says (head, labels, results without timestamps), digested: see reportContentDigest. */
  contentDigest: string
  /** The object to write, built only when it is written, so that one report's results at a time exist as objects. */
  toObject(): Record<string, unknown>
}

export function draftFor(api: ReportApi, report: BuiltReport): ReportDraft {
  const clusterScoped = report.namespace === ''
  const kind = clusterScoped ? api.cluster.kind : api.namespaced.kind
  const head = api.head(report)
  return {
    kind,
    name: report.name,
    namespace: report.namespace,
    contentDigest: reportContentDigest(head, report.labels, report.resultTexts()),
    toObject: () => {
      const metadata: Record<string, unknown> = { name: report.name, labels: { ...report.labels }, annotations: { [POLICY_LABEL]: report.policy } }
      if (!clusterScoped) metadata.namespace = report.namespace
      return { apiVersion: `${api.group}/${api.version}`, kind, metadata, ...head, results: report.results() }
    },
  }
}

/** The group's two report resources, as lists read them. */
export function reportTargets(api: ReportApi): ScanTarget[] {
  return [
    { group: api.group, version: api.version, resource: api.namespaced.resource },
    { group: api.group, version: api.version, resource: api.cluster.resource },
  ]
}
