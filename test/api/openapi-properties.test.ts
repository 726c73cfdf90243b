import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { client } from '../server/http-client.js'
import { startTestService, type TestService } from '../server/test-service.js'

/** Characters that have broken stores, parsers and loggers: NUL, other controls, lone surrogates, bidi overrides, quotes. */
const hostileChar = fc.oneof(
  fc.constantFrom('\u0000', '\u0001', '\u001b', '\u007f', '\ud800', '\udfff', '\u202e', '\ufeff', '"', '\\', '\n', '%', '*', '=', ',', '/', '?', '#', '..'),
  fc.string({ minLength: 1, maxLength: 1, unit: 'binary' }),
)
const hostileString = fc.oneof(
  fc.string({ unit: hostileChar, maxLength: 16 }),
  fc.constantFrom('__proto__', '__proto__=x', 'constructor', 'toString', '0000-01-01T00:00:00Z', '2024-02-30T00:00:00Z', '2023-02-29', '0001-01-01T00:00:00Z', '9999-12-31T23:59:59Z', '-1', '1e309', 'NaN', '*', ''),
  fc.string({ unit: hostileChar, maxLength: 3 }).map((piece) => piece.repeat(3_000)),
)
const hostileKey = fc.oneof(hostileString, fc.constantFrom('__proto__', 'constructor', 'prototype', 'rules', 'labels', 'instruction', 'scopes'))
const hostileJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null)),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(hostileKey, tie('value'), { maxKeys: 5 }),
  ),
})).value

/** Percent-encodes any string, a lone surrogate as the three bytes an attacker would send (WTF-8), where encodeURIComponent throws. */
function encodeHostile(text: string): string {
  let encoded = ''
  for (const piece of text.match(/[\ud800-\udbff][\udc00-\udfff]|[\s\S]/g) ?? []) {
    const unit = piece.charCodeAt(0)
    if (piece.length === 1 && unit >= 0xd800 && unit <= 0xdfff) encoded += [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)].map((byte) => `%${byte.toString(16).toUpperCase()}`).join('')
    else encoded += encodeURIComponent(piece)
  }
  return encoded
}

interface Operation {
  method: string
  path: string
  pathParams: string[]
  queryParams: string[]
  hasBody: boolean
}

interface OpenApi {
  paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }>; requestBody?: unknown }>>
}

/** Every operation the service documents, so a route added later is covered without editing this test. */
function operationsOf(document: OpenApi): Operation[] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      pathParams: [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string),
      queryParams: (operation.parameters ?? []).filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name),
      hasBody: operation.requestBody !== undefined,
    })),
  )
}

describe('every documented route facing hostile parameters and bodies', () => {
  let service: TestService
  let api: ReturnType<typeof client>
  let admin: string
  let operations: Operation[]

  beforeAll(async () => {
    service = await startTestService('pglite')
    api = client(service.server.apiUrl)
    admin = service.adminToken
    const ruleset = { rules: [{ name: 'has-name', validate: { cel: [{ expression: "object.metadata.?name.orValue('') != ''" }] } }] }
    expect((await api('POST', '/api/rulesets/base', { token: admin, body: ruleset })).status).toBe(201)
    expect((await api('POST', '/api/policies/base', { token: admin, body: { rulesets: ['base'], action: 'Audit' } })).status).toBe(201)
    const document = (await api('GET', '/api/openapi.json', { token: admin })).body as OpenApi
    operations = operationsOf(document)
    expect(operations.length).toBeGreaterThan(20)
  })

  afterAll(async () => {
    await service?.close()
  })

  /** What a refused request must leave as it was: the definitions and the tokens. */
  const storedState = async (): Promise<string> => {
    const parts = await Promise.all(['/api/rulesets', '/api/policies', '/api/tokens'].map((path) => api('GET', path, { token: admin })))
    return JSON.stringify(parts.map((part) => part.body))
  }

  it('never answers 5xx; every 4xx is {error, details}; a refused write changes nothing', async () => {
    const request = fc.record({
      operation: fc.integer({ min: 0, max: 10_000 }),
      // Names that exist or could, so bodies get past the path and reach validation, evaluation and the audit store.
      params: fc.array(fc.oneof(hostileString, fc.constantFrom('base', 'probe', 'probe-2')), { minLength: 4, maxLength: 4 }),
      query: fc.dictionary(fc.oneof(fc.constantFrom('label', 'page', 'pageSize', 'startTimestamp', 'endTimestamp', 'policy_name', 'ruleset_name', 'interval', 'dryRun', 'verbose', 'source'), hostileKey), hostileString, { maxKeys: 4 }),
      body: fc.oneof(hostileJson, fc.record({ inputData: hostileJson }), fc.record({ instruction: hostileString, labels: fc.dictionary(hostileKey, hostileJson, { maxKeys: 3 }) }), fc.record({ owner: hostileString, scopes: fc.array(hostileString, { maxLength: 3 }), expiresAt: hostileString })),
    })
    await fc.assert(
      fc.asyncProperty(request, async ({ operation: pick, params, query, body }) => {
        const operation = operations[pick % operations.length] as Operation
        // Revoking the admin token would end the run, not test anything.
        if (operation.method === 'DELETE' && operation.path.startsWith('/api/tokens')) return
        const path = operation.pathParams.reduce((url, name, index) => url.replace(`{${name}}`, encodeHostile(params[index] ?? 'x')), operation.path)
        const search = new URLSearchParams()
        for (const [key, value] of Object.entries(query)) search.append(key, value)
        const url = search.size > 0 ? `${path}?${search.toString()}` : path
        const writes = operation.method !== 'GET'
        const before = writes ? await storedState() : ''
        const response = await api(operation.method, url, { token: admin, ...(operation.hasBody ? { body } : {}) })
        expect(response.status, `${operation.method} ${url}`).toBeLessThan(500)
        if (response.status >= 400) {
          expect(response.body).toEqual({ error: expect.any(String), details: expect.any(String) })
          if (writes) expect(await storedState()).toBe(before)
        }
      }),
      { numRuns: 250 },
    )
  }, 300_000)
})
