import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readDefinitionFiles } from '../../src/commands/read-definitions.js'
import { LocalJudge } from '../../src/scan/judge/local-judge.js'
import { ServerJudge } from '../../src/scan/judge/server-judge.js'
import { VerdictApiClient } from '../../src/scan/judge/verdict-api-client.js'
import type { ManifestObject } from '../../src/scan/manifests/manifest-object.js'
import { client } from '../server/http-client.js'
import { startTestService, type TestService } from '../server/test-service.js'
import { scanFixture } from './scan-fixtures.js'

/**
 * `verdict scan`'s two judges with the same exception (test/fixtures/scan/exceptions): the
 * local one on definition files, the server one through a running Verdict, each exempting the
 * Pod before expiresAt and judging it from that instant on, with the clock moved by the test.
 */
const EXPIRES = new Date('2099-01-01T00:00:00.000Z')
const BEFORE = new Date(EXPIRES.getTime() - 1)

const api2: ManifestObject = {
  file: 'pods.yaml',
  line: 1,
  apiVersion: 'v1',
  kind: 'Pod',
  namespace: 'prod',
  name: 'api-2',
  value: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'api-2', namespace: 'prod' }, spec: { containers: [{ name: 'api', image: 'registry.example.com/api:latest' }] } },
}

const exempted = { ruleset: 'hygiene', rule: 'no-latest', status: 'skip', severity: 'high', message: 'exempted by exception "api-2-latest"', exception: 'api-2-latest' }
const failed = { ruleset: 'hygiene', rule: 'no-latest', status: 'fail', severity: 'high', message: 'images must be pinned', remediation: 'Pin every image to a version or digest.' }

describe('LocalJudge with a PolicyException', () => {
  const clock = { now: BEFORE }
  const definitions = readDefinitionFiles([scanFixture('policies/verdict-deny.yaml'), scanFixture('exceptions/api-2-latest.yaml')])
  const judge = new LocalJudge(definitions, { exceptions: definitions.exceptions, now: () => clock.now })

  it('exempts the Pod before expiresAt and judges it from that instant on', () => {
    clock.now = BEFORE
    expect(judge.judge(api2)).toEqual([{ policy: 'production', action: 'Deny', passed: true, results: [exempted] }])
    clock.now = EXPIRES
    expect(judge.judge(api2)).toEqual([{ policy: 'production', action: 'Deny', passed: false, results: [failed] }])
  })
})

describe('ServerJudge with a PolicyException stored in the service', () => {
  let service: TestService
  const clock = { now: BEFORE }

  beforeAll(async () => {
    service = await startTestService('pglite', {}, { now: () => clock.now })
    const api = client(service.server.apiUrl)
    const token = service.adminToken
    const [ruleset, policy] = readFileSync(scanFixture('policies/verdict-deny.yaml'), 'utf8').split(/^---$/m)
    expect((await api('POST', '/api/rulesets/hygiene', { token, raw: ruleset as string, contentType: 'application/x-yaml' })).status).toBe(201)
    expect((await api('POST', '/api/policies/production', { token, raw: policy as string, contentType: 'application/x-yaml' })).status).toBe(201)
    const exception = readFileSync(scanFixture('exceptions/api-2-latest.yaml'), 'utf8')
    expect((await api('POST', '/api/exceptions/api-2-latest', { token, raw: exception, contentType: 'application/x-yaml' })).status).toBe(201)
  })

  afterAll(async () => {
    await service?.close()
  })

  it('reports what the server answers: the skip naming the exception before expiresAt, the failure after', async () => {
    const judge = await ServerJudge.connect(new VerdictApiClient(service.server.apiUrl, service.adminToken))
    clock.now = BEFORE
    expect(await judge.judge(api2)).toEqual([{ policy: 'production', action: 'Deny', passed: true, results: [exempted] }])
    clock.now = EXPIRES
    expect(await judge.judge(api2)).toEqual([{ policy: 'production', action: 'Deny', passed: false, results: [failed] }])
  })
})
