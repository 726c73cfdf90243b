import { describe, expect, it } from 'vitest'
import type { Judge } from '../../src/scan/judge/judge.js'
import type { ManifestObject } from '../../src/scan/manifests/manifest-object.js'
import { runScan } from '../../src/scan/run-scan.js'
import type { PolicyJudgement } from '../../src/scan/scan-result.js'

function pod(index: number): ManifestObject {
  return { file: 'pods.yaml', line: index * 10 + 1, apiVersion: 'v1', kind: 'Pod', namespace: null, name: `pod-${index}`, value: {} }
}

/** Answers out of order (later objects first) and only for even pods; rules it reports are not in its policy list. */
const slowJudge: Judge = {
  policies: [
    { name: 'deny', action: 'Deny', rules: [{ ruleset: 'rs', rule: 'known', severity: 'high' }] },
    { name: 'idle', action: 'Audit', rules: [] },
  ],
  async judge(object): Promise<PolicyJudgement[]> {
    const index = Number(object.name?.slice(4))
    await new Promise((resolve) => setTimeout(resolve, (10 - index) * 3))
    if (index % 2 === 1) return []
    const status = index === 4 ? 'fail' : 'pass'
    return [{ policy: 'deny', action: 'Deny', passed: status === 'pass', results: [{ ruleset: 'rs', rule: index === 0 ? 'known' : 'seen', status, severity: 'low' }] }]
  },
}

describe('runScan', () => {
  it('keeps input order whatever order concurrent judgements finish in, and reports progress per object', async () => {
    const progress: number[] = []
    const objects = Array.from({ length: 10 }, (_, index) => pod(index))
    const report = await runScan(objects, slowJudge, { concurrency: 4, onProgress: (done) => progress.push(done) })
    expect(report.judgements.map((judgement) => judgement.object.name)).toEqual(['pod-0', 'pod-2', 'pod-4', 'pod-6', 'pod-8'])
    expect(progress).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    expect(report.summary).toEqual({ objects: 10, judged: 5, passed: 4, failed: 1, errors: 0, failuresByAction: { Deny: 1, Warn: 0, Audit: 0 }, denied: true })
  })

  it('adds the rules that reported to what the judge listed of its policies', async () => {
    const report = await runScan([pod(0), pod(2)], slowJudge)
    expect(report.policies).toEqual([
      { name: 'deny', action: 'Deny', rules: [{ ruleset: 'rs', rule: 'known', severity: 'high' }, { ruleset: 'rs', rule: 'seen', severity: 'low' }] },
      { name: 'idle', action: 'Audit', rules: [] },
    ])
    expect(report.summary.denied).toBe(false)
  })

  it('scans nothing when there is nothing to scan', async () => {
    const report = await runScan([], slowJudge, { concurrency: 8 })
    expect(report.summary).toEqual({ objects: 0, judged: 0, passed: 0, failed: 0, errors: 0, failuresByAction: { Deny: 0, Warn: 0, Audit: 0 }, denied: false })
  })
})
