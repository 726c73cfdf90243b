import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { insertPolicy } from '../../src/store/policies-repository.js'
import { insertRuleset } from '../../src/store/rulesets-repository.js'
import { client } from './http-client.js'
import { startTestService, type TestService } from './test-service.js'

const by = 'platform@example.com'

describe('the REST API facing deep documents and malformed stored definitions', () => {
  let service: TestService
  let api: ReturnType<typeof client>
  let admin: string

  beforeAll(async () => {
    service = await startTestService('pglite')
    api = client(service.server.apiUrl)
    admin = service.adminToken
    const ruleset = { rules: [{ name: 'color-is-blue', validate: { cel: [{ expression: "object.data.?color.orValue('') == 'blue'" }] } }] }
    expect((await api('POST', '/api/rulesets/colors', { token: admin, body: ruleset })).status).toBe(201)
    expect((await api('POST', '/api/policies/colors', { token: admin, body: { rulesets: ['colors'], action: 'Deny' } })).status).toBe(201)
    await insertPolicy(service.server.db, { name: 'broken-kinds', labels: {}, rulesets: ['colors'], match: { kinds: 5 }, source: 'api', createdBy: by, updatedBy: by } as never)
    await insertRuleset(service.server.db, { name: 'object-labels', labels: { team: { nested: 1 } }, rules: [{ name: 'r', validate: { cel: [{ expression: 'true' }] } }], source: 'api', createdBy: by, updatedBy: by } as never)
    await service.server.catalog.resync()
  })

  afterAll(async () => {
    await service?.close()
  })

  it('refuses a body nested thousands of levels deep with 400 naming where, and writes no audit', async () => {
    const deep = `${'{"a":'.repeat(5000)}{}${'}'.repeat(5000)}`
    const response = await api('POST', '/api/eval/rulesets/colors', { token: admin, raw: `{"inputData":{"data":${deep}}}` })
    expect(response.status).toBe(400)
    expect(response.body).toEqual({ error: 'bad request', details: 'body.inputData.data.a.a… nests deeper than 200 levels, the most Verdict judges' })
    const audits = await api('GET', '/api/audits/rulesets/colors', { token: admin })
    expect((audits.body as { rulesetAudits: unknown[] }).rulesetAudits).toEqual([])
  })

  it('refuses a YAML body nested too deep (the YAML reader stops at 100 levels)', async () => {
    const yaml = `inputData:\n  data: ${'['.repeat(300)}1${']'.repeat(300)}\n`
    const response = await api('POST', '/api/eval/rulesets/colors', { token: admin, raw: yaml, contentType: 'application/yaml' })
    expect(response.status).toBe(400)
    expect(response.body).toEqual({ error: 'bad request', details: 'body is not valid YAML: nesting exceeded maxDepth (100) at line 2, column 107' })
  })

  it('says a set-aside policy is stored but fails its schema (409), while the others evaluate', async () => {
    const broken = await api('POST', '/api/eval/policies/broken-kinds', { token: admin, body: { inputData: { data: { color: 'blue' } } } })
    expect(broken.status).toBe(409)
    expect(broken.body).toEqual({
      error: 'definition set aside',
      details: 'policy "broken-kinds" is stored but invalid, so nothing evaluates it until it is replaced or deleted: spec.match.kinds must be array',
    })
    const good = await api('POST', '/api/eval/policies/colors', { token: admin, body: { inputData: { data: { color: 'blue' } } } })
    expect(good.status).toBe(200)
    expect((good.body as { passed: boolean }).passed).toBe(true)
  })

  it('answers recommendations, labels, lists and policy hints with a malformed definition stored', async () => {
    for (const [method, path, body] of [
      ['GET', '/api/recommendations', undefined],
      ['GET', '/api/labels/policies', undefined],
      ['GET', '/api/labels/rulesets', undefined],
      ['GET', '/api/rulesets', undefined],
      ['GET', '/api/policies', undefined],
      ['GET', '/api/policies/broken-kinds', undefined],
      ['POST', '/api/hints/policy', { instruction: 'deny privileged pods in production' }],
    ] as const) {
      const response = await api(method, path, { token: admin, ...(body ? { body } : {}) })
      expect(response.status, `${method} ${path}`).toBe(200)
    }
  })

  it('caps the instruction on every route that reads one, naming the field', async () => {
    const long = 'every pod must set the label team. '.repeat(200)
    for (const [path, body] of [
      ['/api/hints/ruleset', { instruction: long }],
      ['/api/hints/policy', { instruction: long }],
      ['/api/samples', { instruction: long, category: 'kubernetes', type: 'Pod' }],
    ] as const) {
      const response = await api('POST', path, { token: admin, body })
      expect(response.status).toBe(400)
      expect(response.body).toEqual({ error: 'bad request', details: 'body.instruction must NOT have more than 4000 characters' })
    }
    const prompt = await api('POST', '/api/prompt', { token: admin, body: { instruction: long } })
    expect(prompt.status).toBe(200)
    expect((prompt.body as { valid: boolean; issues: Array<{ code: string }> }).issues.map((issue) => issue.code)).toEqual(['too-long'])
  })

  it('reads an instruction of the largest size in any shape (runs of commas, spaces, one long word)', async () => {
    for (const instruction of ['a, '.repeat(1333), `${' '.repeat(3999)}x`, 'x'.repeat(4000), 'kube-system, '.repeat(300), '(`a` and '.repeat(400)]) {
      const response = await api('POST', '/api/hints/ruleset', { token: admin, body: { instruction } })
      expect(response.status).toBe(200)
    }
  })
})
