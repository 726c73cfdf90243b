import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { BackgroundScanner, type BackgroundScannerOptions } from '../../../src/scan/background/background-scanner.js'
import { DefinitionCatalog } from '../../../src/services/definition-catalog.js'
import { DefinitionService } from '../../../src/services/definition-service.js'
import { insertAudits, listPolicyAudits } from '../../../src/store/audits-repository.js'
import { countNotedVerdicts } from '../../../src/store/background-verdicts-repository.js'
import type { Db } from '../../../src/store/db.js'
import { FakeKubeApi, type Json } from '../../k8s/fake-kube-api.js'
import { recordingLogger } from '../../k8s/controller-harness.js'
import { useEmptiedTestDatabase } from '../../support/databases.js'

const privileged = {
  name: 'privileged-containers',
  match: { kinds: ['Pod'] },
  validate: { pattern: { spec: { containers: [{ '=(securityContext)': { '=(privileged)': 'false' } }] } } },
}

function pod(namespace: string, name: string, isPrivileged: boolean): Json {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, uid: `uid-${namespace}-${name}`, managedFields: [{ manager: 'kubectl' }] },
    spec: { containers: [{ name: 'app', image: 'nginx:1.27', securityContext: { privileged: isPrivileged } }] },
  }
}

function deployment(namespace: string, name: string, isPrivileged: boolean): Json {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace, uid: `uid-${namespace}-${name}` },
    spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: (pod(namespace, name, isPrivileged).spec as Json) } },
  }
}

interface Setup {
  api: FakeKubeApi
  database: { readonly db: Db }
  catalog: DefinitionCatalog
  service: DefinitionService
}

describe('background scans', () => {
  let setup: Setup
  let leader = true
  // One store for the file, emptied before each test.
  const database = useEmptiedTestDatabase('pglite')

  beforeEach(async () => {
    const api = await FakeKubeApi.start()
    const catalog = new DefinitionCatalog(database.db)
    await catalog.start()
    const service = new DefinitionService(database.db, catalog)
    await service.createRuleset('pss', { rules: [privileged] }, { by: 'admin' })
    await service.createPolicy('pss', { rulesets: ['pss'], action: 'Deny' }, { by: 'admin' })
    api.createMany('pods', [
      ...Array.from({ length: 6 }, (_, i) => pod('shop', `web-${i}`, i < 4)),
      ...Array.from({ length: 3 }, (_, i) => pod('blog', `db-${i}`, false)),
      pod('kube-system', 'proxy', true),
      pod('verdict', 'verdict-0', true),
    ])
    api.createMany('deployments', [deployment('shop', 'api', true)])
    setup = { api, database, catalog, service }
    leader = true
  })

  afterEach(async () => {
    await setup.catalog.stop()
    await setup.api.close()
  })

  function scanner(overrides: Partial<BackgroundScannerOptions> = {}): BackgroundScanner {
    return new BackgroundScanner({
      kubeConfig: setup.api.kubeConfig('scanner'),
      catalog: setup.catalog,
      namespaces: { get: (name) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { 'kubernetes.io/metadata.name': name } } }) },
      db: setup.database.db,
      writeAudits: (rows) => insertAudits(setup.database.db, rows),
      logger: recordingLogger('scanner'),
      isLeader: () => leader,
      intervalMs: 3_600_000,
      settings: { pageSize: 4, maxResults: 3, excludedNamespaces: new Set(['kube-system', 'verdict']), listRestarts: 2 },
      now: () => new Date(),
      settleMs: 10,
      leadershipCheckMs: 20,
      ...overrides,
    })
  }

  // The fake serves openreports.io: under the default VERDICT_REPORTS_API=auto, reports are Reports.
  const reports = (): Json[] => setup.api.list('reports')
  const backgroundAudits = async (): Promise<string[]> =>
    (await listPolicyAudits(setup.database.db, { name: '*', start: new Date(0), end: new Date(Date.UTC(2027, 0, 1)), page: 1, pageSize: 100, source: 'background' })).map(
      (audit) => JSON.parse(audit.input).metadata.name as string,
    )

  it('reads every matched kind in pages, skips excluded namespaces, and writes a capped Report per namespace with exact summaries', async () => {
    const outcome = await scanner().scanOnce()
    expect(outcome).toMatchObject({
      objectsRead: 12,
      objectsJudged: 10,
      restarts: 0,
      failures: [],
      reports: { openreports: { created: 2, updated: 0, unchanged: 0, deleted: 0 }, wgpolicyk8s: { created: 0, updated: 0, unchanged: 0, deleted: 0 } },
    })
    const podLists = setup.api.requests.filter((request) => request.method === 'GET' && request.path === '/api/v1/pods')
    expect(podLists.map((request) => new URLSearchParams(request.query).get('limit'))).toEqual(['4', '4', '4'])
    expect(podLists.slice(1).every((request) => new URLSearchParams(request.query).has('continue'))).toBe(true)
    const [blog, shop] = reports().sort((a, b) => String((a.metadata as Json).namespace).localeCompare(String((b.metadata as Json).namespace)))
    expect(blog).toMatchObject({ kind: 'Report', source: 'verdict', metadata: { name: 'verdict-pss', namespace: 'blog', labels: { 'app.kubernetes.io/managed-by': 'verdict', 'verdict.dev/policy': 'pss' } }, summary: { pass: 3, fail: 0, warn: 0, error: 0, skip: 0 }, results: [] })
    // The Deployment's template (autogen) and four privileged Pods: five failures, three listed, in the order read.
    expect(shop?.summary).toEqual({ pass: 2, fail: 5, warn: 0, error: 0, skip: 0 })
    expect((shop?.results as Json[]).map((result) => (result.resources as Json[])[0])).toMatchObject([
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'api', namespace: 'shop' },
      { apiVersion: 'v1', kind: 'Pod', name: 'web-0', namespace: 'shop' },
      { apiVersion: 'v1', kind: 'Pod', name: 'web-1', namespace: 'shop' },
    ])
    expect((shop?.results as Json[])[0]).toMatchObject({ policy: 'pss', rule: 'privileged-containers', result: 'fail', source: 'verdict', properties: { ruleset: 'pss' } })
  })

  it('audits an object once per change of its verdict, not once per scan, and rewrites no report that says the same', async () => {
    // A minute between scans: the results' timestamps differ, and that alone rewrites nothing.
    let minute = 0
    const scan = scanner({ now: () => new Date(Date.UTC(2026, 10, 24, 10, minute++)) })
    await scan.scanOnce()
    expect((await backgroundAudits()).length).toBe(10)
    const audit = (await listPolicyAudits(setup.database.db, { name: 'pss', start: new Date(0), end: new Date(Date.UTC(2027, 0, 1)), page: 1, pageSize: 1, source: 'background' }))[0]
    expect(audit).toMatchObject({ policyName: 'pss', inputFormat: 'json', updatedBy: 'system:verdict:background-scan' })
    expect(JSON.parse(audit?.input ?? '{}').metadata.managedFields).toBeUndefined()
    const again = await scan.scanOnce()
    expect(again.reports?.openreports).toEqual({ created: 0, updated: 0, unchanged: 2, deleted: 0 })
    expect((await backgroundAudits()).length).toBe(10)
    expect(await countNotedVerdicts(setup.database.db)).toBe(10)

    setup.api.update('pods', pod('blog', 'db-0', true))
    const changed = await scan.scanOnce()
    expect(changed.reports?.openreports).toEqual({ created: 0, updated: 1, unchanged: 1, deleted: 0 })
    expect((await backgroundAudits()).filter((name) => name === 'db-0').length).toBe(2)
    expect((await backgroundAudits()).length).toBe(11)
  })

  it('starts a list over when its continue token expires mid-scan, and counts nothing twice', async () => {
    let expired = false
    const scan = scanner({
      writeAudits: async (rows) => {
        // After the first page of Pods, whose list goes on with a continue token.
        if (!expired && rows.policyAudits.some((row) => JSON.parse(row.input).kind === 'Pod')) {
          expired = true
          setup.api.expireContinueTokens()
        }
        await insertAudits(setup.database.db, rows)
      },
    })
    const outcome = await scan.scanOnce()
    expect(outcome.restarts).toBe(1)
    expect(outcome.failures).toEqual([])
    const shop = reports().find((report) => (report.metadata as Json).namespace === 'shop')
    expect(shop?.summary).toEqual({ pass: 2, fail: 5, warn: 0, error: 0, skip: 0 })
    expect(new Set(await backgroundAudits()).size).toBe(10)
  })

  it('deletes the reports of a deleted policy or one turned background: false, and forgets their verdicts', async () => {
    const scan = scanner()
    await scan.scanOnce()
    expect(reports().length).toBe(2)
    await setup.service.replacePolicy('pss', { rulesets: ['pss'], action: 'Deny', background: false }, { by: 'admin' })
    expect((await scan.scanOnce()).reports?.openreports).toEqual({ created: 0, updated: 0, unchanged: 0, deleted: 2 })
    expect(reports()).toEqual([])
    expect(await countNotedVerdicts(setup.database.db)).toBe(0)
  })

  it('reports a rule switched off as a skip saying so, and deletes the reports of a policy switched off', async () => {
    const reason = 'the CNI migration needs privileged agents; OPS-9'
    await setup.service.replaceRuleset('pss', { rules: [{ ...privileged, enabled: false, disabledReason: reason }] }, { by: 'admin' })
    const scan = scanner()
    await scan.scanOnce()
    const shop = reports().find((report) => (report.metadata as Json).namespace === 'shop')
    // Never silently absent: every object the rule would have judged is counted and (up to the cap) listed as a skip.
    expect(shop?.summary).toEqual({ pass: 0, fail: 0, warn: 0, error: 0, skip: 7 })
    expect((shop?.results as Json[])[0]).toMatchObject({
      policy: 'pss',
      rule: 'privileged-containers',
      result: 'skip',
      message: `rule switched off: ${reason}`,
      properties: { ruleset: 'pss', disabled: 'true', disabledReason: reason },
    })
    await setup.service.replacePolicy('pss', { rulesets: ['pss'], action: 'Deny', enabled: false, disabledReason: 'replaced by restricted' }, { by: 'admin' })
    expect((await scan.scanOnce()).reports?.openreports).toEqual({ created: 0, updated: 0, unchanged: 0, deleted: 2 })
    expect(reports()).toEqual([])
  })

  it('scans on past a kind the cluster does not serve (its CRD is not installed), and still prunes and forgets', async () => {
    await setup.service.createRuleset('widgets', { rules: [{ name: 'sized', match: { kinds: ['example.com/v1/Widget'] }, validate: { pattern: { spec: { size: '?*' } } } }] }, { by: 'admin' })
    await setup.service.createPolicy('widgets', { rulesets: ['widgets'], action: 'Audit' }, { by: 'admin' })
    const scan = scanner()
    const outcome = await scan.scanOnce()
    expect(outcome).toMatchObject({ objectsJudged: 10, failures: [], reports: { openreports: { created: 2 } } })
    expect(outcome.unlistable).toEqual(['example.com/widgets: not served by the API server (404)'])
    setup.api.delete('pods', 'web-5', { namespace: 'shop' })
    await scan.scanOnce()
    expect(await countNotedVerdicts(setup.database.db)).toBe(9)
  })

  it('audits and notes verdicts when the cluster serves no report API, and says why it wrote none', async () => {
    setup.api.removeGroup('openreports.io')
    setup.api.removeGroup('wgpolicyk8s.io')
    const logger = recordingLogger('scanner')
    const outcome = await scanner({ logger }).scanOnce()
    expect(outcome).toMatchObject({ objectsJudged: 10, failures: [], reports: {} })
    expect(outcome.reportsNotWritten).toBe(
      '/apis/wgpolicyk8s.io/v1alpha2/policyreports is not served by the API server (404): install the wgpolicyk8s.io/v1alpha2 CRDs (Policy Reporter or Kyverno bring them)',
    )
    expect(logger.lines.filter((line) => line.level === 'warn').map((line) => line.message)).toEqual(['background scan could not write its reports'])
    expect((await backgroundAudits()).length).toBe(10)
    expect(await countNotedVerdicts(setup.database.db)).toBe(10)
  })

  it('scans only in the leader: at once when it leads, and when a policy changes', async () => {
    leader = false
    const scan = scanner()
    scan.start()
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(setup.api.requests.filter((request) => request.path === '/api/v1/pods')).toEqual([])
    leader = true
    await waitUntil(() => reports().length === 2)
    const before = setup.api.requests.filter((request) => request.path === '/api/v1/pods').length
    await setup.service.replacePolicy('pss', { rulesets: ['pss'], action: 'Audit' }, { by: 'admin' })
    await waitUntil(() => setup.api.requests.filter((request) => request.path === '/api/v1/pods').length > before)
    await scan.stop()
  })

  describe('after a definition changes', () => {
    const replicasOnly = { name: 'two-replicas', match: { kinds: ['Deployment'] }, validate: { pattern: { spec: { replicas: '>1' } } } }
    const isReportPath = (path: string): boolean => path.startsWith('/apis/openreports.io/') || path.startsWith('/apis/wgpolicyk8s.io/')
    const listed = (from: number): string[] => [...new Set(setup.api.requests.slice(from).filter((request) => request.method === 'GET' && !isReportPath(request.path)).map((request) => request.path))].sort()
    const written = (from: number): string[] =>
      setup.api.requests
        .slice(from)
        .filter((request) => request.method !== 'GET')
        .map((request) => `${request.method} ${request.path}`)
    const scanned = async (scan: BackgroundScanner, count: number): Promise<void> => {
      await waitUntil(() => outcomes.length >= count)
      await scan.idle()
    }
    let outcomes: unknown[] = []

    beforeEach(async () => {
      outcomes = []
      await setup.service.createRuleset('replicas', { rules: [replicasOnly] }, { by: 'admin' })
      await setup.service.createPolicy('replicas', { rulesets: ['replicas'], action: 'Audit' }, { by: 'admin' })
      await setup.service.createRuleset('unused', { rules: [{ ...privileged, name: 'unused' }] }, { by: 'admin' })
    })

    it('rescans only the changed policy: its kinds listed, its reports alone written', async () => {
      const scan = scanner({ onScanned: (outcome) => outcomes.push(outcome) })
      scan.start()
      await scanned(scan, 1)
      expect(reports().map((report) => (report.metadata as Json).name).sort()).toEqual(['verdict-pss', 'verdict-pss', 'verdict-replicas'])
      const from = setup.api.requests.length
      await setup.service.replacePolicy('replicas', { rulesets: ['replicas'], action: 'Warn' }, { by: 'admin' })
      await scanned(scan, 2)
      expect(outcomes[1]).toMatchObject({ objectsRead: 1, planned: [{ policy: 'replicas', rulesets: ['replicas'] }] })
      expect(listed(from)).toEqual(['/apis/apps/v1/deployments'])
      // The Warn policy's failure becomes a warn: its report is rewritten, pss's are not looked at twice.
      expect(written(from)).toEqual(['PUT /apis/openreports.io/v1alpha1/namespaces/shop/reports/verdict-replicas'])
      await scan.stop()
    })

    it('rescans the policies that use a changed ruleset, and none for a ruleset no policy uses', async () => {
      const scan = scanner({ onScanned: (outcome) => outcomes.push(outcome) })
      scan.start()
      await scanned(scan, 1)
      await setup.service.replaceRuleset('unused', { rules: [{ ...privileged, name: 'unused-too' }] }, { by: 'admin' })
      await new Promise((resolve) => setTimeout(resolve, 100))
      expect(outcomes.length).toBe(1)
      await setup.service.replaceRuleset('replicas', { rules: [{ ...replicasOnly, validate: { pattern: { spec: { replicas: '>0' } } } }] }, { by: 'admin' })
      await scanned(scan, 2)
      expect(outcomes[1]).toMatchObject({ planned: [{ policy: 'replicas', rulesets: ['replicas'] }] })
      // A policy that picks rulesets by label: a ruleset relabelled out of its selector still rescans it (its report held that ruleset's results).
      await setup.service.replacePolicy('replicas', { rulesetSelector: { matchLabels: { team: 'apps' } }, action: 'Audit' }, { by: 'admin' })
      await setup.service.replaceRuleset('replicas', { labels: { team: 'apps' }, rules: [replicasOnly] }, { by: 'admin' })
      await scanned(scan, 3)
      await scan.idle()
      const count = outcomes.length
      expect(outcomes[count - 1]).toMatchObject({ planned: [{ policy: 'replicas', rulesets: ['replicas'] }] })
      expect(reports().some((report) => (report.metadata as Json).name === 'verdict-replicas')).toBe(true)
      await setup.service.replaceRuleset('replicas', { labels: { team: 'other' }, rules: [replicasOnly] }, { by: 'admin' })
      await scanned(scan, count + 1)
      expect(outcomes[count]).toMatchObject({ planned: [{ policy: 'replicas', rulesets: [] }], reports: { openreports: { deleted: 1 } } })
      expect(reports().some((report) => (report.metadata as Json).name === 'verdict-replicas')).toBe(false)
      await scan.stop()
    })

    it("deletes a deleted policy's reports and forgets its verdicts, leaving the other policies' alone", async () => {
      const scan = scanner({ onScanned: (outcome) => outcomes.push(outcome) })
      scan.start()
      await scanned(scan, 1)
      expect(await countNotedVerdicts(setup.database.db)).toBe(11)
      const from = setup.api.requests.length
      await setup.service.deletePolicy('replicas')
      await scanned(scan, 2)
      expect(outcomes[1]).toMatchObject({ objectsRead: 0, planned: [], reports: { openreports: { created: 0, updated: 0, unchanged: 0, deleted: 1 } } })
      expect(written(from)).toEqual(['DELETE /apis/openreports.io/v1alpha1/namespaces/shop/reports/verdict-replicas'])
      expect(reports().map((report) => (report.metadata as Json).name)).toEqual(['verdict-pss', 'verdict-pss'])
      expect(await countNotedVerdicts(setup.database.db)).toBe(10)
      await scan.stop()
    })
  })

  it('ends a running scan at its next page when stopped, writing no report', async () => {
    let pages = 0
    let release: () => void = () => {}
    const blocked = new Promise<void>((resolve) => {
      release = resolve
    })
    const scan = scanner({
      writeAudits: async (rows) => {
        pages++
        if (pages === 1) await blocked
        await insertAudits(setup.database.db, rows)
      },
    })
    scan.start()
    await waitUntil(() => pages === 1)
    const stopped = scan.stop()
    release()
    await stopped
    expect(pages).toBe(1)
    expect(reports()).toEqual([])
  })
})

async function waitUntil(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
