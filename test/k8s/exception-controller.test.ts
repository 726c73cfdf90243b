import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { PreparedInput } from '../../src/engine/index.js'
import { DefinitionController } from '../../src/k8s/definition-controller.js'
import { DefinitionCatalog } from '../../src/services/definition-catalog.js'
import { ExceptionCatalog } from '../../src/services/exception-catalog.js'
import { ExceptionService } from '../../src/services/exception-service.js'
import { exemptingException } from '../../src/engine/exceptions/exempting-exception.js'
import { getException, insertException } from '../../src/store/exceptions-repository.js'
import { useEmptiedTestDatabase } from '../support/databases.js'
import { FAST_TIMINGS, recordingLogger } from './controller-harness.js'
import { FakeKubeApi, type Json } from './fake-kube-api.js'
import { waitFor } from './wait-for.js'

const START = new Date('2026-06-01T12:00:00.000Z')
const ISO_SECONDS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/

const spec = {
  policies: ['baseline-*'],
  rules: [{ ruleset: 'pod-hardening', rule: 'no-privileged' }],
  match: { kinds: ['Pod'], namespaces: ['logging'] },
  reason: 'the log shipper reads host logs',
  expiresAt: '2026-06-01T12:00:00.050Z',
}

function resource(name: string, body: Json): Json {
  return { apiVersion: 'verdict.dev/v1alpha1', kind: 'PolicyException', metadata: { name }, spec: body }
}

function conditionsOf(api: FakeKubeApi, name: string): Json[] {
  return ((api.get('policyexceptions', name)?.status as Json | undefined)?.conditions ?? []) as Json[]
}

function condition(api: FakeKubeApi, name: string, type: string): Json | undefined {
  return conditionsOf(api, name).find((entry) => entry.type === type)
}

describe('the PolicyException controller', () => {
  let api: FakeKubeApi
  // One store for the file, emptied before each test.
  const database = useEmptiedTestDatabase('pglite')
  let catalog: DefinitionCatalog
  let exceptions: ExceptionCatalog
  let controller: DefinitionController
  const clock = { now: START }
  const reconciles: string[] = []

  beforeEach(async () => {
    clock.now = START
    reconciles.length = 0
    api = await FakeKubeApi.start()
    catalog = new DefinitionCatalog(database.db)
    exceptions = new ExceptionCatalog(database.db)
    await Promise.all([catalog.start(), exceptions.start()])
  })

  afterEach(async () => {
    await controller?.stop()
    await Promise.all([catalog.stop(), exceptions.stop()])
    await api.close()
  })

  async function lead(): Promise<void> {
    controller = new DefinitionController({
      kubeConfig: api.kubeConfig('replica-a'),
      db: database.db,
      catalog,
      exceptions,
      logger: recordingLogger('replica-a'),
      identity: 'replica-a',
      leaseNamespace: 'verdict',
      webhookConfiguration: 'verdict',
      timings: FAST_TIMINGS,
      now: () => clock.now,
      onReconciled: (kind, result) => reconciles.push(`${kind}:${result}`),
    })
    controller.start()
    await waitFor('the lease', () => controller.isLeader())
  }

  it('stores it with source crd, reports Ready and not Expired, applies it, and turns Expired at expiresAt', async () => {
    api.create('policyexceptions', resource('log-shipper', spec))
    await lead()
    const stored = await waitFor('the stored exception', () => getException(database.db, 'log-shipper'))
    expect(stored).toMatchObject({ ...spec, source: 'crd', version: 1, createdBy: 'verdict-controller@replica-a' })
    await waitFor('Ready', () => condition(api, 'log-shipper', 'Ready')?.status === 'True')
    expect(api.get('policyexceptions', 'log-shipper')?.status).toEqual({
      observedGeneration: 1,
      conditions: [
        { type: 'Ready', status: 'True', reason: 'Reconciled', message: 'stored as version 1', lastTransitionTime: expect.stringMatching(ISO_SECONDS), observedGeneration: 1 },
        { type: 'Expired', status: 'False', reason: 'Active', message: 'applies until 2026-06-01T12:00:00.050Z', lastTransitionTime: expect.stringMatching(ISO_SECONDS), observedGeneration: 1 },
      ],
    })
    const pod = new PreparedInput({ object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x', namespace: 'logging' } } })
    const query = { policy: 'baseline-pods', ruleset: 'pod-hardening', rule: 'no-privileged', input: pod }
    expect(exemptingException(exceptions.exemptions(clock.now).exceptions, { ...query, now: clock.now })?.name).toBe('log-shipper')

    // The controller's timer fires at expiresAt by its clock; the clock is the test's, moved past it.
    clock.now = new Date('2026-06-01T13:00:00.000Z')
    await waitFor('Expired', () => condition(api, 'log-shipper', 'Expired')?.status === 'True')
    expect(condition(api, 'log-shipper', 'Expired')).toMatchObject({ reason: 'Expired', message: 'stopped applying at 2026-06-01T12:00:00.050Z' })
    expect(exemptingException(exceptions.exemptions(clock.now).exceptions, { ...query, now: clock.now })).toBeUndefined()
    expect(reconciles).toContain('exception:Reconciled')
  })

  it('reports an invalid spec as Invalid naming the field, and stores nothing', async () => {
    api.create('policyexceptions', resource('broken', { ...spec, conditions: [{ expression: 'object.spec.containers.all(c, ' }] }))
    api.create('policyexceptions', resource('everything', { match: { kinds: ['Pod'] }, reason: 'r' }))
    await lead()
    await waitFor('Invalid', () => condition(api, 'broken', 'Ready')?.reason === 'Invalid')
    expect(condition(api, 'broken', 'Ready')?.message).toMatch(/^spec\.conditions\[0\]\.expression \(line 1, column \d+\): /)
    await waitFor('Invalid', () => condition(api, 'everything', 'Ready')?.reason === 'Invalid')
    expect(condition(api, 'everything', 'Ready')?.message).toMatch(/^spec\.policies: is required unless rules is given/)
    expect(await getException(database.db, 'broken')).toBeUndefined()
    expect(await getException(database.db, 'everything')).toBeUndefined()
  })

  it('leaves an exception made through the REST API alone and reports the conflict', async () => {
    await insertException(database.db, { name: 'taken', ...spec, labels: {}, source: 'api', createdBy: 'alice@example.com', updatedBy: 'alice@example.com' })
    await exceptions.refresh('taken')
    api.create('policyexceptions', resource('taken', { ...spec, reason: 'mine now' }))
    await lead()
    await waitFor('Conflict', () => condition(api, 'taken', 'Ready')?.reason === 'Conflict')
    expect((await getException(database.db, 'taken'))?.reason).toBe('the log shipper reads host logs')
    // Deleted through the API: the resource takes the name over at once, not at the next resync.
    await new ExceptionService(database.db, exceptions).delete('taken')
    await waitFor('the resource stored', async () => (await getException(database.db, 'taken'))?.source === 'crd')
    expect((await getException(database.db, 'taken'))?.reason).toBe('mine now')
    await waitFor('Ready', () => condition(api, 'taken', 'Ready')?.reason === 'Reconciled')
  })

  it('removes the stored exception when its resource is deleted', async () => {
    api.create('policyexceptions', resource('short-lived', { ...spec, expiresAt: undefined }))
    await lead()
    await waitFor('the stored exception', () => getException(database.db, 'short-lived'))
    await waitFor('Ready', () => condition(api, 'short-lived', 'Expired')?.message === 'no expiresAt: it applies until it is deleted')
    api.delete('policyexceptions', 'short-lived')
    await waitFor('the exception removed', async () => (await getException(database.db, 'short-lived')) === undefined)
    expect(exceptions.exemptions(clock.now).exceptions.map((exception) => exception.name)).toEqual([])
  })
})
