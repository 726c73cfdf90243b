import type { PolicyAction, Severity } from '../../engine/index.js'
import { isClusterRef, type ObjectRef } from '../manifests/manifest-object.js'
import { scanFindings } from '../scan-findings.js'
import type { ScanReport, ScanSummary } from '../scan-result.js'

/**
 * An object as the JSON output names it; `template` only for Helm output that names one. An
 * object listed from a cluster has `source: "cluster"`, its `file` names the cluster
 * (`cluster:<context>`) and it has no `line`.
 */
export interface JsonObject {
  file: string
  line?: number
  apiVersion: string
  kind: string
  namespace: string | null
  name: string | null
  template?: string
  source?: 'cluster'
}

export interface JsonResult extends JsonObject {
  policy: string
  action: PolicyAction
  ruleset: string
  rule: string
  /** `skip`: a PolicyException let the rule through (`exception` names it), or the rule is switched off (`disabled`). */
  status: 'fail' | 'error' | 'skip'
  severity: Severity
  message: string
  /** For a failed pattern rule, the field where the object departs from it. */
  path?: string
  exception?: string
  disabled?: true
  disabledReason?: string
}

/** The documented `--output json` shape: scripts read it, so fields are added, never renamed. */
export interface JsonScan {
  objects: JsonObject[]
  results: JsonResult[]
  summary: ScanSummary
}

export function toJsonScan(report: ScanReport): JsonScan {
  return {
    objects: report.objects.map(jsonObject),
    results: scanFindings(report).map((finding) => ({
      ...jsonObject(finding.object),
      policy: finding.policy,
      action: finding.action,
      ruleset: finding.ruleset,
      rule: finding.rule,
      status: finding.status as JsonResult['status'],
      severity: finding.severity,
      message: finding.message,
      ...(finding.path === undefined ? {} : { path: finding.path }),
      ...(finding.exception === undefined ? {} : { exception: finding.exception }),
      ...(finding.disabledReason === undefined ? {} : { disabled: true as const, disabledReason: finding.disabledReason }),
    })),
    summary: report.summary,
  }
}

export function formatJson(report: ScanReport): string {
  return JSON.stringify(toJsonScan(report), null, 2)
}

/** Fields in one fixed order, whatever order the object was built in. */
function jsonObject(object: ObjectRef): JsonObject {
  const identity = { apiVersion: object.apiVersion, kind: object.kind, namespace: object.namespace, name: object.name }
  if (isClusterRef(object)) return { file: object.file, ...identity, source: 'cluster' }
  return { file: object.file, line: object.line, ...identity, ...(object.template === undefined ? {} : { template: object.template }) }
}
