import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SCOPES } from '../../src/services/scopes.js'
import { unstorableCharacterIn } from '../../src/store/storable-text.js'
import { testDatabases } from '../support/databases.js'
import { client, type ApiResponse } from './http-client.js'
import { startTestService, type TestService } from './test-service.js'

/*
 * Generated hostile input over the list, get and token routes and the evaluation routes of the
 * whole service: U+0000 and other control characters, unpaired surrogates, percent-escapes that
 * are not UTF-8, huge strings, keys named after Object.prototype members, impossible dates.
 * Whatever arrives: no 5xx; every 4xx is exactly {error, details}, and a 400 or 403 names a
 * field the request sent; a refused request changes nothing stored; an accepted evaluation is
 * audited with its document. Run counts are bounded so the file stays well under 30 s.
 */

const RUNS = 60

/** Single code units chosen to break things, and any UTF-16 code unit at all. */
const hostileCodeUnit = fc.oneof(
  fc.constantFrom('\u0000', '\uD800', '\uDBFF', '\uDC00', '\uDFFF', '\u0001', '\u001b', '\u007f', '\u0085', '\u202e', '\uFEFF', '%', '*', '?', '_', '\\', '=', '&', '#', '/', '+', ' ', '"', "'"),
  fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
  fc.constantFrom('a', 'z', '0', '-', '.'),
)

const hostileString = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: hostileCodeUnit, maxLength: 12 }) },
  { weight: 2, arbitrary: fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__=x', 'constructor=x', 'toString=', '=x', '*', 'prod-*', '') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '0000-01-01T00:00:00Z',
      '0001-01-01T00:00:00Z',
      '2024-02-30T00:00:00Z',
      '2023-02-29T00:00:00Z',
      '2024-02-29T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-01-01T24:00:00Z',
      '2026-12-31T23:59:60Z',
      '2026-01-01',
      '2026-01-01T00:00:00',
      '9999-12-31T23:59:59.999Z',
      '9999-12-31T23:59:59-01:00',
      '10000-01-01T00:00:00Z',
      '2099-01-01T00:00:00+23:59',
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom(300, 5_000).chain((length) => fc.string({ unit: hostileCodeUnit, minLength: 1, maxLength: 3 }).map((tail) => `${'x'.repeat(length)}${tail}`)) },
)

/** Bytes a client may put in a URL: the string's UTF-8 (a lone surrogate becomes U+FFFD), or escapes that are not UTF-8 at all. */
const urlComponent = fc.oneof(
  { weight: 5, arbitrary: hostileString.map(percentEncode) },
  { weight: 1, arbitrary: fc.constantFrom('%ED%A0%80', '%C0%80', '%FF', '%E2%82', 'a%ZZ', '%00%00', '%') },
)

function percentEncode(text: string): string {
  const encoded = [...Buffer.from(text, 'utf8')].map((byte) => (/[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)).join('')
  // A bare `.` or `..` is a dot-segment the client resolves away (`/uuid/..` is sent as `/`), which would test another route;
  // so is `%2E%2E` (the URL standard reads an escaped dot as a dot there), so the segment gets a character more.
  return encoded === '.' || encoded === '..' ? `${encoded}~` : encoded
}

interface ReadRoute {
  /** With `{}` where the generated path parameter goes, if any. */
  path: string
  param?: string
  query: readonly string[]
}

const AUDIT_QUERY = ['startTimestamp', 'endTimestamp', 'page', 'pageSize'] as const
const READ_ROUTES: readonly ReadRoute[] = [
  { path: '/api/rulesets', query: ['label'] },
  { path: '/api/policies', query: ['label'] },
  { path: '/api/rulesets/{}', param: 'name', query: [] },
  { path: '/api/policies/{}', param: 'name', query: [] },
  { path: '/api/audits/policies/{}', param: 'policy_name', query: AUDIT_QUERY },
  { path: '/api/audits/rulesets', query: ['ruleset_name', ...AUDIT_QUERY] },
  { path: '/api/audits/count/policies/{}', param: 'policy_name', query: ['startTimestamp', 'endTimestamp'] },
  { path: '/api/audits/rulesets/uuid/{}', param: 'request_id', query: [] },
  { path: '/api/audits/policies/uuid/{}', param: 'request_id', query: [] },
  { path: '/api/timeseries/rulesets/{}', param: 'ruleset_name', query: ['startTimestamp', 'endTimestamp', 'interval'] },
  { path: '/api/remediations/audits/{}', param: 'request_id', query: [] },
  { path: '/api/remediations/rulesets/{}', param: 'name', query: [] },
  { path: '/api/tokens/{}', param: 'id', query: [] },
  { path: '/api/recommendations', query: ['days', 'type'] },
  { path: '/api/exceptions', query: ['policy', 'ruleset', 'state'] },
  { path: '/api/exceptions/{}', param: 'name', query: [] },
  { path: '/api/labels/rulesets', query: [] },
]

const readRequest = fc
  .constantFrom(...READ_ROUTES)
  .chain((route) =>
    fc.record({
      route: fc.constant(route),
      param: urlComponent,
      // Each query parameter absent, once, or repeated.
      query: fc.tuple(...route.query.map((name) => fc.tuple(fc.constant(name), fc.array(urlComponent, { maxLength: 2 })))),
    }),
  )
  .map(({ route, param, query }) => {
    const sent = query.filter(([, values]) => values.length > 0)
    const search = sent.flatMap(([name, values]) => values.map((value) => `${name}=${value}`)).join('&')
    return { route, url: `${route.path.replace('{}', param)}${search === '' ? '' : `?${search}`}` }
  })

/** A JSON value whose keys and strings are hostile, nested a few levels. */
const hostileDocument = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, hostileString, fc.integer(), fc.boolean(), fc.constant(null), tie('object'), tie('array')),
  object: fc.dictionary(hostileString, tie('value'), { maxKeys: 4 }),
  array: fc.array(tie('value'), { maxLength: 3 }),
})).object

/** A 4xx is exactly {error, details}; a 400 or 403 names a field of the request that was sent. */
function expectClientError(response: ApiResponse, namable: readonly string[]): void {
  expect(response.status, JSON.stringify(response.body)).toBeLessThan(500)
  if (response.status < 400) return
  expect(typeof response.body === 'object' && response.body !== null ? Object.keys(response.body).sort() : response.body).toEqual(['details', 'error'])
  const { error, details } = response.body as { error: unknown; details: unknown }
  expect(typeof error).toBe('string')
  expect(typeof details).toBe('string')
  if (response.status !== 400 && response.status !== 403) return
  const named = /^(params|query|body|headers)(?:\.([A-Za-z_]\w*)|\[|:|\s|$)|^path:|^(name|owner|scopes|expiresAt)\b/.exec(details as string)
  expect(named, details as string).not.toBeNull()
  const field = named?.[2] ?? named?.[3]
  if (field !== undefined) expect(namable, details as string).toContain(field)
}

describe.each(testDatabases())('hostile input, generated ($kind)', ({ kind }) => {
  let service: TestService
  let api: ReturnType<typeof client>
  let admin: string
  let manager: string

  /** What a refused request must leave as it was. */
  const storedState = async () => {
    const [tokens, rulesets, policies, rulesetAudits, policyAudits, exceptions] = await Promise.all([
      api('GET', '/api/tokens', { token: admin }),
      api('GET', '/api/rulesets', { token: admin }),
      api('GET', '/api/policies', { token: admin }),
      api('GET', '/api/audits/count/rulesets/*', { token: admin }),
      api('GET', '/api/audits/count/policies/*', { token: admin }),
      api('GET', '/api/exceptions', { token: admin }),
    ])
    return {
      exceptions: (exceptions.body as { exceptions: Array<{ name: string; version: number }> }).exceptions.map((exception) => `${exception.name}:${exception.version}`),
      tokens: (tokens.body as { tokens: Array<{ id: string; revokedAt: string | null }> }).tokens.map((token) => `${token.id}:${token.revokedAt}`),
      rulesets: rulesets.body,
      policies: policies.body,
      rulesetAudits: (rulesetAudits.body as { rulesetAuditsCount: number }).rulesetAuditsCount,
      policyAudits: (policyAudits.body as { policyAuditsCount: number }).policyAuditsCount,
    }
  }

  beforeAll(async () => {
    service = await startTestService(kind)
    api = client(service.server.apiUrl)
    admin = service.adminToken
    const echo = { name: 'echo', validate: { cel: [{ expression: 'false', messageExpression: "'note: ' + object.note" }] } }
    expect((await api('POST', '/api/rulesets/echo', { token: admin, body: { labels: { constructor: 'x', team: 'a' }, rules: [echo] } })).status).toBe(201)
    expect((await api('POST', '/api/policies/echo', { token: admin, body: { rulesets: ['echo'] } })).status).toBe(201)
    const created = await api('POST', '/api/tokens', { token: admin, body: { name: 'manager', scopes: ['tokens:manage', 'eval'] } })
    manager = (created.body as { secret: string }).secret
  })

  afterAll(async () => {
    await service?.close()
  })

  it('list and get routes answer hostile parameters without a 5xx, naming the field of every 400, changing nothing', async () => {
    const before = await storedState()
    await fc.assert(
      fc.asyncProperty(readRequest, async ({ route, url }) => {
        const response = await api('GET', url, { token: admin })
        // A parameter left out may be named too: its default can be what does not fit (interval 1h over years).
        expectClientError(response, [...(route.param ? [route.param] : []), ...route.query])
      }),
      { numRuns: RUNS * 3 },
    )
    expect(await storedState()).toEqual(before)
  })

  it('token routes answer hostile bodies and ids without a 5xx; a refused creation stores nothing, an accepted one is listed', async () => {
    const body = fc.record(
      {
        name: fc.oneof(hostileString, fc.constant('ci')),
        owner: fc.oneof(hostileString, fc.constantFrom('ops@example.com', 'system:serviceaccount:ci:deployer')),
        scopes: fc.oneof(fc.subarray([...SCOPES], { minLength: 1 }), fc.array(hostileString, { maxLength: 2 })),
        expiresAt: fc.oneof(hostileString, fc.constant('2999-01-01T00:00:00Z')),
      },
      { requiredKeys: ['name', 'scopes'] },
    )
    await fc.assert(
      fc.asyncProperty(body, fc.boolean(), urlComponent, async (sent, asManager, id) => {
        const before = await storedState()
        const created = await api('POST', '/api/tokens', { token: asManager ? manager : admin, body: sent })
        expectClientError(created, ['name', 'owner', 'scopes', 'expiresAt'])
        const after = await storedState()
        if (created.status === 201) expect(after.tokens).toEqual([...before.tokens, `${(created.body as { id: string }).id}:null`])
        else expect(after).toEqual(before)
        for (const method of ['GET', 'DELETE']) {
          const answer = await api(method, `/api/tokens/${id}`, { token: admin })
          expectClientError(answer, ['id'])
          expect(answer.status).not.toBe(200)
        }
        expect(await storedState()).toEqual(after)
      }),
      { numRuns: RUNS },
    )
  })

  it('exception routes answer hostile bodies and names without a 5xx; a refused write stores nothing, an accepted one is listed', async () => {
    const valid = { policies: ['echo'], match: { kinds: ['Pod'], namespaces: ['shop'] }, reason: 'a reason' }
    const body = fc.record(
      {
        policies: fc.oneof(fc.constant(['echo', 'prod-*']), fc.array(hostileString, { maxLength: 2 })),
        rules: fc.oneof(fc.constant([{ ruleset: 'echo', rule: 'echo' }]), fc.array(fc.record({ ruleset: hostileString, rule: hostileString }), { maxLength: 2 })),
        match: fc.oneof(fc.constant(valid.match), hostileDocument),
        conditions: fc.oneof(fc.constant([{ expression: 'true' }]), fc.array(fc.record({ expression: hostileString }), { maxLength: 2 })),
        reason: fc.oneof(hostileString, fc.constant('a reason')),
        ticket: hostileString,
        owner: hostileString,
        expiresAt: fc.oneof(hostileString, fc.constant('2999-01-01T00:00:00Z')),
      },
      { requiredKeys: [] },
    )
    const fields = ['policies', 'rules', 'match', 'conditions', 'reason', 'ticket', 'owner', 'expiresAt', 'name']
    await fc.assert(
      fc.asyncProperty(body, urlComponent, async (sent, name) => {
        const before = await storedState()
        const created = await api('POST', `/api/exceptions/${name}`, { token: admin, body: sent })
        expectClientError(created, fields)
        const after = await storedState()
        if (created.status === 201) {
          const stored = created.body as { name: string }
          expect(after.exceptions).toEqual([...before.exceptions, `${stored.name}:1`].sort())
          expect((await api('DELETE', `/api/exceptions/${percentEncode(stored.name)}`, { token: admin })).status).toBe(204)
        } else {
          expect(after).toEqual(before)
        }
      }),
      { numRuns: RUNS },
    )
  })

  it('evaluations of hostile documents are answered and audited with the document, or refused and not audited', async () => {
    await fc.assert(
      fc.asyncProperty(hostileDocument, hostileString, fc.constantFrom('rulesets', 'policies'), async (extra, note, kindOfEval) => {
        const before = await storedState()
        const inputData = { ...extra, note }
        const evaluated = await api('POST', `/api/eval/${kindOfEval}/echo`, { token: admin, body: { inputData } })
        expectClientError(evaluated, ['inputData'])
        const after = await storedState()
        if (evaluated.status !== 200) {
          expect(after).toEqual(before)
          return
        }
        expect(evaluated.headers.get('x-audit-status')).toBe('committed')
        expect(after.rulesetAudits).toBe(before.rulesetAudits + 1)
        expect(after.policyAudits).toBe(before.policyAudits + (kindOfEval === 'policies' ? 1 : 0))
        const { requestId } = evaluated.body as { requestId: string }
        const audit = await api('GET', `/api/audits/rulesets/uuid/${percentEncode(requestId)}`, { token: admin })
        expect(audit.status).toBe(200)
        const [record] = (audit.body as { rulesetAudits: Array<{ input: string; output: { results: Array<{ message?: string }> } }> }).rulesetAudits
        // The document comes back exactly: JSON text escapes what the store could not hold raw.
        expect(JSON.parse(record?.input ?? '')).toEqual(JSON.parse(JSON.stringify(inputData)))
        const message = record?.output.results[0]?.message ?? ''
        expect(unstorableCharacterIn(message)).toBeUndefined()
      }),
      { numRuns: RUNS },
    )
  })
})
