import type { ClusterRef } from '../../src/scan/manifests/manifest-object.js'
import type { ObjectJudgement, ScanPolicy, ScanReport } from '../../src/scan/scan-result.js'
import { summarizeScan } from '../../src/scan/summarize-scan.js'

/** A report on objects listed from a cluster (no file, no line): a namespaced Pod that fails, a cluster-scoped Namespace that errs. */
export function sampleClusterReport(): ScanReport {
  const pod: ClusterRef = { source: 'cluster', file: 'cluster:kind-dev', apiVersion: 'v1', kind: 'Pod', namespace: 'shop', name: 'web-1' }
  const namespace: ClusterRef = { source: 'cluster', file: 'cluster:kind-dev', apiVersion: 'v1', kind: 'Namespace', namespace: null, name: 'shop' }
  const policies: ScanPolicy[] = [{ name: 'prod', action: 'Deny', rules: [{ ruleset: 'hygiene', rule: 'no-latest', severity: 'high' }] }]
  const judgements: ObjectJudgement[] = [
    { object: pod, policy: 'prod', action: 'Deny', passed: false, results: [{ ruleset: 'hygiene', rule: 'no-latest', status: 'fail', severity: 'high', message: 'images must be pinned' }] },
    { object: namespace, policy: 'prod', action: 'Deny', passed: false, results: [{ ruleset: 'hygiene', rule: 'no-latest', status: 'error', severity: 'high', message: 'no such field' }] },
  ]
  return { objects: [pod, namespace], policies, judgements, summary: summarizeScan(2, judgements) }
}
