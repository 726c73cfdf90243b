import { describe, expect, it } from 'vitest'
import { formatJson } from '../../src/scan/output/json-output.js'
import { sampleClusterReport } from './sample-cluster-report.js'
import { sampleReport } from './sample-report.js'

describe('formatJson', () => {
  it('gives the documented shape: objects, the fail and error results with their object, and the summary', () => {
    const text = formatJson(sampleReport())
    const web = { file: 'deploy/app.yaml', line: 3, apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web' }
    const service = { file: 'deploy/app.yaml', line: 40, apiVersion: 'v1', kind: 'Service', namespace: null, name: 'web', template: 'shop/templates/svc.yaml' }
    expect(JSON.parse(text)).toEqual({
      objects: [web, service, { file: 'deploy/extra dir/cm.yaml', line: 1, apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'cfg' }],
      results: [
        { ...web, policy: 'prod', action: 'Deny', ruleset: 'hygiene', rule: 'no-latest', status: 'fail', severity: 'high', message: 'images must be pinned, found <nginx:latest> & "more"' },
        { ...web, policy: 'advisory', action: 'Warn', ruleset: 'probes', rule: 'readiness', status: 'fail', severity: 'low', message: 'container web\n  needs a readiness probe' },
        {
          ...service,
          policy: 'audit-only',
          action: 'Audit',
          ruleset: 'net',
          rule: 'no-nodeport',
          status: 'error',
          severity: 'low',
          message: 'rule net/no-nodeport could not be evaluated',
          path: 'spec.type',
        },
      ],
      summary: { objects: 3, judged: 2, passed: 1, failed: 2, errors: 1, failuresByAction: { Deny: 1, Warn: 1, Audit: 1 }, denied: true },
    })
  })

  it('writes the fields of each result in one fixed order', () => {
    const result = (JSON.parse(formatJson(sampleReport())) as { results: object[] }).results[2] as object
    expect(Object.keys(result)).toEqual(['file', 'line', 'apiVersion', 'kind', 'namespace', 'name', 'template', 'policy', 'action', 'ruleset', 'rule', 'status', 'severity', 'message', 'path'])
  })

  it('marks an object listed from a cluster with source "cluster", its file naming the cluster and no line', () => {
    const scan = JSON.parse(formatJson(sampleClusterReport())) as { objects: object[]; results: object[] }
    expect(scan.objects).toEqual([
      { file: 'cluster:kind-dev', apiVersion: 'v1', kind: 'Pod', namespace: 'shop', name: 'web-1', source: 'cluster' },
      { file: 'cluster:kind-dev', apiVersion: 'v1', kind: 'Namespace', namespace: null, name: 'shop', source: 'cluster' },
    ])
    expect(Object.keys(scan.results[0] as object)).toEqual(['file', 'apiVersion', 'kind', 'namespace', 'name', 'source', 'policy', 'action', 'ruleset', 'rule', 'status', 'severity', 'message'])
  })
})
