import { readFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { postReview, type HttpsTarget } from '../admission/https-client.js'
import { variant } from '../admission/fixtures.js'
import { testDatabases } from '../support/databases.js'
import { client, errorBody } from './http-client.js'
import { startTestService, type TestService } from './test-service.js'

/** A rule that fails every Pod and echoes the document's `note` into its message, as an attacker would have it. */
const ECHO_RULESET = {
  rules: [
    {
      name: 'echo',
      match: { kinds: ['Pod'] },
      validate: { cel: [{ expression: 'false', messageExpression: "'note: ' + object.metadata.annotations.note" }] },
    },
  ],
}
const ECHO_POLICY = { rulesets: ['echo'], action: 'Audit', match: { kinds: ['Pod'] } }

/** A Pod whose strings and keys hold U+0000 and unpaired surrogates. */
function hostilePod(note: string): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'shop', annotations: { note, 'key\u0000\uD800': 'v\uDC00' } }, spec: { containers: [] } }
}

/** Every route with a text path parameter or query parameter that reaches a query, with the field it must name. */
const NUL_PARAMETERS: Array<[method: string, path: string, field: string]> = [
  ['GET', '/api/rulesets/a%00b', 'params.name'],
  ['PUT', '/api/rulesets/a%00b', 'params.name'],
  ['DELETE', '/api/rulesets/a%00b', 'params.name'],
  ['GET', '/api/rulesets?label=a%00=b', 'query.label'],
  ['GET', '/api/rulesets?label=a=b%00', 'query.label'],
  ['GET', '/api/policies/a%00b', 'params.name'],
  ['GET', '/api/policies?label=team=%00', 'query.label'],
  ['POST', '/api/eval/rulesets/a%00b', 'params.name'],
  ['POST', '/api/eval/policies/a%00b', 'params.name'],
  ['GET', '/api/audits/policies/a%00b', 'params.policy_name'],
  ['GET', '/api/audits/policies?policy_name=a%00*', 'query.policy_name'],
  ['GET', '/api/audits/count/policies/a%00', 'params.policy_name'],
  ['GET', '/api/audits/policies/uuid/a%00b', 'params.request_id'],
  ['GET', '/api/audits/rulesets/a%00b', 'params.ruleset_name'],
  ['GET', '/api/audits/rulesets?ruleset_name=%00', 'query.ruleset_name'],
  ['GET', '/api/audits/count/rulesets/a%00', 'params.ruleset_name'],
  ['GET', '/api/audits/rulesets/uuid/a%00b', 'params.request_id'],
  ['GET', '/api/audits/policies/p?startTimestamp=2026-01-01T00:00:00Z%00', 'query.startTimestamp'],
  ['GET', '/api/timeseries/policies/a%00b', 'params.policy_name'],
  ['GET', '/api/timeseries/rulesets/r?interval=1h%00', 'query.interval'],
  ['GET', '/api/remediations/rulesets/a%00b', 'params.name'],
  ['GET', '/api/remediations/audits/a%00b', 'params.request_id'],
  ['GET', '/api/tokens/tok%00', 'params.id'],
  ['DELETE', '/api/tokens/tok%00', 'params.id'],
  ['GET', '/api/recommendations?type=%00', 'query.type'],
]

describe.each(testDatabases())('text PostgreSQL cannot hold, over HTTP ($kind)', ({ kind }) => {
  let service: TestService
  let api: ReturnType<typeof client>
  let admin: string

  beforeAll(async () => {
    service = await startTestService(kind)
    api = client(service.server.apiUrl)
    admin = service.adminToken
    expect((await api('POST', '/api/rulesets/echo', { token: admin, body: ECHO_RULESET })).status).toBe(201)
    expect((await api('POST', '/api/policies/echo', { token: admin, body: ECHO_POLICY })).status).toBe(201)
  })

  afterAll(async () => {
    await service?.close()
  })

  it.each(NUL_PARAMETERS)('refuses U+0000 in %s %s with 400 naming %s', async (method, path, field) => {
    const response = await api(method, path, { token: admin, ...(method === 'GET' || method === 'DELETE' ? {} : { body: { inputData: {} } }) })
    expect(response.status).toBe(400)
    expect(errorBody(response)).toEqual({ error: 'bad request', details: `${field}: contains U+0000 (NUL), which cannot be stored; remove it` })
  })

  it.each(['/api/audits/policies/a%ED%A0%80b', '/api/tokens/%C0%80', '/api/rulesets/%FF'])('refuses %s, whose escapes are not UTF-8, with 400 naming the path', async (path) => {
    const response = await api('GET', path, { token: admin })
    expect(response.status).toBe(400)
    expect(errorBody(response)).toEqual({ error: 'bad request', details: `path: ${path} is not a valid url component: a percent-escape is incomplete or not UTF-8 text` })
  })

  it.each([
    ['a token name', '/api/tokens', { name: 'ci\u0000', scopes: ['eval'] }, 'body.name', 'U+0000 (NUL)'],
    ['a token name with a lone surrogate', '/api/tokens', { name: 'ci\uD800', scopes: ['eval'] }, 'body.name', 'U+D800 (an unpaired UTF-16 surrogate)'],
    ['a token owner', '/api/tokens', { name: 'ci', owner: 'ci@example.com\u0000', scopes: ['eval'] }, 'body.owner', 'U+0000 (NUL)'],
    ['a ruleset description', '/api/rulesets/bad', { description: 'x\u0000', rules: ECHO_RULESET.rules }, 'body.description', 'U+0000 (NUL)'],
    ['a rule message', '/api/rulesets/bad', { rules: [{ name: 'r', validate: { cel: [{ expression: 'true', message: '\uDC00' }] } }] }, 'body.rules[0].validate.cel[0].message', 'U+DC00 (an unpaired UTF-16 surrogate)'],
    ['a label key', '/api/rulesets/bad', { labels: { 'te\u0000am': 'a' }, rules: ECHO_RULESET.rules }, 'body.labels["te\\u0000am"]', 'U+0000 (NUL)'],
    ['a label value', '/api/policies/bad', { labels: { team: '\uD83D' }, rulesets: ['echo'] }, 'body.labels.team', 'U+D83D (an unpaired UTF-16 surrogate)'],
    ['an instruction', '/api/rulesets/bad', { instruction: 'Pods must not run as root\u0000', labels: {} }, 'body.instruction', 'U+0000 (NUL)'],
  ])('refuses it in %s with 400 naming the field, and stores nothing', async (_what, path, body, field, character) => {
    const before = { tokens: (await api('GET', '/api/tokens', { token: admin })).body, rulesets: (await api('GET', '/api/rulesets', { token: admin })).body }
    const response = await api('POST', path, { token: admin, body })
    expect(response.status).toBe(400)
    expect(errorBody(response)).toEqual({ error: 'bad request', details: `${field}: contains ${character}, which cannot be stored; remove it` })
    expect((await api('GET', '/api/tokens', { token: admin })).body).toEqual(before.tokens)
    expect((await api('GET', '/api/rulesets', { token: admin })).body).toEqual(before.rulesets)
  })

  it.each([
    ['U+0000', 'a\u0000b', 'note: a\uFFFDb'],
    ['a lone high surrogate', 'x\uD800y', 'note: x\uFFFDy'],
    ['a lone low surrogate', '\uDC00', 'note: \uFFFD'],
  ])('evaluates a document holding %s and audits it: the input exactly, the echoed message made well-formed', async (_what, note, storedMessage) => {
    const pod = hostilePod(note)
    for (const [path, auditPath, listField] of [
      ['/api/eval/rulesets/echo', '/api/audits/rulesets/uuid', 'rulesetAudits'],
      ['/api/eval/policies/echo', '/api/audits/policies/uuid', 'policyAudit'],
    ] as const) {
      const evaluated = await api('POST', path, { token: admin, body: { inputData: pod } })
      expect(evaluated.status).toBe(200)
      expect(evaluated.headers.get('x-audit-status')).toBe('committed')
      const { requestId } = evaluated.body as { requestId: string }
      const audit = await api('GET', `${auditPath}/${requestId}`, { token: admin })
      expect(audit.status).toBe(200)
      const body = audit.body as Record<string, unknown>
      const record = (listField === 'rulesetAudits' ? (body.rulesetAudits as unknown[])[0] : body.policyAudit) as { input: string; output: { results: Array<{ message: string }> } }
      expect(JSON.parse(record.input)).toEqual(pod)
      expect(record.output.results[0]?.message).toBe(storedMessage)
    }
  })

  it('audits a webhook review whose uid and user name hold U+0000 and lone surrogates, and answers with the uid as sent', async () => {
    const webhook: HttpsTarget = { port: service.server.webhook.port, ca: await readFile(service.server.webhook.certFile) }
    const uid = `review\u0000${kind}\uD800`
    const review = variant('pod-create', uid, (body) => {
      body.request.userInfo = { username: 'eve\u0000' }
      body.request.object = hostilePod('z\u0000\uDBFF')
    })
    const answer = await postReview(webhook, review)
    expect(answer.status).toBe(200)
    expect((answer.json as { response: { uid: string; allowed: boolean } }).response).toMatchObject({ uid, allowed: true })
    // The webhook answers before its audits are committed: look until they are there.
    const storedUid = encodeURIComponent(`review\uFFFD${kind}\uFFFD`)
    let audit = await api('GET', `/api/audits/policies/uuid/${storedUid}`, { token: admin })
    for (let attempt = 0; audit.status === 404 && attempt < 200; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      audit = await api('GET', `/api/audits/policies/uuid/${storedUid}`, { token: admin })
    }
    expect(audit.status).toBe(200)
    const record = (audit.body as { policyAudit: { updatedBy: string; input: string; output: { results: Array<{ message: string }> } } }).policyAudit
    expect(record.updatedBy).toBe('eve\uFFFD')
    expect((JSON.parse(record.input) as { metadata: { annotations: { note: string } } }).metadata.annotations.note).toBe('z\u0000\uDBFF')
    expect(record.output.results[0]?.message).toBe('note: z\uFFFD\uFFFD')
  })
})
