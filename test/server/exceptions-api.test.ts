import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testDatabases } from '../support/databases.js'
import { client, errorBody } from './http-client.js'
import { startTestService, type TestService } from './test-service.js'

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
const START = new Date('2026-06-01T12:00:00.000Z')

const shipperException = {
  policies: ['baseline-*'],
  rules: [{ ruleset: 'pod-hardening', rule: 'no-privileged' }],
  match: { kinds: ['Pod'], namespaces: ['logging'], names: ['log-shipper*'] },
  conditions: [{ expression: "object.spec.containers.all(c, c.image.startsWith('registry.example.com/'))" }],
  reason: 'the log shipper reads host logs',
  ticket: 'https://tracker.example.com/OPS-42',
  owner: 'platform@example.com',
  expiresAt: '2026-06-01T14:00:00+01:00',
}

const manifestYaml = `apiVersion: verdict.dev/v1alpha1
kind: PolicyException
metadata:
  name: cni-privileged
  labels: {team: network}
spec:
  policies: [restricted]
  match:
    kinds: [DaemonSet]
    namespaces: [kube-system]
  reason: the CNI configures the node network
`

describe.each(testDatabases())('the exception routes on $kind', ({ kind }) => {
  let service: TestService
  let api: ReturnType<typeof client>
  let admin: string
  const clock = { now: START }

  beforeAll(async () => {
    service = await startTestService(kind, {}, { now: () => clock.now })
    api = client(service.server.apiUrl)
    admin = service.adminToken
  })

  afterAll(async () => {
    await service?.close()
  })

  async function tokenWith(...scopes: string[]): Promise<string> {
    const created = await api('POST', '/api/tokens', { token: admin, body: { name: scopes.join(' '), owner: 'someone@example.com', scopes } })
    expect(created.status).toBe(201)
    return (created.body as { secret: string }).secret
  }

  it('creates an exception from the plain JSON form (201) with its bookkeeping and state', async () => {
    const response = await api('POST', '/api/exceptions/log-shipper', { token: admin, body: shipperException })
    expect(response.status).toBe(201)
    expect(response.body).toEqual({
      name: 'log-shipper',
      labels: {},
      ...shipperException,
      expiresAt: '2026-06-01T13:00:00.000Z',
      state: 'active',
      source: 'api',
      version: 1,
      createdAt: START.toISOString(),
      createdBy: 'admin@verdict.local',
      updatedAt: START.toISOString(),
      updatedBy: 'admin@verdict.local',
    })
    expect((await api('GET', '/api/exceptions/log-shipper', { token: admin })).body).toEqual(response.body)
  })

  it('creates one from a YAML manifest, metadata labels included', async () => {
    const response = await api('POST', '/api/exceptions/cni-privileged', { token: admin, raw: manifestYaml, contentType: 'application/x-yaml' })
    expect(response.status).toBe(201)
    expect(response.body).toMatchObject({
      name: 'cni-privileged',
      labels: { team: 'network' },
      policies: ['restricted'],
      match: { kinds: ['DaemonSet'], namespaces: ['kube-system'] },
      reason: 'the CNI configures the node network',
      state: 'active',
      version: 1,
    })
    expect(response.body).not.toHaveProperty('expiresAt')
  })

  it('refuses a second create (409), replaces with PUT (version 2, updatedBy) and deletes (204, then 404)', async () => {
    const again = await api('POST', '/api/exceptions/log-shipper', { token: admin, body: shipperException })
    expect({ status: again.status, ...errorBody(again) }).toEqual({ status: 409, error: 'exception already exists', details: 'exception "log-shipper" already exists; use PUT to replace it' })
    clock.now = new Date(START.getTime() + 60_000)
    const writer = await tokenWith('exceptions:write', 'exceptions:read')
    const replaced = await api('PUT', '/api/exceptions/log-shipper', { token: writer, body: { ...shipperException, reason: 'renewed for the migration' } })
    expect(replaced.status).toBe(200)
    expect(replaced.body).toMatchObject({ version: 2, reason: 'renewed for the migration', createdBy: 'admin@verdict.local', updatedBy: 'someone@example.com', updatedAt: clock.now.toISOString() })
    const temporary = await api('POST', '/api/exceptions/temporary', { token: writer, body: { policies: ['x'], match: { kinds: ['Pod'] }, reason: 'r' } })
    expect(temporary.status).toBe(201)
    const deleted = await api('DELETE', '/api/exceptions/temporary', { token: writer })
    expect(deleted.status).toBe(204)
    const gone = await api('GET', '/api/exceptions/temporary', { token: writer })
    expect({ status: gone.status, ...errorBody(gone) }).toEqual({ status: 404, error: 'exception not found', details: 'exception "temporary" does not exist' })
    const missing = await api('PUT', '/api/exceptions/temporary', { token: writer, body: shipperException })
    expect(missing.status).toBe(404)
  })

  it('refuses bad bodies with 400 naming the field, and stores nothing', async () => {
    const cases: Array<[unknown, string]> = [
      [{ ...shipperException, reason: undefined }, 'body.reason: is required'],
      [{ match: { kinds: ['Pod'] }, reason: 'r' }, 'body.policies: is required unless rules is given: an exception names the policies or the rules it lets through, never all of them by leaving both out'],
      [{ ...shipperException, match: undefined }, 'body.match: is required'],
      [{ ...shipperException, colour: 'red' }, 'body.colour: unknown field "colour"'],
      [{ ...shipperException, expiresAt: 'next tuesday' }, 'body.expiresAt: "next tuesday" is not an ISO 8601 date-time (RFC 3339) such as 2026-01-31T12:00:00Z: write a date, T, a time with seconds and a zone (Z or +hh:mm)'],
      [{ ...shipperException, reason: 'fine\u0007bell' }, 'body.reason: contains the control character U+0007 at offset 4; only tabs and line breaks are allowed'],
      [{ ...shipperException, name: 'other' }, 'body.name: "other" differs from the name in the path, "refused"'],
      [{ apiVersion: 'verdict.dev/v1alpha1', kind: 'PolicyException', metadata: { name: 'refused' }, spec: { policies: ['p'], match: {} } }, 'body.spec.reason: is required'],
      [{ apiVersion: 'verdict.dev/v1alpha1', kind: 'Policy', metadata: { name: 'refused' }, spec: {} }, 'body.kind: must be PolicyException here (got "Policy")'],
    ]
    for (const [body, details] of cases) {
      const response = await api('POST', '/api/exceptions/refused', { token: admin, body })
      expect({ status: response.status, ...errorBody(response) }).toEqual({ status: 400, error: 'invalid request', details })
    }
    const badCel = await api('POST', '/api/exceptions/refused', { token: admin, body: { ...shipperException, conditions: [{ expression: 'true' }, { expression: 'object.spec.containers.all(c, c.image.startsWith(' }] } })
    expect(badCel.status).toBe(400)
    expect(errorBody(badCel)).toEqual({ error: 'exception does not compile', details: expect.stringMatching(/^body\.conditions\[1\]\.expression \(line 1, column \d+\): /) })
    expect((await api('GET', '/api/exceptions/refused', { token: admin })).status).toBe(404)
  })

  it('needs exceptions:write to write and exceptions:read to read; policies:write is not enough', async () => {
    const policyWriter = await tokenWith('policies:write', 'policies:read')
    const refused = await api('POST', '/api/exceptions/sneaky', { token: policyWriter, body: shipperException })
    expect({ status: refused.status, ...errorBody(refused) }).toEqual({ status: 403, error: 'forbidden', details: 'the token lacks the scope exceptions:write' })
    expect(refused.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="exceptions:write"')
    expect((await api('GET', '/api/exceptions', { token: policyWriter })).status).toBe(403)
    const reader = await tokenWith('exceptions:read')
    expect((await api('GET', '/api/exceptions/log-shipper', { token: reader })).status).toBe(200)
    expect((await api('DELETE', '/api/exceptions/log-shipper', { token: reader })).status).toBe(403)
    expect((await api('GET', '/api/exceptions/sneaky', { token: admin })).status).toBe(404)
  })

  it('lists by policy, ruleset and state, the state judged by the clock at the time of the answer', async () => {
    const names = async (query: string): Promise<string[]> => {
      const response = await api('GET', `/api/exceptions${query}`, { token: admin })
      expect(response.status).toBe(200)
      return (response.body as { exceptions: Array<{ name: string }> }).exceptions.map((exception) => exception.name)
    }
    clock.now = START
    expect(await names('')).toEqual(['cni-privileged', 'log-shipper'])
    expect(await names('?policy=baseline-pods')).toEqual(['log-shipper'])
    expect(await names('?policy=restricted')).toEqual(['cni-privileged'])
    expect(await names('?ruleset=pod-hardening')).toEqual(['log-shipper'])
    expect(await names('?state=expired')).toEqual([])
    clock.now = new Date('2026-06-01T13:00:00.000Z')
    expect(await names('?state=expired')).toEqual(['log-shipper'])
    expect(await names('?state=active')).toEqual(['cni-privileged'])
    expect((await api('GET', '/api/exceptions/log-shipper', { token: admin })).body).toMatchObject({ state: 'expired' })
    const bad = await api('GET', '/api/exceptions?state=paused', { token: admin })
    expect(bad.status).toBe(400)
    expect(errorBody(bad)).toEqual({ error: 'bad request', details: 'query.state must be one of "active", "expired"' })
    clock.now = START
  })

  it('recommends renewing an exception about to expire and narrowing a broad one', async () => {
    clock.now = START
    expect((await api('POST', '/api/exceptions/all-daemonsets', { token: admin, body: { policies: ['restricted'], match: { kinds: ['DaemonSet'] }, reason: 'r' } })).status).toBe(201)
    const response = await api('GET', '/api/recommendations?type=expiring-exception&type=broad-exception', { token: admin })
    expect(response.status).toBe(200)
    expect((response.body as { recommendations: Array<{ id: string }> }).recommendations.map((item) => item.id)).toEqual([
      'expiring-exception:log-shipper',
      'broad-exception:all-daemonsets',
    ])
    expect((await api('DELETE', '/api/exceptions/all-daemonsets', { token: admin })).status).toBe(204)
  })

  it('stamps ISO times and lists exceptions in the OpenAPI document', async () => {
    const exception = (await api('GET', '/api/exceptions/cni-privileged', { token: admin })).body as { createdAt: string }
    expect(exception.createdAt).toMatch(ISO)
    const openapi = (await api('GET', '/api/openapi.json', { token: admin })).body as { paths: Record<string, unknown> }
    expect(Object.keys(openapi.paths)).toEqual(expect.arrayContaining(['/api/exceptions', '/api/exceptions/{name}']))
  })
})

describe('VERDICT_EXCEPTION_REQUIRE_EXPIRY=true', () => {
  let service: TestService

  beforeAll(async () => {
    service = await startTestService('pglite', { VERDICT_EXCEPTION_REQUIRE_EXPIRY: 'true' })
  })

  afterAll(async () => {
    await service?.close()
  })

  it('refuses an exception without expiresAt, naming the field, and takes one with it', async () => {
    const api = client(service.server.apiUrl)
    const token = service.adminToken
    const { expiresAt: _expiresAt, ...forever } = shipperException
    const refused = await api('POST', '/api/exceptions/forever', { token, body: forever })
    expect({ status: refused.status, ...errorBody(refused) }).toEqual({
      status: 400,
      error: 'invalid request',
      details: 'body.expiresAt: is required here (VERDICT_EXCEPTION_REQUIRE_EXPIRY): every exception must end',
    })
    expect((await api('GET', '/api/exceptions/forever', { token })).status).toBe(404)
    expect((await api('POST', '/api/exceptions/ends', { token, body: shipperException })).status).toBe(201)
  })
})
