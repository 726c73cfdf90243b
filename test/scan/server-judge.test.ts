import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readDefinitionFiles } from '../../src/commands/read-definitions.js'
import { LocalJudge } from '../../src/scan/judge/local-judge.js'
import { ServerJudge } from '../../src/scan/judge/server-judge.js'
import { VerdictApiClient } from '../../src/scan/judge/verdict-api-client.js'
import { readManifests } from '../../src/scan/manifests/read-manifests.js'
import { toJsonScan } from '../../src/scan/output/json-output.js'
import { runScan } from '../../src/scan/run-scan.js'
import { ScanInputError } from '../../src/scan/scan-error.js'
import { client } from '../server/http-client.js'
import { startTestService, type TestService } from '../server/test-service.js'
import { scanFixture } from './scan-fixtures.js'

const VERDICT_DEFINITIONS = [scanFixture('policies/verdict-deny.yaml'), scanFixture('policies/verdict-warn.yaml')]

/** Stores the fixture's Verdict rulesets, then its policies, through the REST API as their YAML manifests. */
async function storeDefinitions(api: ReturnType<typeof client>, token: string): Promise<void> {
  const documents = VERDICT_DEFINITIONS.flatMap((file) => readFileSync(file, 'utf8').split(/^---$/m))
  for (const kind of ['Ruleset', 'Policy']) {
    for (const document of documents.filter((text) => text.includes(`kind: ${kind}`))) {
      const name = /^ {2}name: (\S+)$/m.exec(document)?.[1] as string
      const created = await api('POST', `/api/${kind === 'Ruleset' ? 'rulesets' : 'policies'}/${name}`, { token, raw: document, contentType: 'application/x-yaml' })
      expect(created.status, JSON.stringify(created.body)).toBe(201)
    }
  }
}

describe('ServerJudge against a running Verdict', () => {
  let service: TestService
  let api: ReturnType<typeof client>

  beforeAll(async () => {
    service = await startTestService('pglite')
    api = client(service.server.apiUrl)
    await storeDefinitions(api, service.adminToken)
  })

  afterAll(async () => {
    await service?.close()
  })

  it('lists the stored policies with their actions', async () => {
    const judge = await ServerJudge.connect(new VerdictApiClient(service.server.apiUrl, service.adminToken))
    expect(judge.policies.map((policy) => [policy.name, policy.action]).sort()).toEqual([
      ['availability', 'Warn'],
      ['production', 'Deny'],
    ])
  })

  it('finds what the engine finds on the same definitions, and the server audits every evaluation', async () => {
    const objects = readManifests([scanFixture('manifests')], { readStdin: () => '', warn: () => {} })
    const judge = await ServerJudge.connect(new VerdictApiClient(service.server.apiUrl, service.adminToken))
    const remote = await runScan(objects, judge, { concurrency: 8 })
    const local = await runScan(objects, new LocalJudge(readDefinitionFiles(VERDICT_DEFINITIONS)))
    const byKey = (results: ReturnType<typeof toJsonScan>['results']) => [...results].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))
    expect(byKey(toJsonScan(remote).results)).toEqual(byKey(toJsonScan(local).results))
    expect(toJsonScan(remote).results.map((result) => `${result.kind} ${result.name} ${result.policy} ${result.action} ${result.rule}`).sort()).toEqual([
      'Deployment shop-web availability Warn two-or-more',
      'Deployment shop-web production Deny no-latest',
      'Pod api-2 production Deny no-latest',
      'Pod bad production Deny no-latest',
    ])
    expect(remote.summary).toEqual(local.summary)
    expect(remote.summary.denied).toBe(true)
    const audits = await api('GET', '/api/audits/count/policies/production', { token: service.adminToken })
    expect((audits.body as { policyAuditsCount: number }).policyAuditsCount).toBe(objects.length)
  })

  it('stops on a token the server refuses, with the server\'s reason', async () => {
    const judge = ServerJudge.connect(new VerdictApiClient(service.server.apiUrl, `vdt_${'x'.repeat(43)}`))
    await expect(judge).rejects.toThrow(ScanInputError)
    await expect(judge).rejects.toThrow(/^GET \/api\/policies answered 401: unauthorized: /)
    const evalOnly = await api('POST', '/api/tokens', { token: service.adminToken, body: { name: 'ci', owner: 'ci@example.com', scopes: ['eval'] } })
    const secret = (evalOnly.body as { secret: string }).secret
    await expect(ServerJudge.connect(new VerdictApiClient(service.server.apiUrl, secret))).rejects.toThrow(/^GET \/api\/policies answered 403: forbidden: .*policies:read/)
  })
})

describe('VerdictApiClient', () => {
  let server: Server
  let url: string
  const seen: string[] = []
  let refusals = 2

  beforeAll(async () => {
    server = createServer((request, response) => {
      seen.push(`${request.method} ${request.url} ${request.headers.authorization}`)
      if (refusals > 0) {
        refusals -= 1
        response.writeHead(429, { 'retry-after': '7', 'content-type': 'application/json' }).end('{"error":"too many requests","details":"slow down"}')
        return
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"policies":[]}')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
  })

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve))
  })

  it('waits out a 429 as long as Retry-After says, then goes on', async () => {
    const waits: number[] = []
    const api = new VerdictApiClient(url, 'secret', { sleep: async (milliseconds) => void waits.push(milliseconds) })
    expect(await api.get('/api/policies')).toEqual({ policies: [] })
    expect(waits).toEqual([7000, 7000])
    expect(seen).toEqual(Array(3).fill('GET /api/policies Bearer secret'))
  })

  it('gives up after its retries with the server\'s answer', async () => {
    refusals = 10
    const api = new VerdictApiClient(url, 'secret', { sleep: async () => {}, maxRetries: 1 })
    await expect(api.get('/api/policies')).rejects.toThrow(new ScanInputError('GET /api/policies answered 429: too many requests: slow down'))
  })

  it('names a server it cannot reach and a URL it cannot use', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    await expect(new VerdictApiClient(`http://127.0.0.1:${port}`, 't').get('/api/policies')).rejects.toThrow(new ScanInputError(`cannot reach http://127.0.0.1:${port}: ECONNREFUSED`))
    expect(() => new VerdictApiClient('ftp://example.com', 't')).toThrow(new ScanInputError('--server must be an http(s) URL, not "ftp://example.com"'))
    expect(() => new VerdictApiClient('verdict:8080', 't')).toThrow(ScanInputError)
  })
})
