import type { KubeConfig } from '@kubernetes/client-node'
import { kubeRequest } from '../../k8s/kube-request.js'
import { listPages, type KubeObject } from './paged-list.js'
import { reportTargets, type ReportApi, type ReportDraft } from './report-apis.js'
import { existingReportDigest, MANAGED_BY_LABEL, POLICY_LABEL, reportLabels } from './report-builder.js'

export interface ReportWriteCounts {
  created: number
  updated: number
  unchanged: number
  deleted: number
}

const PAGE = 500

/** A report of Verdict's as the cluster holds it: where it is and what it says, not its results. */
interface ExistingReport {
  ref: ReportRef
  resourceVersion: unknown
  contentDigest: string
}

interface ReportRef {
  kind: string
  namespace: string
  name: string
}

/**
 * Brings the cluster's Verdict reports in one API group to `desired` (every report of the scan, in
 * that group's shape; none for a group Verdict no longer writes to): creates the new
 * ones, replaces those whose summary, labels or results changed (in place, with the resourceVersion
 * read, so a report is never deleted and recreated), leaves equal ones alone, and, when `prune` (the
 * scan read every target), deletes Verdict's reports that the scan no longer has: a deleted
 * policy's, one turned `background: false`, a namespace left without judged objects. Reports are
 * found by the label `app.kubernetes.io/managed-by=verdict`; nobody else's are touched. With
 * `policies` (a scan of some policies only), only those policies' reports are compared and pruned.
 * The cluster's reports are read page by page and only their digests kept, so the reports of a
 * large cluster are never all in memory twice.
 */
export async function writeReports(
  kubeConfig: KubeConfig,
  api: ReportApi,
  desired: readonly ReportDraft[],
  options: { prune: boolean; policies?: ReadonlySet<string> },
): Promise<ReportWriteCounts> {
  const counts: ReportWriteCounts = { created: 0, updated: 0, unchanged: 0, deleted: 0 }
  const inScope = scopeOf(options.policies)
  const existing = new Map<string, ExistingReport>()
  for (const target of reportTargets(api)) {
    for await (const page of listPages(kubeConfig, target, PAGE, `${MANAGED_BY_LABEL}=verdict`)) {
      for (let index = 0; index < page.length; index++) {
        const report = page[index] as KubeObject
        // Let go of each report (its results may be a megabyte) once digested.
        page[index] = {}
        if (!inScope(report)) continue
        const metadata = (report.metadata ?? {}) as KubeObject
        const ref = { kind: String(report.kind), namespace: String(metadata.namespace ?? ''), name: String(metadata.name) }
        existing.set(keyOf(ref), { ref, resourceVersion: metadata.resourceVersion, contentDigest: existingReportDigest(report) })
      }
    }
  }
  for (const draft of desired) {
    const key = keyOf(draft)
    const current = existing.get(key)
    existing.delete(key)
    if (!current) {
      await send(kubeConfig, 'POST', collectionPath(api, draft), draft.toObject())
      counts.created++
      continue
    }
    if (current.contentDigest === draft.contentDigest) {
      counts.unchanged++
      continue
    }
    const report = draft.toObject()
    await send(kubeConfig, 'PUT', objectPath(api, draft), { ...report, metadata: { ...(report.metadata as KubeObject), resourceVersion: current.resourceVersion } })
    counts.updated++
  }
  if (options.prune) {
    for (const stale of existing.values()) {
      await send(kubeConfig, 'DELETE', objectPath(api, stale.ref), undefined, [404])
      counts.deleted++
    }
  }
  return counts
}

/** Which existing reports a scan of `policies` owns, by their policy label (cut and hashed as reportLabels writes it). */
function scopeOf(policies: ReadonlySet<string> | undefined): (report: KubeObject) => boolean {
  if (!policies) return () => true
  const labels = new Set([...policies].map((policy) => reportLabels(policy)[POLICY_LABEL]))
  return (report) => {
    const label = ((report.metadata as KubeObject | undefined)?.labels as KubeObject | undefined)?.[POLICY_LABEL]
    return typeof label === 'string' && labels.has(label)
  }
}

function keyOf(ref: ReportRef): string {
  return `${ref.kind}/${ref.namespace}/${ref.name}`
}

function collectionPath(api: ReportApi, ref: ReportRef): string {
  const prefix = `/apis/${api.group}/${api.version}`
  if (ref.kind === api.cluster.kind) return `${prefix}/${api.cluster.resource}`
  return `${prefix}/namespaces/${encodeURIComponent(ref.namespace)}/${api.namespaced.resource}`
}

function objectPath(api: ReportApi, ref: ReportRef): string {
  return `${collectionPath(api, ref)}/${encodeURIComponent(ref.name)}`
}

async function send(kubeConfig: KubeConfig, method: string, path: string, body: unknown, tolerated: readonly number[] = []): Promise<void> {
  const { status, body: answer } = await kubeRequest(kubeConfig, method, path, {}, body)
  if ((status >= 200 && status < 300) || tolerated.includes(status)) return
  const message = typeof answer === 'object' && answer !== null && typeof (answer as KubeObject).message === 'string' ? `: ${String((answer as KubeObject).message)}` : ''
  throw new Error(`${method} ${path}: HTTP ${status}${message}`)
}
