import type { KubeConfig } from '@kubernetes/client-node'
import { kubeRequest } from '../../k8s/kube-request.js'
import { listPages, type KubeObject } from './paged-list.js'
import { MANAGED_BY_LABEL, POLICY_LABEL, reportLabels } from './policy-reports.js'
import { listPath, type ScanTarget } from './scan-targets.js'

export interface ReportWriteCounts {
  created: number
  updated: number
  unchanged: number
  deleted: number
}

const REPORT_GROUP = 'wgpolicyk8s.io'
const REPORT_VERSION = 'v1alpha2'
const NAMESPACED: ScanTarget = { group: REPORT_GROUP, version: REPORT_VERSION, resource: 'policyreports' }
const CLUSTER: ScanTarget = { group: REPORT_GROUP, version: REPORT_VERSION, resource: 'clusterpolicyreports' }
const PAGE = 500

/**
 * Brings the cluster's Verdict reports to `desired` (every report of the scan): creates the new
 * ones, replaces those whose summary or results changed (in place, with the resourceVersion read,
 * so a report is never deleted and recreated), leaves equal ones alone, and, when `prune` (the
 * scan read every target), deletes Verdict's reports that the scan no longer has: a deleted
 * policy's, one turned `background: false`, a namespace left without judged objects. Reports
 * are found by the label `app.kubernetes.io/managed-by=verdict`; nobody else's are touched. With
 * `policies` (a scan of some policies only), only those policies' reports are compared and pruned.
 */
export async function writeReports(kubeConfig: KubeConfig, desired: readonly KubeObject[], options: { prune: boolean; policies?: ReadonlySet<string> }): Promise<ReportWriteCounts> {
  const counts: ReportWriteCounts = { created: 0, updated: 0, unchanged: 0, deleted: 0 }
  const inScope = scopeOf(options.policies)
  const existing = new Map<string, KubeObject>()
  for (const target of [NAMESPACED, CLUSTER]) {
    for await (const page of listPages(kubeConfig, target, PAGE, `${MANAGED_BY_LABEL}=verdict`)) {
      for (const report of page) if (inScope(report)) existing.set(keyOf(report), report)
    }
  }
  for (const report of desired) {
    const key = keyOf(report)
    const current = existing.get(key)
    existing.delete(key)
    if (!current) {
      await send(kubeConfig, 'POST', collectionPath(report), report)
      counts.created++
      continue
    }
    if (sameContent(current, report)) {
      counts.unchanged++
      continue
    }
    const metadata = { ...(report.metadata as KubeObject), resourceVersion: (current.metadata as KubeObject | undefined)?.resourceVersion }
    await send(kubeConfig, 'PUT', objectPath(report), { ...report, metadata })
    counts.updated++
  }
  if (options.prune) {
    for (const stale of existing.values()) {
      await send(kubeConfig, 'DELETE', objectPath(stale), undefined, [404])
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

function keyOf(report: KubeObject): string {
  const metadata = (report.metadata ?? {}) as KubeObject
  return `${String(report.kind)}/${String(metadata.namespace ?? '')}/${String(metadata.name)}`
}

/**
 * Equal but for the results' timestamps: a report that says the same thing is left alone, so a
 * stable cluster costs etcd no write per scan.
 */
function sameContent(current: KubeObject, desired: KubeObject): boolean {
  const labels = (object: KubeObject): unknown => (object.metadata as KubeObject | undefined)?.labels
  const results = (object: KubeObject): string =>
    JSON.stringify(((Array.isArray(object.results) ? object.results : []) as KubeObject[]).map(({ timestamp: _timestamp, ...rest }) => rest))
  return JSON.stringify(current.summary) === JSON.stringify(desired.summary) && results(current) === results(desired) && JSON.stringify(labels(current)) === JSON.stringify(labels(desired))
}

function collectionPath(report: KubeObject): string {
  const namespace = (report.metadata as KubeObject).namespace
  if (report.kind === 'ClusterPolicyReport') return listPath(CLUSTER)
  return `/apis/${REPORT_GROUP}/${REPORT_VERSION}/namespaces/${encodeURIComponent(String(namespace))}/policyreports`
}

function objectPath(report: KubeObject): string {
  return `${collectionPath(report)}/${encodeURIComponent(String((report.metadata as KubeObject).name))}`
}

async function send(kubeConfig: KubeConfig, method: string, path: string, body: unknown, tolerated: readonly number[] = []): Promise<void> {
  const { status, body: answer } = await kubeRequest(kubeConfig, method, path, {}, body)
  if ((status >= 200 && status < 300) || tolerated.includes(status)) return
  const message = typeof answer === 'object' && answer !== null && typeof (answer as KubeObject).message === 'string' ? `: ${String((answer as KubeObject).message)}` : ''
  throw new Error(`${method} ${path}: HTTP ${status}${message}`)
}
