import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bearer, expectError, expectStamped, startServer, type TestServer } from './test-server.js'

describe('authentication and scopes', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer()
  })
  afterAll(() => server.close())

  const get = (path: string, headers: Record<string, string> = {}): Promise<Response> => fetch(`${server.url}${path}`, { headers })

  it('answers 401 with WWW-Authenticate: Bearer when the header is missing', async () => {
    const response = await get('/api/things/web')
    expect(response.headers.get('www-authenticate')).toBe('Bearer')
    await expectError(response, 401, 'unauthorized', 'missing Authorization header; send Authorization: Bearer <token>')
  })

  it('answers 401 to another authentication scheme', async () => {
    const response = await get('/api/things/web', { authorization: 'Basic dXNlcjpwYXNz' })
    expect(response.headers.get('www-authenticate')).toBe('Bearer')
    await expectError(response, 401, 'unauthorized', 'the Authorization header must use the Bearer scheme')
  })

  it.each(['Bearer', 'Bearer two words', 'Bearer "quoted"'])('answers 401 invalid_token to a malformed bearer header (%s)', async (header) => {
    const response = await get('/api/things/web', { authorization: header })
    expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"')
    await expectError(response, 401, 'unauthorized', 'malformed bearer token')
  })

  it('answers 401 invalid_token to an unknown token', async () => {
    const response = await get('/api/things/web', bearer('nobody-secret'))
    expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"')
    await expectError(response, 401, 'unauthorized', 'the token is unknown, expired or revoked')
  })

  it('accepts a token holding the scope, with the scheme in any case, and exposes the principal', async () => {
    const response = await get('/api/things/web', { authorization: 'bearer reader-secret' })
    expectStamped(response)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ name: 'web', page: 1, pageSize: 10, owner: 'reader@example.com' })
  })

  it('answers 403 naming the missing scope', async () => {
    const response = await fetch(`${server.url}/api/things/web`, {
      method: 'POST',
      headers: { ...bearer('reader-secret'), 'content-type': 'application/json' },
      body: JSON.stringify({ inputData: {} }),
    })
    expect(response.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="rulesets:write"')
    await expectError(response, 403, 'forbidden', 'the token lacks the scope rulesets:write')
  })

  it('lets admin do everything', async () => {
    const read = await get('/api/things/web', bearer('admin-secret'))
    expect(read.status).toBe(200)
    const write = await fetch(`${server.url}/api/things/web`, {
      method: 'POST',
      headers: { ...bearer('admin-secret'), 'content-type': 'application/json' },
      body: '{"inputData":{}}',
    })
    expect(write.status).toBe(201)
  })

  it("lets any valid token use an 'any' route, and refuses none", async () => {
    expect((await get('/version', bearer('plain-secret'))).status).toBe(200)
    await expectError(await get('/version'), 401, 'unauthorized', 'missing Authorization header; send Authorization: Bearer <token>')
  })

  it('needs no token on a public route', async () => {
    const response = await get('/public/ping')
    expectStamped(response)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ ok: true })
  })

  it.each([
    ['two valid tokens', ['Bearer admin-secret', 'Bearer reader-secret'], '/api/things/web'],
    ['a valid and an unknown token', ['Bearer reader-secret', 'Bearer nobody-secret'], '/api/things/web'],
    ['the same token twice', ['Bearer reader-secret', 'Bearer reader-secret'], '/api/things/web'],
    ['three headers on a public route', ['Bearer a', 'Bearer b', 'Basic c'], '/public/ping'],
  ])('answers 400 naming the header to %s in separate Authorization headers, rather than using the first', async (_what, values, path) => {
    const answer = await withRawHeaders(server.url, path, values.flatMap((value) => ['Authorization', value]))
    expect(answer.status).toBe(400)
    expect(answer.headers['x-api-version']).toBe('1.0')
    expect(JSON.parse(answer.body)).toEqual({ error: 'bad request', details: `headers.authorization: sent ${values.length} times; send exactly one Authorization header` })
  })

  it('checks the token before reading the body', async () => {
    const response = await fetch(`${server.url}/api/things/web`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{broken' })
    await expectError(response, 401, 'unauthorized', 'missing Authorization header; send Authorization: Bearer <token>')
  })
})

describe('authentication when the token store is down', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer({
      authenticate: async () => {
        const error = new Error('connection refused')
        error.name = 'StoreUnavailableError'
        throw error
      },
    })
  })
  afterAll(() => server.close())

  it('answers 503', async () => {
    const response = await fetch(`${server.url}/api/things/web`, { headers: bearer('reader-secret') })
    await expectError(response, 503, 'service unavailable', 'the store is unavailable; retry later')
  })
})

/** A GET with its header lines exactly as given (fetch and Headers would merge repeated names into one). */
function withRawHeaders(base: string, path: string, rawHeaders: string[]): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, base)
    // With headers as a list, Node adds no Host header of its own.
    const outgoing = request(url, { method: 'GET', headers: ['Host', url.host, ...rawHeaders], agent: false }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }))
    })
    outgoing.on('error', reject)
    outgoing.end()
  })
}
