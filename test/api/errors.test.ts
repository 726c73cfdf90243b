import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bearer, expectError, expectStamped, startServer, type TestServer } from './test-server.js'

describe('the error handler', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer()
  })
  afterAll(() => server.close())

  const get = (path: string, token = 'writer-secret'): Promise<Response> => fetch(`${server.url}${path}`, { headers: bearer(token) })
  const post = (path: string, body: string, contentType = 'application/json'): Promise<Response> =>
    fetch(`${server.url}${path}`, { method: 'POST', headers: { ...bearer('writer-secret'), 'content-type': contentType }, body })

  describe('validation errors name the field as a path', () => {
    it.each([
      ['a missing body field', () => post('/api/things/web', '{}'), 'body.inputData is required'],
      ['a body field of the wrong type', () => post('/api/things/web', '{"inputData": "pod"}'), 'body.inputData must be an object'],
      ['a nested field', () => post('/api/things/web', '{"inputData": {}, "labels": {"team": {"name": "a"}}}'), 'body.labels.team must be a string'],
      ['a missing body', () => post('/api/things/web', ''), 'body is required'],
      ['a body that is not an object', () => post('/api/things/web', '[1, 2]'), 'body must be an object'],
      ['a query parameter over its maximum', () => get('/api/things/web?pageSize=100000'), 'query.pageSize must be <= 1000'],
      ['a query parameter under its minimum', () => get('/api/things/web?page=0'), 'query.page must be >= 1'],
      ['a query parameter of the wrong type', () => get('/api/things/web?pageSize=ten'), 'query.pageSize must be an integer'],
      ['a path parameter', () => get('/api/things/Web_Site'), 'params.name must match pattern "^[a-z0-9-]+$"'],
    ])('%s', async (_what, send, details) => {
      await expectError(await send(), 400, 'bad request', details)
    })
  })

  it('names the problem in malformed JSON', async () => {
    await expectError(await post('/api/things/web', '{"inputData": }'), 400, 'bad request', /^body is not valid JSON: Unexpected token '}'/)
  })

  it('refuses prototype poisoning in JSON', async () => {
    const response = await post('/api/things/web', '{"inputData": {}, "__proto__": {"admin": true}}')
    await expectError(response, 400, 'bad request', 'body must not contain "__proto__" or "constructor.prototype" keys')
  })

  it('passes an ApiError through with its status', async () => {
    await expectError(await get('/api/conflict'), 409, 'conflict', 'thing "web" already exists')
  })

  it('maps the errors of services and store by name', async () => {
    await expectError(await get('/api/service-invalid'), 400, 'invalid request', 'body.spec.rules[0].name is required')
    await expectError(await get('/api/store-missing'), 404, 'not found', 'ruleset "web" not found')
  })

  it('answers 503 to a StoreUnavailableError', async () => {
    await expectError(await get('/api/store-down'), 503, 'service unavailable', 'the store is unavailable; retry later')
  })

  it('answers 500 with the request id only, and logs the stack with the request id', async () => {
    const response = await get('/api/boom')
    const requestId = response.headers.get('x-request-id')
    await expectError(response, 500, 'internal error', `request id ${requestId}`)
    const logged = server.logs.find((line) => line.msg === 'unhandled error' && line.requestId === requestId)
    expect((logged?.err as { stack?: string } | undefined)?.stack).toMatch(/database password is hunter2\n\s+at /)
  })

  it('answers 404 naming method and path, without asking for a token', async () => {
    const response = await fetch(`${server.url}/api/nothing/here?x=1`)
    await expectError(response, 404, 'not found', 'no route GET /api/nothing/here')
    const wrongMethod = await fetch(`${server.url}/version`, { method: 'DELETE' })
    await expectError(wrongMethod, 404, 'not found', 'no route DELETE /version')
  })

  it('answers 404 and not 415 to an unknown route with a YAML body', async () => {
    const response = await fetch(`${server.url}/api/nothing`, { method: 'POST', headers: { 'content-type': 'text/yaml' }, body: 'a: 1' })
    await expectError(response, 404, 'not found', 'no route POST /api/nothing')
  })

  it('answers 400 in the same shape to a URL that cannot be decoded', async () => {
    const response = await get('/api/things/%E0%A4%A')
    await expectError(response, 400, 'bad request', /not a valid url component/)
  })

  it('answers malformed HTTP with the error shape and the version header', async () => {
    const raw = await new Promise<string>((resolve, reject) => {
      const url = new URL(server.url)
      const socket = connect(Number(url.port), url.hostname, () => socket.write('GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'))
      let received = ''
      socket.on('data', (chunk) => (received += chunk.toString('utf8')))
      socket.on('close', () => resolve(received))
      socket.on('error', reject)
    })
    const [head = '', body] = raw.split('\r\n\r\n')
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request')
    expect(head).toContain('x-api-version: 1.0')
    expect(JSON.parse(body ?? '')).toEqual({ error: 'bad request', details: 'malformed HTTP request' })
  })

  it('stamps successful responses too', async () => {
    const response = await get('/api/things/web')
    expectStamped(response)
    expect(response.status).toBe(200)
  })
})

describe('shutting down', () => {
  it('answers requests that arrive while closing with 503 in the error shape', async () => {
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    let closing!: () => void
    const closeBegun = new Promise<void>((resolve) => (closing = resolve))
    const server = await startServer({
      routes: [
        async (app) => {
          app.addHook('preClose', async () => closing())
          app.get('/api/slow', { config: { scope: 'public' } }, async () => {
            await released
            return { slow: true }
          })
        },
      ],
    })
    const url = new URL(server.url)
    // A second request on a connection kept busy by the first, sent once close() has begun.
    const socket = connect(Number(url.port), url.hostname)
    const raw = new Promise<string>((resolve, reject) => {
      let received = ''
      socket.on('data', (chunk) => (received += chunk.toString('utf8')))
      socket.on('close', () => resolve(received))
      socket.on('error', reject)
    })
    socket.write('GET /api/slow HTTP/1.1\r\nHost: x\r\n\r\n')
    await server.waitForLog((line) => (line.req as { url?: string } | undefined)?.url === '/api/slow')
    const closed = server.close()
    await closeBegun
    socket.write('GET /version HTTP/1.1\r\nHost: x\r\n\r\n')
    await server.waitForLog((line) => (line.req as { url?: string } | undefined)?.url === '/version')
    release()
    const text = await raw
    await closed
    const second = text.slice(text.indexOf('HTTP/1.1', 10))
    expect(second.split('\r\n')[0]).toBe('HTTP/1.1 503 Service Unavailable')
    expect(second).toContain('x-api-version: 1.0')
    expect(second).toContain('x-request-id: ')
    const body: unknown = JSON.parse(second.slice(second.indexOf('\r\n\r\n') + 4))
    expect(body).toEqual({ error: 'service unavailable', details: 'the server is shutting down; retry' })
  })
})
