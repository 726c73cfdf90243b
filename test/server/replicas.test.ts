import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningServer } from '../../src/server/start-server.js'
import { client } from './http-client.js'
import { startReplica, startTestService, type TestService } from './test-service.js'

/** Two replicas on one PostgreSQL: what one changes, the other judges by, once the notification arrives. */
describe('two replicas on one PostgreSQL', () => {
  let first: TestService
  let second: RunningServer

  beforeAll(async () => {
    first = await startTestService('postgres')
    second = await startReplica(first.databaseUrl as string)
  })

  afterAll(async () => {
    await second?.close()
    await first?.close()
  })

  function nextChange(server: RunningServer, name: string): Promise<void> {
    return new Promise((resolve) => {
      const stop = server.catalog.onChange((change) => {
        if (change.name === name) {
          stop()
          resolve()
        }
      })
    })
  }

  it('judges by a ruleset created and then replaced through the other replica', async () => {
    const viaFirst = client(first.server.apiUrl)
    const viaSecond = client(second.apiUrl)
    const token = first.adminToken
    const pod = { inputData: { kind: 'Pod', metadata: { name: 'p' }, spec: { replicas: 1 } } }

    const created = nextChange(second, 'limits')
    expect((await viaFirst('POST', '/api/rulesets/limits', { token, body: { rules: [{ name: 'r', validate: { cel: [{ expression: 'true' }] } }] } })).status).toBe(201)
    await created
    expect((await viaSecond('POST', '/api/eval/rulesets/limits', { token, body: pod })).body).toMatchObject({ ruleset: 'limits', passed: true })

    const replaced = nextChange(second, 'limits')
    const body = { rules: [{ name: 'r', validate: { cel: [{ expression: 'object.spec.replicas > 1', message: 'needs two replicas' }] } }] }
    expect((await viaFirst('PUT', '/api/rulesets/limits', { token, body })).status).toBe(200)
    await replaced
    expect((await viaSecond('POST', '/api/eval/rulesets/limits', { token, body: pod })).body).toMatchObject({
      passed: false,
      results: [{ rule: 'r', status: 'fail', message: 'needs two replicas' }],
    })
  })

  it('drops a token revoked through the other replica', async () => {
    const viaFirst = client(first.server.apiUrl)
    const viaSecond = client(second.apiUrl)
    const created = await viaFirst('POST', '/api/tokens', { token: first.adminToken, body: { name: 'short-lived', scopes: ['rulesets:read'] } })
    const { id, secret } = created.body as { id: string; secret: string }
    expect((await viaSecond('GET', '/api/rulesets', { token: secret })).status).toBe(200)
    const revoked = new Promise<void>((resolve) => {
      void second.db.listen('verdict_tokens', (payload) => {
        if (payload === id) resolve()
      })
    })
    expect((await viaFirst('DELETE', `/api/tokens/${id}`, { token: first.adminToken })).status).toBe(200)
    await revoked
    expect((await viaSecond('GET', '/api/rulesets', { token: secret })).status).toBe(401)
  })
})
