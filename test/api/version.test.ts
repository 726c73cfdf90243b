import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bearer, expectError, expectStamped, startServer, type TestServer } from './test-server.js'

describe('GET /version', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer()
  })
  afterAll(() => server.close())

  it('answers the service version, the API version and the commit to any valid token', async () => {
    const response = await fetch(`${server.url}/version`, { headers: bearer('plain-secret') })
    expectStamped(response)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(await response.json()).toEqual({ version: '1.2.3', apiVersion: '1.0', commit: 'abc1234' })
  })

  it('needs a token', async () => {
    await expectError(await fetch(`${server.url}/version`), 401, 'unauthorized', 'missing Authorization header; send Authorization: Bearer <token>')
  })
})
