import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testDatabases } from '../support/databases.js'
import { client, errorBody } from './http-client.js'
import { startTestService, type TestService } from './test-service.js'

describe.each(testDatabases())('what a token may grant and who may own one ($kind)', ({ kind }) => {
  let service: TestService
  let api: ReturnType<typeof client>
  let admin: string
  let manager: string

  const tokenIds = async (): Promise<string[]> => ((await api('GET', '/api/tokens', { token: admin })).body as { tokens: Array<{ id: string }> }).tokens.map((token) => token.id)

  beforeAll(async () => {
    service = await startTestService(kind)
    api = client(service.server.apiUrl)
    admin = service.adminToken
    const created = await api('POST', '/api/tokens', { token: admin, body: { name: 'manager', owner: 'ops@example.com', scopes: ['tokens:manage', 'eval'] } })
    expect(created.status).toBe(201)
    manager = (created.body as { secret: string }).secret
  })

  afterAll(async () => {
    await service?.close()
  })

  it.each([
    [['admin'], 'the scope admin, so it cannot grant it'],
    [['eval', 'audits:read'], 'the scope audits:read, so it cannot grant it'],
    [['rulesets:write', 'policies:write', 'eval'], 'the scopes rulesets:write, policies:write, so it cannot grant them'],
  ])('answers 403 naming the scopes a tokens:manage token does not hold (%j), and creates nothing', async (scopes, lacks) => {
    const before = await tokenIds()
    const response = await api('POST', '/api/tokens', { token: manager, body: { name: 'escalation', scopes } })
    expect(response.status).toBe(403)
    expect(errorBody(response)).toEqual({ error: 'forbidden', details: `scopes: the token lacks ${lacks}; a token may grant only scopes it holds` })
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer error="insufficient_scope", scope="/)
    expect(await tokenIds()).toEqual(before)
  })

  it('lets a token grant scopes it holds, and the token it made can grant no more', async () => {
    const created = await api('POST', '/api/tokens', { token: manager, body: { name: 'delegate', scopes: ['eval', 'tokens:manage'] } })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ scopes: ['eval', 'tokens:manage'], owner: 'ops@example.com' })
    const delegate = (created.body as { secret: string }).secret
    const escalation = await api('POST', '/api/tokens', { token: delegate, body: { name: 'root', scopes: ['admin'] } })
    expect(escalation.status).toBe(403)
    expect(errorBody(escalation).details).toMatch(/the scope admin/)
  })

  it('lets an admin token grant every scope', async () => {
    const created = await api('POST', '/api/tokens', { token: admin, body: { name: 'all', scopes: ['admin', 'eval', 'audits:read', 'tokens:manage'] } })
    expect(created.status).toBe(201)
  })

  it.each([
    'ops@example.com',
    'first.last+tag@sub.example.co',
    'alice',
    'kubernetes-admin',
    'system:serviceaccount:ci:deployer',
    'oidc:alice@example.com',
    `${'a'.repeat(64)}@${'b'.repeat(63)}.com`,
  ])('accepts the owner %j', async (owner) => {
    const response = await api('POST', '/api/tokens', { token: admin, body: { name: 'owned', owner, scopes: ['eval'] } })
    expect(response.status).toBe(201)
    expect((response.body as { owner: string }).owner).toBe(owner)
  })

  it.each([
    ['', 'owner must be 1-256 characters, got 0'],
    ['x'.repeat(257), 'owner must be 1-256 characters, got 257'],
    ['two words', undefined],
    ['ops@example.com\n', undefined],
    ['tab\there', undefined],
    ['bell\u0007', undefined],
    ['del\u007f', undefined],
    ['c1\u0085', undefined],
    ['@example.com', undefined],
    ['ops@', undefined],
    ['ops@@example.com', undefined],
    ['system::x', undefined],
    [':leading', undefined],
    ['<script>', undefined],
    ['\u202Eevil', undefined],
  ])('refuses the owner %j with 400 naming owner, creating nothing', async (owner, details) => {
    const before = await tokenIds()
    const response = await api('POST', '/api/tokens', { token: admin, body: { name: 'owned', owner, scopes: ['eval'] } })
    expect(response.status).toBe(400)
    const body = errorBody(response)
    if (details) expect(body.details).toBe(details)
    else expect(body.details).toBe(`owner must be one identity: an e-mail address (ops@example.com), a user name (alice) or a Kubernetes identity (system:serviceaccount:ci:deployer), without spaces or control characters; got ${JSON.stringify(owner)}`)
    expect(await tokenIds()).toEqual(before)
  })

  it.each(['line\nbreak', 'esc\u001b[31m', 'c1\u009b'])('refuses the token name %j, which holds a control character', async (name) => {
    const response = await api('POST', '/api/tokens', { token: admin, body: { name, scopes: ['eval'] } })
    expect(response.status).toBe(400)
    expect(errorBody(response).details).toBe('name must not hold control characters or unpaired surrogates')
  })
})
