import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { BackgroundScanner } from '../../../src/scan/background/background-scanner.js'
import { DefinitionCatalog } from '../../../src/services/definition-catalog.js'
import { DefinitionService } from '../../../src/services/definition-service.js'
import { ExceptionCatalog } from '../../../src/services/exception-catalog.js'
import { ExceptionService } from '../../../src/services/exception-service.js'
import { insertAudits, listPolicyAudits } from '../../../src/store/audits-repository.js'
import { FakeKubeApi, type Json } from '../../k8s/fake-kube-api.js'
import { recordingLogger } from '../../k8s/controller-harness.js'
import { waitFor } from '../../k8s/wait-for.js'
import { useEmptiedTestDatabase } from '../../support/databases.js'

/** The same exception as the REST and webhook scenario: the log shipper is let through until expiresAt, then reported. */
const START = new Date('2026-06-01T12:00:00.000Z')
const EXPIRES = new Date('2026-06-01T13:00:00.000Z')

const noPrivileged = {
  name: 'no-privileged',
  severity: 'high',
  match: { kinds: ['Pod'] },
  validate: { cel: [{ expression: 'object.spec.containers.all(c, !(c.?securityContext.?privileged.orValue(false)))', message: 'privileged containers are not allowed' }] },
}

const exception = {
  policies: ['baseline-*'],
  rules: [{ ruleset: 'pod-hardening', rule: 'no-privileged' }],
  match: { kinds: ['Pod'], namespaces: ['logging'], names: ['log-shipper*'] },
  reason: 'the log shipper reads host logs',
  expiresAt: EXPIRES.toISOString(),
}

function daemonSet(name: string): Json {
  const spec = { containers: [{ name: 'shipper', image: 'registry.example.com/shipper:1.2', securityContext: { privileged: true } }] }
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace: 'logging', uid: `uid-${name}` },
    spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec } },
  }
}

describe('background scans with a PolicyException', () => {
  let api: FakeKubeApi
  // One store for the file, emptied before each test.
  const database = useEmptiedTestDatabase('pglite')
  let catalog: DefinitionCatalog
  let exceptions: ExceptionCatalog
  const clock = { now: START }

  beforeEach(async () => {
    api = await FakeKubeApi.start()
    catalog = new DefinitionCatalog(database.db)
    exceptions = new ExceptionCatalog(database.db)
    await Promise.all([catalog.start(), exceptions.start()])
    const definitions = new DefinitionService(database.db, catalog)
    await definitions.createRuleset('pod-hardening', { rules: [noPrivileged] }, { by: 'admin' })
    await definitions.createPolicy('baseline-pods', { rulesets: ['pod-hardening'], action: 'Deny' }, { by: 'admin' })
    api.createMany('daemonsets', [daemonSet('log-shipper'), daemonSet('node-agent')])
  })

  afterEach(async () => {
    await Promise.all([catalog.stop(), exceptions.stop()])
    await api.close()
  })

  function scanner(): BackgroundScanner {
    return new BackgroundScanner({
      kubeConfig: api.kubeConfig('scanner'),
      catalog,
      namespaces: { get: (name) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }) },
      db: database.db,
      writeAudits: (rows) => insertAudits(database.db, rows),
      logger: recordingLogger('scanner'),
      isLeader: () => true,
      intervalMs: 3_600_000,
      settings: { pageSize: 10, maxResults: 10, excludedNamespaces: new Set(), listRestarts: 2 },
      now: () => clock.now,
      exemptions: (now) => exceptions.exemptions(now),
      onExceptionChange: (listener) => exceptions.onChange(listener),
      settleMs: 10,
      leadershipCheckMs: 20,
    })
  }

  const createException = (): Promise<unknown> => new ExceptionService(database.db, exceptions, { now: () => clock.now }).create('log-shipper', exception, { by: 'admin' })
  const summary = (): unknown => api.list('reports')[0]?.summary

  const auditsOf = async (name: string): Promise<unknown[]> =>
    (await listPolicyAudits(database.db, { name: 'baseline-pods', start: new Date(0), end: new Date(Date.UTC(2030, 0, 1)), page: 1, pageSize: 100, source: 'background' }))
      .filter((audit) => JSON.parse(audit.input).metadata.name === name)
      .map((audit) => audit.output)

  it('reports the covered workload as skip naming the exception until expiresAt, and as a failure from the next scan after it', async () => {
    await createException()
    const scan = scanner()
    clock.now = new Date(EXPIRES.getTime() - 1)
    await scan.scanOnce()
    const [before] = api.list('reports')
    expect(before?.summary).toEqual({ pass: 0, fail: 1, warn: 0, error: 0, skip: 1 })
    const results = before?.results as Json[]
    expect(results.map((result) => [(result.resources as Json[])[0]?.name, result.result, result.properties])).toEqual([
      ['log-shipper', 'skip', { ruleset: 'pod-hardening', exception: 'log-shipper' }],
      ['node-agent', 'fail', { ruleset: 'pod-hardening' }],
    ])
    expect(await auditsOf('log-shipper')).toEqual([
      {
        policy: 'baseline-pods',
        passed: true,
        results: [{ ruleset: 'pod-hardening', rule: 'no-privileged', status: 'skip', severity: 'high', message: 'exempted by exception "log-shipper"', exception: 'log-shipper', autogen: 'DaemonSet' }],
      },
    ])

    clock.now = EXPIRES
    await scan.scanOnce()
    const [after] = api.list('reports')
    expect(after?.summary).toEqual({ pass: 0, fail: 2, warn: 0, error: 0, skip: 0 })
    // The verdict changed, so the scan audits the object again: now failing.
    expect(await auditsOf('log-shipper')).toEqual([
      { policy: 'baseline-pods', passed: false, results: [expect.objectContaining({ rule: 'no-privileged', status: 'fail', autogen: 'DaemonSet' })] },
      expect.objectContaining({ passed: true }),
    ])
  })

  it('scans the policies an exception names again when it is created, without waiting for the interval', async () => {
    clock.now = START
    const scan = scanner()
    scan.start()
    try {
      await waitFor('the first scan', () => (summary() as { fail?: number } | undefined)?.fail === 2)
      await createException()
      await waitFor('the rescan after the exception', () => (summary() as { skip?: number } | undefined)?.skip === 1)
      expect(summary()).toEqual({ pass: 0, fail: 1, warn: 0, error: 0, skip: 1 })
    } finally {
      await scan.stop()
    }
  })
})
