import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bearer, startServer, type TestServer } from './test-server.js'

/** A version 7 UUID: time-ordered, so audit indexes grow at their right edge. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe('request ids', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer()
  })
  afterAll(() => server.close())

  const get = (path: string, headers: Record<string, string>): Promise<Response> => fetch(`${server.url}${path}`, { headers })

  it('generates a UUID when the caller sends none, a new one per request', async () => {
    const first = (await get('/version', bearer('reader-secret'))).headers.get('x-request-id')
    const second = (await get('/version', bearer('reader-secret'))).headers.get('x-request-id')
    expect(first).toMatch(UUID)
    expect(second).toMatch(UUID)
    expect(first).not.toBe(second)
  })

  it('generates ids that begin with the millisecond they were made in', async () => {
    const before = Date.now()
    const id = (await get('/version', bearer('reader-secret'))).headers.get('x-request-id') ?? ''
    const after = Date.now()
    const millisecond = Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16)
    expect([millisecond >= before, millisecond <= after]).toEqual([true, true])
  })

  it('keeps a sane incoming X-Request-Id, on success and on errors alike', async () => {
    for (const [path, headers] of [
      ['/version', bearer('reader-secret')],
      ['/version', {}],
      ['/no/such/route', {}],
    ] as const) {
      const response = await get(path, { ...headers, 'x-request-id': 'trace-42.abc:DEF' })
      expect(response.headers.get('x-request-id')).toBe('trace-42.abc:DEF')
    }
  })

  it.each([
    ['spaces', 'two words'],
    ['quotes', '"quoted"'],
    ['too long', 'x'.repeat(129)],
  ])('replaces an incoming id with %s by a UUID', async (_what, incoming) => {
    const response = await get('/version', { ...bearer('reader-secret'), 'x-request-id': incoming })
    expect(response.headers.get('x-request-id')).toMatch(UUID)
  })

  it('logs under the request id', async () => {
    await get('/version', { ...bearer('reader-secret'), 'x-request-id': 'logged-id-1' })
    const line = await server.waitForLog((entry) => entry.requestId === 'logged-id-1' && entry.msg === 'request completed')
    expect((line.res as { statusCode: number }).statusCode).toBe(200)
  })
})
