import { readFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { postReview, type HttpsTarget } from '../../admission/https-client.js'
import { variant } from '../../admission/fixtures.js'
import { client, errorBody, type ApiResponse } from '../../server/http-client.js'
import { startTestService, type TestService } from '../../server/test-service.js'

// Hostile rules met through the service's public interfaces: the REST API, the webhook and /healthz.

const cyclic = {
  rules: [
    {
      name: 'looping',
      variables: [
        { name: 'a', expression: 'variables.b || variables.b' },
        { name: 'b', expression: 'variables.a || variables.a' },
      ],
      validate: { cel: [{ expression: 'variables.a' }] },
    },
  ],
}

function doublingVariables(count: number): { name: string; expression: string }[] {
  const variables = [{ name: 'v0', expression: '[1, 2, 3, 4]' }]
  for (let i = 1; i <= count; i++) variables.push({ name: `v${i}`, expression: `variables.v${i - 1} + variables.v${i - 1}` })
  return variables
}

/** Rules that compile but would run for seconds and hold a gigabyte without the cost budget. */
const hostile = {
  rules: [
    { name: 'doubling', variables: doublingVariables(30), validate: { cel: [{ expression: 'size(variables.v30) > 0' }] } },
    { name: 'nested', validate: { cel: [{ expression: 'lists.range(400).all(a, lists.range(400).all(b, lists.range(400).all(c, a + b + c >= 0)))' }] } },
  ],
}

const noLatest = { rules: [{ name: 'no-latest', match: { kinds: ['Pod'] }, validate: { cel: [{ expression: "object.spec.containers.all(c, !c.image.endsWith(':latest'))" }] } }] }
const latestPod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'nginx:latest' }] } }

describe('hostile rules through the service', () => {
  let service: TestService
  let api: ReturnType<typeof client>
  let admin: string

  beforeAll(async () => {
    service = await startTestService('pglite')
    api = client(service.server.apiUrl)
    admin = service.adminToken
  })

  afterAll(async () => {
    await service?.close()
  })

  it('refuses a ruleset whose variables read each other with 400 naming the field, storing nothing', async () => {
    const created = await api('POST', '/api/rulesets/cyclic', { token: admin, body: cyclic })
    expect(created.status).toBe(400)
    expect(errorBody(created)).toEqual({
      error: 'ruleset does not compile',
      details: 'body.rules[0] (rule "looping").variables[0].expression (line 1, column 1): variables cycle: a -> b -> a',
    })
    expect((await api('GET', '/api/rulesets/cyclic', { token: admin })).status).toBe(404)

    expect((await api('POST', '/api/rulesets/replaced', { token: admin, body: noLatest })).status).toBe(201)
    const replaced = await api('PUT', '/api/rulesets/replaced', { token: admin, body: cyclic })
    expect(replaced.status).toBe(400)
    expect(errorBody(replaced).details).toBe('body.rules[0] (rule "looping").variables[0].expression (line 1, column 1): variables cycle: a -> b -> a')
    const stored = await api('GET', '/api/rulesets/replaced', { token: admin })
    expect(stored.body).toMatchObject({ version: 1, rules: noLatest.rules })
  })

  it('answers the webhook and /healthz while hostile rules are being evaluated, and ends those evaluations as errors', async () => {
    expect((await api('POST', '/api/rulesets/hostile', { token: admin, body: hostile })).status).toBe(201)
    expect((await api('POST', '/api/rulesets/pods', { token: admin, body: noLatest })).status).toBe(201)
    expect((await api('POST', '/api/policies/pods', { token: admin, body: { rulesets: ['pods'], action: 'Deny', match: { kinds: ['Pod'] } } })).status).toBe(201)
    const webhook: HttpsTarget = { port: service.server.webhook.port, ca: await readFile(service.server.webhook.certFile) }

    // Three clients evaluate the hostile ruleset back to back until the webhook and /healthz have answered.
    let othersAnswered = false
    const hostileClient = async (): Promise<ApiResponse[]> => {
      const answers: ApiResponse[] = []
      while (!othersAnswered) answers.push(await api('POST', '/api/eval/rulesets/hostile?verbose=true', { token: admin, body: { inputData: latestPod } }))
      return answers
    }
    const clients = [hostileClient(), hostileClient(), hostileClient()]
    const [review, health] = await Promise.all([postReview(webhook, variant('pod-create', 'hostile-neighbour', (body) => void (body.request.object = latestPod))), fetch(`${service.server.opsUrl}/healthz`)])
    othersAnswered = true
    const hostileAnswers = (await Promise.all(clients)).flat()

    expect(review.status).toBe(200)
    expect(review.json).toMatchObject({ response: { uid: 'hostile-neighbour', allowed: false } })
    expect(health.status).toBe(200)
    expect(hostileAnswers.length).toBeGreaterThanOrEqual(3)
    for (const answer of hostileAnswers) {
      expect(answer.status).toBe(200)
      const results = (answer.body as { results: { rule: string; status: string; message: string }[] }).results
      expect(results.map((result) => [result.rule, result.status])).toEqual([
        ['doubling', 'error'],
        ['nested', 'error'],
      ])
      for (const result of results) expect(result.message).toMatch(/failed: cost budget exceeded: the expression (used more than \d+ cost units|ran longer than \d+ ms)$/)
    }
  })
})
