import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { request } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type TestServer } from './test-server.js'

function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

describe.runIf(hasOpenssl())('the API over TLS', () => {
  let directory: string
  let server: TestServer
  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'verdict-tls-'))
    const cert = join(directory, 'tls.crt')
    const key = join(directory, 'tls.key')
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-keyout', key, '-out', cert], {
      stdio: 'ignore',
    })
    server = await startServer({ config: { apiTlsCertFile: cert, apiTlsKeyFile: key } })
  })
  afterAll(async () => {
    await server.close()
    rmSync(directory, { recursive: true, force: true })
  })

  it('serves HTTPS when a certificate is configured', async () => {
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/)
    const { status, headers, body } = await new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
      const outgoing = request(`${server.url}/version`, { rejectUnauthorized: false, headers: { authorization: 'Bearer reader-secret' } }, (response) => {
        let text = ''
        response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }))
      })
      outgoing.on('error', reject)
      outgoing.end()
    })
    expect(status).toBe(200)
    expect(headers['x-api-version']).toBe('1.0')
    expect(JSON.parse(body)).toEqual({ version: '1.2.3', apiVersion: '1.0', commit: 'abc1234' })
  })
})
