import { describe, expect, it } from 'vitest'
import { formatTable } from '../../src/scan/output/table-output.js'
import { summarizeScan } from '../../src/scan/summarize-scan.js'
import { sampleClusterReport } from './sample-cluster-report.js'
import { sampleReport } from './sample-report.js'

describe('formatTable', () => {
  it('prints one aligned row per failed or erring rule, messages on their row, then the summary', () => {
    expect(formatTable(sampleReport())).toBe(
      [
        'OBJECT               LOCATION            POLICY      ACTION  RULE               SEVERITY  MESSAGE',
        'Deployment shop/web  deploy/app.yaml:3   prod        Deny    hygiene/no-latest  high      images must be pinned, found <nginx:latest> & "more"',
        'Deployment shop/web  deploy/app.yaml:3   advisory    Warn    probes/readiness   low       container web needs a readiness probe',
        'Service web          deploy/app.yaml:40  audit-only  Audit   net/no-nodeport    low       error: rule net/no-nodeport could not be evaluated',
        '3 objects, 2 judged by a policy; 3 failures: Deny 1, Warn 1, Audit 1',
      ].join('\n'),
    )
  })

  it('locates an object listed from a cluster by the cluster, with no line', () => {
    expect(formatTable(sampleClusterReport())).toBe(
      [
        'OBJECT          LOCATION          POLICY  ACTION  RULE               SEVERITY  MESSAGE',
        'Pod shop/web-1  cluster:kind-dev  prod    Deny    hygiene/no-latest  high      images must be pinned',
        'Namespace shop  cluster:kind-dev  prod    Deny    hygiene/no-latest  high      error: no such field',
        '2 objects, 2 judged by a policy; 2 failures: Deny 2, Warn 0, Audit 0',
      ].join('\n'),
    )
  })

  it('prints the summary alone when nothing failed', () => {
    expect(formatTable({ objects: [], policies: [], judgements: [], summary: summarizeScan(0, []) })).toBe('0 objects, 0 judged by a policy; 0 failures: Deny 0, Warn 0, Audit 0')
  })
})
