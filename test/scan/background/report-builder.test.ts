import { describe, expect, it } from 'vitest'
import type { RuleResult } from '../../../src/engine/index.js'
import type { ExistingVerdict } from '../../../src/scan/background/judge-existing.js'
import { draftFor, OPENREPORTS, WGPOLICYK8S, type ReportApi } from '../../../src/scan/background/report-apis.js'
import { existingReportDigest, ReportBuilder, reportName } from '../../../src/scan/background/report-builder.js'

const NOW = new Date('2026-11-24T10:00:00.000Z')

function verdict(policy: string, action: ExistingVerdict['action'], statuses: RuleResult['status'][]): ExistingVerdict {
  const judged = statuses.map((status, index): RuleResult => {
    const result: RuleResult = { ruleset: 'pss', rule: `rule-${index}`, status, severity: 'high' }
    if (status !== 'pass') result.message = `rule-${index} ${status}`
    return result
  })
  return { policy, action, ignoreErrors: false, judged, output: { policy, passed: false, results: [] }, rulesets: [] }
}

function pod(namespace: string, name: string): { apiVersion: string; kind: string; name: string; namespace: string; uid: string } {
  return { apiVersion: 'v1', kind: 'Pod', name, namespace, uid: `uid-${namespace}-${name}` }
}

/** The reports of a policy as they would be written to one API group. */
function objects(builder: ReportBuilder, policy: string, api: ReportApi = WGPOLICYK8S): Record<string, unknown>[] {
  return (builder.reports().get(policy) ?? []).map((report) => draftFor(api, report).toObject())
}

function drafts(builder: ReportBuilder, policy: string, api: ReportApi): ReturnType<typeof draftFor>[] {
  return (builder.reports().get(policy) ?? []).map((report) => draftFor(api, report))
}

describe('ReportBuilder', () => {
  it('writes a PolicyReport per namespace and a ClusterPolicyReport, with exact summaries and failing results only', () => {
    const builder = new ReportBuilder({ maxResults: 10, now: NOW })
    builder.add(pod('shop', 'a'), verdict('pss', 'Deny', ['pass', 'fail']))
    builder.add(pod('shop', 'b'), verdict('pss', 'Deny', ['pass', 'error']))
    builder.add({ apiVersion: 'v1', kind: 'Namespace', name: 'shop', namespace: '' }, verdict('pss', 'Warn', ['fail']))
    const reports = objects(builder, 'pss')
    expect(reports).toEqual([
      {
        apiVersion: 'wgpolicyk8s.io/v1alpha2',
        kind: 'PolicyReport',
        metadata: {
          name: 'verdict-pss',
          namespace: 'shop',
          labels: { 'app.kubernetes.io/managed-by': 'verdict', 'verdict.dev/policy': 'pss' },
          annotations: { 'verdict.dev/policy': 'pss' },
        },
        summary: { pass: 2, fail: 1, warn: 0, error: 1, skip: 0 },
        results: [
          {
            policy: 'pss',
            rule: 'rule-1',
            result: 'fail',
            scored: true,
            source: 'verdict',
            timestamp: { seconds: 1_795_514_400, nanos: 0 },
            resources: [{ apiVersion: 'v1', kind: 'Pod', name: 'a', namespace: 'shop', uid: 'uid-shop-a' }],
            properties: { ruleset: 'pss' },
            message: 'rule-1 fail',
            severity: 'high',
          },
          {
            policy: 'pss',
            rule: 'rule-1',
            result: 'error',
            scored: true,
            source: 'verdict',
            timestamp: { seconds: 1_795_514_400, nanos: 0 },
            resources: [{ apiVersion: 'v1', kind: 'Pod', name: 'b', namespace: 'shop', uid: 'uid-shop-b' }],
            properties: { ruleset: 'pss' },
            message: 'rule-1 error',
            severity: 'high',
          },
        ],
      },
      {
        apiVersion: 'wgpolicyk8s.io/v1alpha2',
        kind: 'ClusterPolicyReport',
        metadata: { name: 'verdict-pss', labels: { 'app.kubernetes.io/managed-by': 'verdict', 'verdict.dev/policy': 'pss' }, annotations: { 'verdict.dev/policy': 'pss' } },
        summary: { pass: 0, fail: 0, warn: 1, error: 0, skip: 0 },
        results: [
          {
            policy: 'pss',
            rule: 'rule-0',
            result: 'warn',
            scored: true,
            source: 'verdict',
            timestamp: { seconds: 1_795_514_400, nanos: 0 },
            resources: [{ apiVersion: 'v1', kind: 'Namespace', name: 'shop' }],
            properties: { ruleset: 'pss' },
            message: 'rule-0 fail',
            severity: 'high',
          },
        ],
      },
    ])
  })

  it('gives the same summaries and results the openreports.io shape: Report and ClusterReport, with source and the cap as configuration', () => {
    const builder = new ReportBuilder({ maxResults: 10, now: NOW })
    builder.add(pod('shop', 'a'), verdict('pss', 'Deny', ['pass', 'fail']))
    builder.add({ apiVersion: 'v1', kind: 'Namespace', name: 'shop', namespace: '' }, verdict('pss', 'Warn', ['fail']))
    const open = objects(builder, 'pss', OPENREPORTS)
    const wg = objects(builder, 'pss', WGPOLICYK8S)
    const labels = { 'app.kubernetes.io/managed-by': 'verdict', 'verdict.dev/policy': 'pss' }
    const configuration = { limits: { maxResults: 10, statusFilter: ['fail', 'warn', 'error', 'skip'] } }
    expect(open).toEqual([
      {
        apiVersion: 'openreports.io/v1alpha1',
        kind: 'Report',
        metadata: { name: 'verdict-pss', namespace: 'shop', labels, annotations: { 'verdict.dev/policy': 'pss' } },
        source: 'verdict',
        configuration,
        summary: { pass: 1, fail: 1, warn: 0, error: 0, skip: 0 },
        results: wg[0]?.results,
      },
      {
        apiVersion: 'openreports.io/v1alpha1',
        kind: 'ClusterReport',
        metadata: { name: 'verdict-pss', labels, annotations: { 'verdict.dev/policy': 'pss' } },
        source: 'verdict',
        configuration,
        summary: { pass: 0, fail: 0, warn: 1, error: 0, skip: 0 },
        results: wg[1]?.results,
      },
    ])
    expect((open[0]?.results as unknown[]).length).toBe(1)
    expect(wg.map((report) => report.kind)).toEqual(['PolicyReport', 'ClusterPolicyReport'])
  })

  it.each([WGPOLICYK8S, OPENREPORTS])('caps the results of a report and keeps its summary exact ($name)', (api) => {
    const builder = new ReportBuilder({ maxResults: 3, now: NOW })
    for (let i = 0; i < 50; i++) builder.add(pod('shop', `p${i}`), verdict('pss', 'Audit', ['fail', 'pass']))
    const [report] = objects(builder, 'pss', api)
    expect(report?.summary).toEqual({ pass: 50, fail: 50, warn: 0, error: 0, skip: 0 })
    expect((report?.results as unknown[]).length).toBe(3)
  })

  it('takes back what was added since a mark, as when a list starts over', () => {
    const builder = new ReportBuilder({ maxResults: 10, now: NOW })
    builder.add(pod('a', 'x'), verdict('pss', 'Deny', ['fail']))
    const mark = builder.mark()
    builder.add(pod('a', 'y'), verdict('pss', 'Deny', ['fail']))
    builder.add(pod('b', 'z'), verdict('pss', 'Deny', ['pass']))
    builder.rollback(mark)
    const reports = objects(builder, 'pss')
    expect(reports.map((report) => (report.metadata as { namespace: string }).namespace)).toEqual(['a'])
    expect(reports[0]?.summary).toEqual({ pass: 0, fail: 1, warn: 0, error: 0, skip: 0 })
    expect((reports[0]?.results as unknown[]).length).toBe(1)
  })

  it.each([WGPOLICYK8S, OPENREPORTS])(
    "digests what a report says ($name): equal for the cluster's copy with sorted keys and other timestamps, different when a result changes",
    (api) => {
      const build = (now: Date, failing: string, maxResults = 10): ReportBuilder => {
        const builder = new ReportBuilder({ maxResults, now })
        builder.add(pod('shop', 'a'), verdict('pss', 'Deny', ['pass', failing === 'a' ? 'fail' : 'pass']))
        builder.add(pod('shop', 'b'), verdict('pss', 'Deny', ['pass', failing === 'b' ? 'fail' : 'pass']))
        return builder
      }
      const [draft] = drafts(build(NOW, 'a'), 'pss', api)
      const written = draft?.toObject() ?? {}
      // As the API server hands a custom resource back: keys sorted (Go's maps), metadata grown.
      const sortKeys = (value: unknown): unknown =>
        Array.isArray(value) ? value.map(sortKeys) : value !== null && typeof value === 'object' ? Object.fromEntries(Object.entries(value).sort(([x], [y]) => x.localeCompare(y)).map(([key, inner]) => [key, sortKeys(inner)])) : value
      const fromCluster = sortKeys({ ...written, metadata: { ...(written.metadata as object), resourceVersion: '42', uid: 'u', creationTimestamp: '2026-11-24T10:00:00Z' } }) as Record<string, unknown>
      expect(Object.keys((fromCluster.results as Record<string, unknown>[])[0] ?? {})).toEqual([...Object.keys((written.results as Record<string, unknown>[])[0] ?? {})].sort())
      expect(existingReportDigest(fromCluster)).toBe(draft?.contentDigest)
      const [anHourLater] = drafts(build(new Date(NOW.getTime() + 3_600_000), 'a'), 'pss', api)
      expect(anHourLater?.contentDigest).toBe(draft?.contentDigest)
      const [otherFailing] = drafts(build(NOW, 'b'), 'pss', api)
      expect(otherFailing?.contentDigest).not.toBe(draft?.contentDigest)
      // The cap is part of an OpenReports report (its configuration), not of a PolicyReport.
      const [otherCap] = drafts(build(NOW, 'a', 20), 'pss', api)
      expect(otherCap?.contentDigest === draft?.contentDigest).toBe(api === WGPOLICYK8S)
    },
  )

  it('names reports within the limits of Kubernetes names and labels', () => {
    const long = `p${'a'.repeat(240)}`
    expect(reportName(long).length).toBeLessThanOrEqual(253)
    const builder = new ReportBuilder({ maxResults: 1, now: NOW })
    builder.add(pod('a', 'x'), verdict(long, 'Deny', ['fail']))
    const [report] = objects(builder, long)
    const label = ((report?.metadata as { labels: Record<string, string> }).labels)['verdict.dev/policy'] as string
    expect(label.length).toBeLessThanOrEqual(63)
    expect(label).toMatch(/^[a-z0-9]([-a-z0-9._]*[a-z0-9])?$/)
  })

  it.each([WGPOLICYK8S, OPENREPORTS])("keeps a report writable ($name): long messages are cut, and results stop before etcd's object limit", (api) => {
    const builder = new ReportBuilder({ maxResults: 100_000, now: NOW })
    const long = verdict('pss', 'Deny', ['fail'])
    const judged = long.judged.map((result) => ({ ...result, message: 'x'.repeat(50_000) }))
    for (let i = 0; i < 2_000; i++) builder.add(pod('shop', `p${i}`), { ...long, judged })
    const [report] = objects(builder, 'pss', api)
    expect(report?.summary).toEqual({ pass: 0, fail: 2_000, warn: 0, error: 0, skip: 0 })
    const results = report?.results as { message: string }[]
    expect(results[0]?.message.length).toBe(1_025)
    expect(JSON.stringify(report).length).toBeLessThan(1.2 * 1024 * 1024)
    expect(results.length).toBeGreaterThan(500)
  })
})

