import { readFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { insertPolicy } from '../../../src/store/policies-repository.js'
import { insertRuleset } from '../../../src/store/rulesets-repository.js'
import { postReview } from '../../admission/https-client.js'
import { variant } from '../../admission/fixtures.js'
import { client } from '../../server/http-client.js'
import { startTestService, type TestService } from '../../server/test-service.js'

// Rulesets stored before variables were checked at creation (or written by hand): they must keep
// evaluating, each rule for itself, instead of failing every evaluation and review that meets them.

const by = 'platform@example.com'
const rules = [
  {
    name: 'forward',
    variables: [
      { name: 'labelled', expression: 'variables.labels.size() > 0' },
      { name: 'labels', expression: 'object.metadata.?labels.orValue({})' },
    ],
    validate: { cel: [{ expression: 'variables.labelled' }] },
  },
  {
    name: 'cyclic',
    variables: [
      { name: 'a', expression: 'variables.b || variables.b' },
      { name: 'b', expression: 'variables.a || variables.a' },
    ],
    validate: { cel: [{ expression: 'variables.a' }] },
  },
]

describe('a stored ruleset whose variables break the order checked at creation', () => {
  let service: TestService

  beforeAll(async () => {
    service = await startTestService('pglite')
    await insertRuleset(service.server.db, { name: 'older', labels: {}, rules: rules as never, source: 'api', createdBy: by, updatedBy: by })
    await insertPolicy(service.server.db, { name: 'older', labels: {}, rulesets: ['older'], action: 'Audit', source: 'api', createdBy: by, updatedBy: by } as never)
    await service.server.catalog.resync()
  })
  afterAll(() => service?.close())

  it('still evaluates: a forward read works, a cycle is an error of its own rule', async () => {
    const api = client(service.server.apiUrl)
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', labels: { team: 'a' } } }
    const answer = await api('POST', '/api/eval/rulesets/older?verbose=true', { token: service.adminToken, body: { inputData: pod } })
    expect(answer.status).toBe(200)
    expect((answer.body as { results: unknown[] }).results).toEqual([
      { ruleset: 'older', rule: 'forward', status: 'pass', severity: 'medium' },
      { ruleset: 'older', rule: 'cyclic', status: 'error', severity: 'medium', message: 'expression "variables.a" failed: variables cycle: a -> b -> a' },
    ])
  })

  it('leaves the webhook answering', async () => {
    const review = await postReview({ port: service.server.webhook.port, ca: await readFile(service.server.webhook.certFile) }, variant('pod-create', 'older-rules'))
    expect(review.status).toBe(200)
    expect(review.json).toMatchObject({ response: { uid: 'older-rules', allowed: true } })
  })
})
