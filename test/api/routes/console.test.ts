import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CONSOLE_CSP } from '../../../src/api/routes/console.js'
import { startTestService, type TestService } from '../../server/test-service.js'

const ROOT = join(import.meta.dirname, '..', '..', '..')

describe('the console at /ui/', () => {
  let service: TestService
  beforeAll(async () => {
    service = await startTestService('pglite')
  })
  afterAll(async () => {
    await service.close()
  })
  const get = (path: string) => fetch(`${service.server.apiUrl}${path}`, { redirect: 'manual' })

  it('redirects / to /ui/ and serves the page with a strict CSP and no token', async () => {
    const root = await get('/')
    expect([root.status, root.headers.get('location')]).toEqual([302, '/ui/'])
    const page = await get('/ui/')
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(page.headers.get('content-security-policy')).toBe(CONSOLE_CSP)
    expect(CONSOLE_CSP).toContain("script-src 'self'")
    expect(CONSOLE_CSP).not.toContain('unsafe-inline')
    expect(page.headers.get('x-frame-options')).toBe('DENY')
    const html = await page.text()
    // No inline script: every script names its source on this origin.
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)]
    expect(scripts.map((match) => [match[1], match[2]])).toEqual([[expect.stringMatching(/^ type="module" src="\/ui\/assets\/app-[A-Z0-9]{8}\.js"$/), '']])
  })

  it('serves the hashed assets for good, the page for any other path below /ui/, and 404 for an unknown asset', async () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'dist', 'console', 'build-manifest.json'), 'utf8')) as Record<string, { file: string }>
    const script = await get(`/ui/${manifest.entry?.file}`)
    expect([script.status, script.headers.get('content-type'), script.headers.get('cache-control')]).toEqual([200, 'text/javascript; charset=utf-8', 'public, max-age=31536000, immutable'])
    const style = await get(`/ui/${manifest.style?.file}`)
    expect([style.status, style.headers.get('content-type')]).toEqual([200, 'text/css; charset=utf-8'])
    const deep = await get('/ui/audits/some-request')
    expect([deep.status, deep.headers.get('cache-control')]).toEqual([200, 'no-cache'])
    const missing = await get('/ui/assets/app-000000000000.js')
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({ error: 'not found', details: 'no console asset assets/app-000000000000.js' })
  })

  it('keeps the console out of the OpenAPI document', async () => {
    const document = (await (await fetch(`${service.server.apiUrl}/api/openapi.json`, { headers: { authorization: `Bearer ${service.adminToken}` } })).json()) as { paths: Record<string, unknown> }
    expect(Object.keys(document.paths).filter((path) => path === '/' || path.startsWith('/ui'))).toEqual([])
  })
})
