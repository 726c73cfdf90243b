import type { ObjectRef } from '../../src/scan/manifests/manifest-object.js'
import type { ObjectJudgement, ScanPolicy, ScanReport } from '../../src/scan/scan-result.js'
import { summarizeScan } from '../../src/scan/summarize-scan.js'

/** A report built by hand, so the outputs are checked on every case at once: each action, an error, markup in a message, a Helm template, an unjudged object. */
export function sampleReport(): ScanReport {
  const web: ObjectRef = { file: 'deploy/app.yaml', line: 3, apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web' }
  const service: ObjectRef = { file: 'deploy/app.yaml', line: 40, template: 'shop/templates/svc.yaml', apiVersion: 'v1', kind: 'Service', namespace: null, name: 'web' }
  const settings: ObjectRef = { file: 'deploy/extra dir/cm.yaml', line: 1, apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'cfg' }
  const policies: ScanPolicy[] = [
    {
      name: 'prod',
      action: 'Deny',
      rules: [
        { ruleset: 'hygiene', rule: 'no-latest', severity: 'high', remediation: 'Pin every image.' },
        { ruleset: 'hygiene', rule: 'team-label', severity: 'medium' },
      ],
    },
    { name: 'advisory', action: 'Warn', rules: [{ ruleset: 'probes', rule: 'readiness', severity: 'low', description: 'Workloads say when they are ready.' }] },
    { name: 'audit-only', action: 'Audit', rules: [{ ruleset: 'net', rule: 'no-nodeport', severity: 'low' }] },
  ]
  const judgements: ObjectJudgement[] = [
    {
      object: web,
      policy: 'prod',
      action: 'Deny',
      passed: false,
      results: [
        { ruleset: 'hygiene', rule: 'no-latest', status: 'fail', severity: 'high', message: 'images must be pinned, found <nginx:latest> & "more"' },
        { ruleset: 'hygiene', rule: 'team-label', status: 'pass', severity: 'medium' },
      ],
    },
    { object: web, policy: 'advisory', action: 'Warn', passed: false, results: [{ ruleset: 'probes', rule: 'readiness', status: 'fail', severity: 'low', message: 'container web\n  needs a readiness probe' }] },
    { object: service, policy: 'audit-only', action: 'Audit', passed: false, results: [{ ruleset: 'net', rule: 'no-nodeport', status: 'error', severity: 'low', path: 'spec.type' }] },
  ]
  return { objects: [web, service, settings], policies, judgements, summary: summarizeScan(3, judgements) }
}
