import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { insertRuleset } from '../../src/store/rulesets-repository.js'
import { testDatabases } from '../support/databases.js'
import { client } from './http-client.js'
import { startTestService, type TestService } from './test-service.js'

describe.each(testDatabases())('definitions the controller made from cluster objects ($kind)', ({ kind }) => {
  let service: TestService
  let api: ReturnType<typeof client>

  beforeAll(async () => {
    service = await startTestService(kind)
    api = client(service.server.apiUrl)
    await insertRuleset(service.server.db, {
      name: 'from-cluster',
      labels: {},
      rules: [{ name: 'team', validate: { cel: [{ expression: "has(object.metadata.labels) && 'team' in object.metadata.labels" }] } }],
      source: 'crd',
      createdBy: 'verdict-controller@verdict-0',
      updatedBy: 'verdict-controller@verdict-0',
    })
  })
  afterAll(() => service?.close())

  it('can be read but not replaced or deleted through the API (409)', async () => {
    expect((await api('GET', '/api/rulesets/from-cluster', { token: service.adminToken })).body).toMatchObject({ source: 'crd' })
    const replaced = await api('PUT', '/api/rulesets/from-cluster', { token: service.adminToken, body: { rules: [{ name: 'x', validate: { cel: [{ expression: 'true' }] } }] } })
    expect(replaced.status).toBe(409)
    expect(replaced.body).toEqual({
      error: 'ruleset managed by Kubernetes',
      details: 'ruleset "from-cluster" is managed by the Ruleset resource in the cluster; change or delete it with kubectl',
    })
    expect((await api('DELETE', '/api/rulesets/from-cluster', { token: service.adminToken })).status).toBe(409)
    expect((await api('GET', '/api/rulesets/from-cluster', { token: service.adminToken })).body).toMatchObject({ source: 'crd', version: 1 })
  })
})
