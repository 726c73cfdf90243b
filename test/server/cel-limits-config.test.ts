import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { client } from './http-client.js'
import { startTestService, type TestService } from './test-service.js'

describe('the CEL budget is the one VERDICT_CEL_MAX_COST sets', () => {
  let service: TestService
  let api: ReturnType<typeof client>

  beforeAll(async () => {
    service = await startTestService('pglite', { VERDICT_CEL_MAX_COST: '2000' })
    api = client(service.server.apiUrl)
    const rules = [{ name: 'all-items-small', validate: { cel: [{ expression: 'object.items.all(i, i < 1000)' }] } }]
    expect((await api('POST', '/api/rulesets/items', { token: service.adminToken, body: { rules } })).status).toBe(201)
  })

  afterAll(async () => {
    await service?.close()
  })

  it('judges a document within the budget', async () => {
    const response = await api('POST', '/api/eval/rulesets/items', { token: service.adminToken, body: { inputData: { items: Array.from({ length: 100 }, (_, i) => i) } } })
    expect(response.status).toBe(200)
    expect((response.body as { passed: boolean }).passed).toBe(true)
  })

  it('ends an evaluation past the budget as an error result naming the limit', async () => {
    const response = await api('POST', '/api/eval/rulesets/items', { token: service.adminToken, body: { inputData: { items: Array.from({ length: 5000 }, (_, i) => i % 10) } } })
    expect(response.status).toBe(200)
    const body = response.body as { passed: boolean; results: Array<{ rule: string; status: string; message: string }> }
    expect(body.passed).toBe(false)
    expect(body.results).toEqual([{ ruleset: 'items', rule: 'all-items-small', status: 'error', severity: 'medium', message: 'expression "object.items.all(i, i < 1000)" failed: cost budget exceeded: the expression used more than 2000 cost units' }])
  })
})
