import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ReportsApiMode } from '../../../src/config.js'
import { BackgroundScanner } from '../../../src/scan/background/background-scanner.js'
import { DefinitionCatalog } from '../../../src/services/definition-catalog.js'
import { DefinitionService } from '../../../src/services/definition-service.js'
import { insertAudits } from '../../../src/store/audits-repository.js'
import { recordingLogger } from '../../k8s/controller-harness.js'
import { FakeKubeApi, type Json, type ResourceName } from '../../k8s/fake-kube-api.js'
import { useEmptiedTestDatabase } from '../../support/databases.js'

const NOW = new Date('2026-11-24T10:00:00.000Z')
const OPEN = '/apis/openreports.io/v1alpha1'
const WG = '/apis/wgpolicyk8s.io/v1alpha2'

function pod(name: string, isPrivileged: boolean): Json {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'shop' },
    spec: { containers: [{ name: 'app', image: 'nginx:1.27', securityContext: { privileged: isPrivileged } }] },
  }
}

/** Another tool's report, in either group: a switch of Verdict's groups must leave it alone. */
function kyvernoReport(kind: string, apiVersion: string): Json {
  return {
    apiVersion,
    kind,
    metadata: { name: 'kyverno-pod-web', namespace: 'shop', labels: { 'app.kubernetes.io/managed-by': 'kyverno' } },
    summary: { pass: 1, fail: 0, warn: 0, error: 0, skip: 0 },
    results: [],
  }
}

/** Where a report is and what it says, whichever group holds it: the same in both. */
function content(report: Json): Json {
  const metadata = report.metadata as Json
  return {
    scope: metadata.namespace === undefined ? 'cluster' : `namespace ${String(metadata.namespace)}`,
    name: metadata.name,
    labels: metadata.labels,
    summary: report.summary,
    results: (report.results as Json[]).map(({ timestamp: _timestamp, ...rest }) => rest),
  }
}

const byScope = (a: Json, b: Json): number => String(a.scope).localeCompare(String(b.scope))

describe('the API group background scans write reports to (VERDICT_REPORTS_API)', () => {
  let api: FakeKubeApi
  const database = useEmptiedTestDatabase('pglite')
  let catalog: DefinitionCatalog

  beforeEach(async () => {
    api = await FakeKubeApi.start()
    catalog = new DefinitionCatalog(database.db)
    await catalog.start()
    const service = new DefinitionService(database.db, catalog)
    const privileged = { name: 'privileged-containers', match: { kinds: ['Pod'] }, validate: { pattern: { spec: { containers: [{ '=(securityContext)': { '=(privileged)': 'false' } }] } } } }
    const teamLabel = { name: 'team-label', match: { kinds: ['Namespace'] }, validate: { pattern: { metadata: { labels: { team: '?*' } } } } }
    await service.createRuleset('pss', { rules: [privileged, teamLabel] }, { by: 'admin' })
    await service.createPolicy('pss', { rulesets: ['pss'], action: 'Deny' }, { by: 'admin' })
    api.createMany('pods', [pod('web', true), pod('api', false)])
    api.createMany('namespaces', [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop', labels: { team: 'shop' } } },
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'blog' } },
    ])
  })

  afterEach(async () => {
    await catalog.stop()
    await api.close()
  })

  function scanner(reportsApi: ReportsApiMode | undefined, logger = recordingLogger('scanner')): BackgroundScanner {
    return new BackgroundScanner({
      kubeConfig: api.kubeConfig('scanner'),
      catalog,
      namespaces: { get: (name) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }) },
      db: database.db,
      writeAudits: (rows) => insertAudits(database.db, rows),
      logger,
      isLeader: () => true,
      intervalMs: 3_600_000,
      settings: { pageSize: 10, maxResults: 10, excludedNamespaces: new Set(), listRestarts: 2 },
      ...(reportsApi === undefined ? {} : { reportsApi }),
      now: () => NOW,
    })
  }

  const stored = (...resources: ResourceName[]): Json[] => resources.flatMap((resource) => api.list(resource))
  const contents = (...resources: ResourceName[]): Json[] => stored(...resources).map(content).sort(byScope)
  const writes = (from: number): string[] =>
    api.requests
      .slice(from)
      .filter((request) => request.method !== 'GET')
      .map((request) => `${request.method} ${request.path}`)
  const chosen = (logger: ReturnType<typeof recordingLogger>) => logger.lines.filter((line) => line.level === 'info' && line.message.startsWith('background scans write')).map((line) => ({ message: line.message, ...line.fields }))

  /** What the scan of this cluster reports, in either group: one namespace report and the cluster report. */
  const expected = (): Json[] => [
    {
      scope: 'cluster',
      name: 'verdict-pss',
      labels: { 'app.kubernetes.io/managed-by': 'verdict', 'verdict.dev/policy': 'pss' },
      summary: { pass: 1, fail: 1, warn: 0, error: 0, skip: 0 },
      results: [
        expect.objectContaining({ policy: 'pss', rule: 'team-label', result: 'fail', source: 'verdict', resources: [{ apiVersion: 'v1', kind: 'Namespace', name: 'blog', uid: expect.any(String) }] }),
      ],
    },
    {
      scope: 'namespace shop',
      name: 'verdict-pss',
      labels: { 'app.kubernetes.io/managed-by': 'verdict', 'verdict.dev/policy': 'pss' },
      summary: { pass: 1, fail: 1, warn: 0, error: 0, skip: 0 },
      results: [
        expect.objectContaining({ policy: 'pss', rule: 'privileged-containers', result: 'fail', source: 'verdict', resources: [{ apiVersion: 'v1', kind: 'Pod', name: 'web', namespace: 'shop', uid: (api.get('pods', 'web', 'shop')?.metadata as Json).uid }] }),
      ],
    },
  ]

  it('auto (the default): OpenReports Report and ClusterReport when discovery finds openreports.io, asked at each full scan, logged when it changes', async () => {
    const logger = recordingLogger('scanner')
    const scan = scanner(undefined, logger)
    const outcome = await scan.scanOnce()
    expect(outcome.reports).toEqual({ openreports: { created: 2, updated: 0, unchanged: 0, deleted: 0 }, wgpolicyk8s: { created: 0, updated: 0, unchanged: 0, deleted: 0 } })
    expect(contents('reports', 'clusterreports')).toEqual(expected())
    expect(stored('policyreports', 'clusterpolicyreports')).toEqual([])
    const [report] = stored('reports')
    expect(report).toMatchObject({ apiVersion: 'openreports.io/v1alpha1', kind: 'Report', source: 'verdict', configuration: { limits: { maxResults: 10, statusFilter: ['fail', 'warn', 'error', 'skip'] } } })
    expect(stored('clusterreports')[0]).toMatchObject({ apiVersion: 'openreports.io/v1alpha1', kind: 'ClusterReport', source: 'verdict' })
    expect(writes(0)).toEqual([`POST ${OPEN}/clusterreports`, `POST ${OPEN}/namespaces/shop/reports`])
    expect(chosen(logger)).toEqual([
      {
        message: 'background scans write their reports to openreports.io/v1alpha1',
        write: ['openreports.io/v1alpha1'],
        clear: ['wgpolicyk8s.io/v1alpha2'],
        reason: 'VERDICT_REPORTS_API=auto and the cluster serves openreports.io/v1alpha1',
      },
    ])
    await scan.scanOnce()
    // A scan of some policies writes where the last full scan did, without asking.
    await scan.scanOnce(new Set(['pss']))
    expect(api.requests.filter((request) => request.path === OPEN).map((request) => request.status)).toEqual([200, 200])
    expect(chosen(logger).length).toBe(1)
  })

  it('auto picks up the OpenReports CRDs installed after Verdict started, at the next full scan, and moves its reports there', async () => {
    api.removeGroup('openreports.io')
    const logger = recordingLogger('scanner')
    const scan = scanner('auto', logger)
    expect((await scan.scanOnce()).reports).toEqual({ wgpolicyk8s: { created: 2, updated: 0, unchanged: 0, deleted: 0 } })
    api.restoreGroup('openreports.io')
    expect((await scan.scanOnce(new Set(['pss']))).reports).toEqual({ wgpolicyk8s: { created: 0, updated: 0, unchanged: 2, deleted: 0 }, openreports: { created: 0, updated: 0, unchanged: 0, deleted: 0 } })
    expect((await scan.scanOnce()).reports).toEqual({ openreports: { created: 2, updated: 0, unchanged: 0, deleted: 0 }, wgpolicyk8s: { created: 0, updated: 0, unchanged: 0, deleted: 2 } })
    expect(contents('reports', 'clusterreports')).toEqual(expected())
    expect(stored('policyreports', 'clusterpolicyreports')).toEqual([])
    expect(chosen(logger).map((line) => line.message)).toEqual(['background scans write their reports to wgpolicyk8s.io/v1alpha2', 'background scans write their reports to openreports.io/v1alpha1'])
  })

  it('auto without the OpenReports CRDs: wgpolicyk8s.io PolicyReport and ClusterPolicyReport, saying why', async () => {
    api.removeGroup('openreports.io')
    const logger = recordingLogger('scanner')
    const outcome = await scanner('auto', logger).scanOnce()
    expect(outcome.reports).toEqual({ wgpolicyk8s: { created: 2, updated: 0, unchanged: 0, deleted: 0 } })
    expect(outcome.reportsNotWritten).toBeUndefined()
    expect(contents('policyreports', 'clusterpolicyreports')).toEqual(expected())
    expect(stored('policyreports')[0]).toMatchObject({ apiVersion: 'wgpolicyk8s.io/v1alpha2', kind: 'PolicyReport' })
    expect(stored('policyreports')[0]).not.toHaveProperty('source')
    expect(chosen(logger)).toEqual([
      {
        message: 'background scans write their reports to wgpolicyk8s.io/v1alpha2',
        write: ['wgpolicyk8s.io/v1alpha2'],
        clear: ['openreports.io/v1alpha1'],
        reason:
          'VERDICT_REPORTS_API=auto and the cluster does not serve openreports.io/v1alpha1 reports and clusterreports (the chart installs them with backgroundScan.installOpenReportsCRDs=true, or see github.com/openreports/reports-api)',
      },
    ])
  })

  it('auto when discovery fails: no report written or deleted in either group, and the next scan asks again', async () => {
    api.create('policyreports', kyvernoReport('PolicyReport', 'wgpolicyk8s.io/v1alpha2'))
    api.failRequests({ pathIncludes: OPEN, method: 'GET', status: 503 })
    const logger = recordingLogger('scanner')
    const scan = scanner('auto', logger)
    const first = await scan.scanOnce()
    expect(first).toMatchObject({ objectsJudged: 4, reports: undefined, reportsNotWritten: `discovery of openreports.io/v1alpha1 (GET ${OPEN}): HTTP 503; the next scan asks again` })
    expect(writes(0)).toEqual([])
    expect(logger.lines.filter((line) => line.level === 'warn').map((line) => line.message)).toEqual(['background scan could not write its reports'])
    const second = await scan.scanOnce()
    expect(second.reports?.openreports).toEqual({ created: 2, updated: 0, unchanged: 0, deleted: 0 })
    expect(stored('policyreports').map((report) => (report.metadata as Json).name)).toEqual(['kyverno-pod-web'])
    // Once a group was chosen, a failed discovery keeps it, and says so.
    api.failRequests({ pathIncludes: OPEN, method: 'GET', status: 503 })
    const third = await scan.scanOnce()
    expect(third).toMatchObject({ reports: { openreports: { created: 0, updated: 0, unchanged: 2, deleted: 0 } } })
    expect(third.reportsNotWritten).toBeUndefined()
    expect(logger.lines.filter((line) => line.level === 'warn').map((line) => [line.message, line.fields])).toEqual([
      ['background scan could not write its reports', expect.anything()],
      [
        'background scan could not read which report groups the cluster serves: reports go where the last scan wrote them',
        { problem: `discovery of openreports.io/v1alpha1 (GET ${OPEN}): HTTP 503`, write: ['openreports.io/v1alpha1'] },
      ],
    ])
  })

  it('openreports: Reports only; without their CRDs no fallback, and the PolicyReports of before are kept until Reports can be written', async () => {
    expect((await scanner('openreports').scanOnce()).reports).toEqual({ openreports: { created: 2, updated: 0, unchanged: 0, deleted: 0 }, wgpolicyk8s: { created: 0, updated: 0, unchanged: 0, deleted: 0 } })
    expect(contents('reports', 'clusterreports')).toEqual(expected())
    await scanner('wgpolicyk8s').scanOnce()
    api.removeGroup('openreports.io')
    const outcome = await scanner('openreports').scanOnce()
    expect(outcome.reports).toEqual({})
    expect(contents('policyreports', 'clusterpolicyreports')).toEqual(expected())
    expect(outcome.reportsNotWritten).toBe(
      `${OPEN}/reports is not served by the API server (404): install the openreports.io/v1alpha1 CRDs (the chart installs them with backgroundScan.installOpenReportsCRDs=true, or see github.com/openreports/reports-api)`,
    )
  })

  it('wgpolicyk8s: PolicyReports only, though the cluster serves OpenReports, with no discovery asked', async () => {
    const outcome = await scanner('wgpolicyk8s').scanOnce()
    expect(outcome.reports).toEqual({ wgpolicyk8s: { created: 2, updated: 0, unchanged: 0, deleted: 0 }, openreports: { created: 0, updated: 0, unchanged: 0, deleted: 0 } })
    expect(contents('policyreports', 'clusterpolicyreports')).toEqual(expected())
    expect(stored('reports', 'clusterreports')).toEqual([])
    expect(api.requests.filter((request) => request.path === OPEN)).toEqual([])
  })

  it('both: the same reports in both groups, each kept up to date on its own', async () => {
    const scan = scanner('both')
    expect((await scan.scanOnce()).reports).toEqual({ openreports: { created: 2, updated: 0, unchanged: 0, deleted: 0 }, wgpolicyk8s: { created: 2, updated: 0, unchanged: 0, deleted: 0 } })
    expect(contents('reports', 'clusterreports')).toEqual(expected())
    expect(contents('policyreports', 'clusterpolicyreports')).toEqual(contents('reports', 'clusterreports'))
    api.update('pods', pod('api', true))
    expect((await scan.scanOnce()).reports).toEqual({ openreports: { created: 0, updated: 1, unchanged: 1, deleted: 0 }, wgpolicyk8s: { created: 0, updated: 1, unchanged: 1, deleted: 0 } })
    expect(contents('policyreports', 'clusterpolicyreports')).toEqual(contents('reports', 'clusterreports'))
    expect(contents('reports')[0]?.summary).toEqual({ pass: 0, fail: 2, warn: 0, error: 0, skip: 0 })
  })

  it('off: writes nothing, and deletes the reports Verdict wrote before in either group', async () => {
    await scanner('both').scanOnce()
    api.create('reports', kyvernoReport('Report', 'openreports.io/v1alpha1'))
    const from = api.requests.length
    const outcome = await scanner('off').scanOnce()
    expect(outcome.reports).toEqual({ openreports: { created: 0, updated: 0, unchanged: 0, deleted: 2 }, wgpolicyk8s: { created: 0, updated: 0, unchanged: 0, deleted: 2 } })
    expect(writes(from).every((write) => write.startsWith('DELETE '))).toBe(true)
    expect(stored('reports', 'clusterreports', 'policyreports', 'clusterpolicyreports').map((report) => (report.metadata as Json).name)).toEqual(['kyverno-pod-web'])
    expect((await scanner('off').scanOnce()).reports).toEqual({ openreports: { created: 0, updated: 0, unchanged: 0, deleted: 0 }, wgpolicyk8s: { created: 0, updated: 0, unchanged: 0, deleted: 0 } })
  })

  it("switching groups moves Verdict's reports and leaves other tools' reports in both groups alone", async () => {
    api.create('reports', kyvernoReport('Report', 'openreports.io/v1alpha1'))
    api.create('policyreports', kyvernoReport('PolicyReport', 'wgpolicyk8s.io/v1alpha2'))
    const names = (...resources: ResourceName[]): string[] => stored(...resources).map((report) => `${String(report.kind)} ${String((report.metadata as Json).name)}`).sort()

    await scanner('openreports').scanOnce()
    expect(names('reports', 'clusterreports')).toEqual(['ClusterReport verdict-pss', 'Report kyverno-pod-web', 'Report verdict-pss'])

    let from = api.requests.length
    const toWg = await scanner('wgpolicyk8s').scanOnce()
    expect(toWg.reports).toEqual({ wgpolicyk8s: { created: 2, updated: 0, unchanged: 0, deleted: 0 }, openreports: { created: 0, updated: 0, unchanged: 0, deleted: 2 } })
    // The new group's reports are written before the old group's are deleted: never a moment without.
    expect(writes(from)).toEqual([
      `POST ${WG}/clusterpolicyreports`,
      `POST ${WG}/namespaces/shop/policyreports`,
      `DELETE ${OPEN}/namespaces/shop/reports/verdict-pss`,
      `DELETE ${OPEN}/clusterreports/verdict-pss`,
    ])
    expect(names('reports', 'clusterreports')).toEqual(['Report kyverno-pod-web'])
    expect(names('policyreports', 'clusterpolicyreports')).toEqual(['ClusterPolicyReport verdict-pss', 'PolicyReport kyverno-pod-web', 'PolicyReport verdict-pss'])
    expect(contents('policyreports', 'clusterpolicyreports').filter((report) => report.name === 'verdict-pss')).toEqual(expected())

    from = api.requests.length
    const back = await scanner('auto').scanOnce()
    expect(back.reports).toEqual({ openreports: { created: 2, updated: 0, unchanged: 0, deleted: 0 }, wgpolicyk8s: { created: 0, updated: 0, unchanged: 0, deleted: 2 } })
    expect(writes(from).filter((write) => write.startsWith('DELETE '))).toEqual([`DELETE ${WG}/namespaces/shop/policyreports/verdict-pss`, `DELETE ${WG}/clusterpolicyreports/verdict-pss`])
    expect(names('reports', 'clusterreports')).toEqual(['ClusterReport verdict-pss', 'Report kyverno-pod-web', 'Report verdict-pss'])
    expect(names('policyreports', 'clusterpolicyreports')).toEqual(['PolicyReport kyverno-pod-web'])
  })
})
