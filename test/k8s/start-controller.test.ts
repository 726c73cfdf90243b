import { KubeConfig } from '@kubernetes/client-node'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ControllerStartError, startController, type RunningController } from '../../src/k8s/start-controller.js'
import { DefinitionCatalog } from '../../src/services/definition-catalog.js'
import { DefinitionService } from '../../src/services/definition-service.js'
import type { AuditRows } from '../../src/store/audits-repository.js'
import { useEmptiedTestDatabase } from '../support/databases.js'
import { FAST_TIMINGS, policyResource, recordingLogger, rulesetResource } from './controller-harness.js'
import { FakeKubeApi, type Json } from './fake-kube-api.js'
import { waitFor } from './wait-for.js'

const config = { podNamespace: 'verdict', podName: 'verdict-0', webhookConfiguration: 'verdict' }

describe('startController', () => {
  let api: FakeKubeApi
  // One store for the file, emptied before each test.
  const database = useEmptiedTestDatabase('pglite')
  let catalog: DefinitionCatalog
  let running: RunningController | undefined

  beforeEach(async () => {
    api = await FakeKubeApi.start()
    catalog = new DefinitionCatalog(database.db)
    await catalog.start()
    running = undefined
  })
  afterEach(async () => {
    await running?.stop()
    await catalog.stop()
    await api.close()
  })

  const start = (controller: 'auto' | 'on' | 'off', options: { kubeConfig?: KubeConfig; env?: NodeJS.ProcessEnv; selector?: string } = {}) => {
    const { selector, ...rest } = options
    const settings = selector === undefined ? {} : { contextConfigMapSelector: selector }
    return startController({ config: { ...config, ...settings, controller }, db: database.db, catalog, logger: recordingLogger('start'), timings: FAST_TIMINGS, env: {}, ...rest })
  }

  it('is off when told, and under auto when no cluster is there to find', async () => {
    expect(await start('off', { kubeConfig: api.kubeConfig() })).toBeUndefined()
    expect(await start('auto')).toBeUndefined()
    expect(api.requests).toEqual([])
  })

  it('under on, refuses to start without a reachable API server or without the CRDs', async () => {
    const unreachable = new KubeConfig()
    unreachable.loadFromOptions({
      clusters: [{ name: 'gone', server: 'http://127.0.0.1:1', skipTLSVerify: true }],
      users: [{ name: 'u', token: 't' }],
      contexts: [{ name: 'c', cluster: 'gone', user: 'u' }],
      currentContext: 'c',
    })
    await expect(start('on', { kubeConfig: unreachable })).rejects.toThrow(ControllerStartError)
    await expect(start('on', { kubeConfig: unreachable })).rejects.toThrow(/VERDICT_CONTROLLER=on but http:\/\/127\.0\.0\.1:1 cannot be used/)
    api.failRequests({ pathIncludes: '/apis/verdict.dev/v1alpha1/rulesets', status: 404 })
    await expect(start('on', { kubeConfig: api.kubeConfig() })).rejects.toThrow(/the CRD rulesets\.verdict\.dev is not installed/)
  })

  it('under auto, starts anyway when the cluster does not answer yet, and catches up', async () => {
    api.failRequests({ pathIncludes: '/apis/verdict.dev/v1alpha1/rulesets', status: 503, times: 2 })
    api.create('namespaces', { metadata: { name: 'team-a', labels: { team: 'a' } } })
    running = await start('auto', { kubeConfig: api.kubeConfig() })
    expect(running).toBeDefined()
    await running?.whenSynced()
    expect(running?.namespaces.get('team-a')).toMatchObject({ metadata: { labels: { team: 'a' } } })
    await waitFor('leading', () => running?.isLeader())
  })

  it('under on, leads, and hands the lease back when stopped', async () => {
    running = await start('on', { kubeConfig: api.kubeConfig() })
    await waitFor('leading', () => running?.isLeader())
    expect((api.get('leases', 'verdict-controller', 'verdict')?.spec as Json).holderIdentity).toBe('verdict-0')
    await running?.stop()
    running = undefined
    expect((api.get('leases', 'verdict-controller', 'verdict')?.spec as Json).holderIdentity).toBeUndefined()
    await waitFor('the watches closed', () => api.watchCount('rulesets') + api.watchCount('policies') + api.watchCount('namespaces') + api.watchCount('configmaps') === 0)
  })

  it('caches the ConfigMaps carrying the configured label, for context entries', async () => {
    const configMap = (name: string, labels: Record<string, string>): Json => ({ metadata: { name, namespace: 'platform', labels }, data: { allowed: 'ghcr.io' } })
    api.create('configmaps', configMap('registries', { 'policy-data': 'yes' }))
    api.create('configmaps', configMap('unlabelled', {}))
    api.create('configmaps', configMap('default-label', { 'verdict.dev/context': 'true' }))
    running = await start('on', { kubeConfig: api.kubeConfig(), selector: 'policy-data=yes' })
    await running?.whenSynced()
    expect(running?.configMaps.configMap('platform', 'registries')).toMatchObject({ kind: 'ConfigMap', data: { allowed: 'ghcr.io' } })
    expect(running?.configMaps.configMap('platform', 'unlabelled')).toBeUndefined()
    expect(running?.configMaps.configMap('platform', 'default-label')).toBeUndefined()
  })

  it('scans what already runs once it leads, writing reports to the VERDICT_REPORTS_API group and background audits, and not at all with VERDICT_SCAN_INTERVAL=0', async () => {
    const service = new DefinitionService(database.db, catalog)
    await service.createRuleset('no-latest', { rules: [{ name: 'no-latest', match: { kinds: ['Pod'] }, validate: { pattern: { spec: { containers: [{ image: '!*:latest' }] } } } }] }, { by: 'admin' })
    await service.createPolicy('no-latest', { rulesets: ['no-latest'], action: 'Deny' }, { by: 'admin' })
    api.create('pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'shop' }, spec: { containers: [{ name: 'web', image: 'nginx:latest' }] } })
    const written: AuditRows[] = []
    const writeAudits = async (rows: AuditRows): Promise<void> => void written.push(rows)
    const off = await startController({ config: { ...config, controller: 'on', scanIntervalSeconds: 0 }, db: database.db, catalog, logger: recordingLogger('off'), timings: FAST_TIMINGS, env: {}, kubeConfig: api.kubeConfig('off'), writeAudits })
    await waitFor('leader', () => off?.isLeader() === true)
    await new Promise((resolve) => setTimeout(resolve, 300))
    await off?.stop()
    expect(api.requests.filter((request) => request.path === '/api/v1/pods')).toEqual([])

    // VERDICT_REPORTS_API reaches the scanner: PolicyReports, though the cluster serves OpenReports too.
    running = await startController({ config: { ...config, controller: 'on', reportsApi: 'wgpolicyk8s' }, db: database.db, catalog, logger: recordingLogger('on'), timings: FAST_TIMINGS, env: {}, kubeConfig: api.kubeConfig('on'), writeAudits })
    const report = await waitFor('report', () => api.list('policyreports')[0])
    expect(report).toMatchObject({ metadata: { name: 'verdict-no-latest', namespace: 'shop' }, summary: { pass: 0, fail: 1, warn: 0, error: 0, skip: 0 } })
    expect(api.list('reports')).toEqual([])
    await waitFor('audit', () => written.length > 0)
    expect(written[0]?.policyAudits).toMatchObject([{ policyName: 'no-latest', source: 'background', passed: false }])
  })

  it('records the violations a scan finds anew as Events on the objects, the Policy resource related; none with VERDICT_EVENTS=off', async () => {
    api.create('rulesets', rulesetResource('no-latest', { rules: [{ name: 'no-latest', match: { kinds: ['Pod'] }, validate: { cel: [{ expression: "object.spec.containers.all(c, !c.image.endsWith(':latest'))", message: 'images must be pinned' }] } }] }))
    api.create('policies', policyResource('no-latest', { rulesets: ['no-latest'], action: 'Audit' }))
    const pod = (name: string): Json => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'shop' }, spec: { containers: [{ name: 'web', image: 'nginx:latest' }] } })
    api.create('pods', pod('web-1'))
    const audited: string[] = []
    const writeAudits = async (rows: AuditRows): Promise<void> => void audited.push(...rows.policyAudits.map((audit) => JSON.parse(audit.input).metadata.name as string))
    const options = { db: database.db, catalog, timings: FAST_TIMINGS, env: {}, writeAudits, eventSettings: { flushEveryMs: 0 } }

    const off = await startController({ ...options, config: { ...config, controller: 'on', events: false }, logger: recordingLogger('off'), kubeConfig: api.kubeConfig('off') })
    expect(off?.events).toBeUndefined()
    await waitFor('web-1 audited', () => audited.includes('web-1'))
    await off?.stop()
    expect(api.requests.filter((request) => request.path.includes('/events'))).toEqual([])

    // web-1's verdict is the same as when it was audited: only web-2 is new.
    api.create('pods', pod('web-2'))
    running = await startController({ ...options, config: { ...config, controller: 'on' }, logger: recordingLogger('on'), kubeConfig: api.kubeConfig('on') })
    await waitFor('web-2 audited', () => audited.includes('web-2'))
    await waitFor('an Event', () => api.list('events', { namespace: 'shop' })[0])
    await running?.events?.flush()
    const events = api.list('events', { namespace: 'shop' })
    expect(events).toHaveLength(1)
    const policy = api.get('policies', 'no-latest')?.metadata as Json
    const web2 = api.get('pods', 'web-2', 'shop')?.metadata as Json
    expect(events[0]).toMatchObject({
      reportingController: 'verdict.dev/background-scan',
      reportingInstance: 'verdict-0',
      action: 'Scan',
      reason: 'PolicyViolation',
      type: 'Warning',
      regarding: { apiVersion: 'v1', kind: 'Pod', name: 'web-2', namespace: 'shop', uid: web2.uid },
      related: { apiVersion: 'verdict.dev/v1alpha1', kind: 'Policy', name: 'no-latest', uid: policy.uid },
      note: 'no-latest/no-latest/no-latest: images must be pinned',
    })
  })
})
