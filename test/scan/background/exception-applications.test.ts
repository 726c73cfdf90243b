import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { BackgroundScanner } from '../../../src/scan/background/background-scanner.js'
import { DefinitionCatalog } from '../../../src/services/definition-catalog.js'
import { DefinitionService } from '../../../src/services/definition-service.js'
import { ExceptionApplications } from '../../../src/services/exception-applications.js'
import { ExceptionCatalog } from '../../../src/services/exception-catalog.js'
import { ExceptionService } from '../../../src/services/exception-service.js'
import { insertAudits } from '../../../src/store/audits-repository.js'
import { lastExceptionApplications } from '../../../src/store/exception-applications.js'
import { recordingLogger } from '../../k8s/controller-harness.js'
import { FakeKubeApi, type Json } from '../../k8s/fake-kube-api.js'
import { createTestDatabase, type TestDatabase } from '../../support/databases.js'

const START = new Date('2026-06-01T12:00:00.000Z')

function pod(name: string): Json {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'billing', uid: `uid-${name}` }, spec: { containers: [{ name: 'app', image: 'vendor/app:latest' }] } }
}

/** A background scan notes the exceptions it applied, as admission and REST evaluations do: an exception keeping a report clean is in use. */
describe('background scans and when exceptions last applied', () => {
  let api: FakeKubeApi
  let database: TestDatabase
  let catalog: DefinitionCatalog
  let exceptions: ExceptionCatalog

  beforeEach(async () => {
    ;[api, database] = await Promise.all([FakeKubeApi.start(), createTestDatabase('pglite')])
    catalog = new DefinitionCatalog(database.db)
    exceptions = new ExceptionCatalog(database.db)
    await Promise.all([catalog.start(), exceptions.start()])
    const definitions = new DefinitionService(database.db, catalog)
    const rule = { name: 'no-latest', match: { kinds: ['Pod'] }, validate: { cel: [{ expression: "object.spec.containers.all(c, !c.image.endsWith(':latest'))" }] } }
    await definitions.createRuleset('hygiene', { rules: [rule] }, { by: 'admin' })
    await definitions.createPolicy('production', { rulesets: ['hygiene'], action: 'Deny' }, { by: 'admin' })
    const service = new ExceptionService(database.db, exceptions, { now: () => START })
    for (const [name, names] of [['billing-latest', ['legacy']], ['nothing-matches', ['none']]] as const) {
      await service.create(name, { policies: ['production'], match: { kinds: ['Pod'], namespaces: ['billing'], names: [...names] }, reason: 'vendor image' }, { by: 'admin' })
    }
    api.createMany('pods', [pod('legacy'), pod('other')])
  })

  afterEach(async () => {
    await Promise.all([catalog.stop(), exceptions.stop()])
    await api.close()
    await database.dispose()
  })

  it('notes the exceptions that let something through, at the scan\'s clock, and no other', async () => {
    const applications = new ExceptionApplications(database.db, { now: () => START })
    const scanner = new BackgroundScanner({
      kubeConfig: api.kubeConfig('scanner'),
      catalog,
      namespaces: { get: (name) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }) },
      db: database.db,
      writeAudits: (rows) => insertAudits(database.db, rows),
      logger: recordingLogger('scanner'),
      isLeader: () => true,
      intervalMs: 3_600_000,
      settings: { pageSize: 10, maxResults: 10, excludedNamespaces: new Set(), listRestarts: 2 },
      now: () => START,
      exemptions: (now) => exceptions.exemptions(now),
      onExempted: (exception) => applications.applied(exception),
    })
    await scanner.scanOnce()
    await applications.settled()
    expect(await lastExceptionApplications(database.db)).toEqual(new Map([['billing-latest', START.toISOString()]]))
  })
})
