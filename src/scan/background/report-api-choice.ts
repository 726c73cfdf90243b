import type { KubeConfig } from '@kubernetes/client-node'
import type { ReportsApiMode } from '../../config.js'
import { kubeRequest } from '../../k8s/kube-request.js'
import { OPENREPORTS, REPORT_APIS, WGPOLICYK8S, type ReportApi } from './report-apis.js'

/** Where a scan's reports go (VERDICT_REPORTS_API read against the cluster). */
export interface ReportApiChoice {
  /** The groups reports are written to. */
  readonly write: readonly ReportApi[]
  /**
   * The groups not chosen: Verdict's reports there (by its label) are deleted, so a switch of
   * groups, or to `off`, leaves no stale report behind; other tools' reports are never touched.
   */
  readonly clear: readonly ReportApi[]
  /** Why these, for the log. */
  readonly reason: string
}

/**
 * The groups `mode` names. `auto` asks the API server's discovery whether it serves
 * `openreports.io/v1alpha1` (both `reports` and `clusterreports`): then OpenReports, else
 * `wgpolicyk8s.io/v1alpha2`. Discovery that fails otherwise than with 404 throws: the caller writes
 * no report this time and asks again, rather than guessing a group and deleting the other's.
 */
export async function chooseReportApis(kubeConfig: KubeConfig, mode: ReportsApiMode): Promise<ReportApiChoice> {
  switch (mode) {
    case 'openreports':
      return choice([OPENREPORTS], 'VERDICT_REPORTS_API=openreports')
    case 'wgpolicyk8s':
      return choice([WGPOLICYK8S], 'VERDICT_REPORTS_API=wgpolicyk8s')
    case 'both':
      return choice([OPENREPORTS, WGPOLICYK8S], 'VERDICT_REPORTS_API=both')
    case 'off':
      return choice([], 'VERDICT_REPORTS_API=off: no report is written, and those Verdict wrote before are deleted')
    case 'auto': {
      const missing = await missingResources(kubeConfig, OPENREPORTS)
      if (missing.length === 0) return choice([OPENREPORTS], `VERDICT_REPORTS_API=auto and the cluster serves ${groupVersion(OPENREPORTS)}`)
      return choice([WGPOLICYK8S], `VERDICT_REPORTS_API=auto and the cluster does not serve ${groupVersion(OPENREPORTS)} ${missing.join(' and ')} (${OPENREPORTS.crdsFrom})`)
    }
  }
}

function choice(write: readonly ReportApi[], reason: string): ReportApiChoice {
  return { write, clear: REPORT_APIS.filter((api) => !write.includes(api)), reason }
}

export function groupVersion(api: ReportApi): string {
  return `${api.group}/${api.version}`
}

/** The group's report resources its discovery document does not list (all of them when it answers 404). */
async function missingResources(kubeConfig: KubeConfig, api: ReportApi): Promise<string[]> {
  const wanted = [api.namespaced.resource, api.cluster.resource]
  const path = `/apis/${groupVersion(api)}`
  const { status, body } = await kubeRequest(kubeConfig, 'GET', path)
  if (status === 404) return wanted
  if (status !== 200) throw new Error(`discovery of ${groupVersion(api)} (GET ${path}): HTTP ${status}`)
  const resources = typeof body === 'object' && body !== null ? (body as { resources?: unknown }).resources : undefined
  const served = new Set(Array.isArray(resources) ? resources.map((resource) => (resource as { name?: unknown } | null)?.name) : [])
  return wanted.filter((name) => !served.has(name))
}
