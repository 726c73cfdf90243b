import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import * as yaml from 'js-yaml'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { importDocuments } from '../../src/import/index.js'
import { fixtures } from '../commands/run-cli.js'
import { testDatabases } from '../support/databases.js'
import { client, errorBody } from './http-client.js'
import { startTestService, type TestService } from './test-service.js'

const START = new Date('2026-06-01T12:00:00.000Z')
const read = (path: string) => readFileSync(join(fixtures, path), 'utf8')
const deltaYaml = read('kyverno-exceptions/delta-exception.yaml')
const annotatedDelta = deltaYaml.replace('  namespace: delta\n', '  namespace: delta\n  annotations:\n    verdict.dev/reason: the tool needs the host IPC namespace\n    verdict.dev/ticket: OPS-9\n')
const resources = yaml.loadAll(read('kyverno-test-exceptions/host-namespaces/.kyverno-test/resources.yaml')) as Array<{ kind: string; metadata: { name: string } }>
const resource = (name: string) => resources.find((entry) => entry.metadata.name === name)

/** The REST API takes a Kyverno PolicyException as the body of POST/PUT /api/exceptions/{name}, translated by the importer. */
describe.each(testDatabases())('Kyverno PolicyExceptions through the REST API on $kind', ({ kind }) => {
  let service: TestService
  let api: ReturnType<typeof client>
  let admin: string

  beforeAll(async () => {
    service = await startTestService(kind, {}, { now: () => START })
    api = client(service.server.apiUrl)
    admin = service.adminToken
    const [imported] = importDocuments(yaml.loadAll(read('kyverno-test-exceptions/host-namespaces/policy.yaml')))
    const { name: rulesetName, ...ruleset } = imported?.rulesets[0] ?? { name: '' }
    const { name: policyName, ...policy } = imported?.policies[0] ?? { name: '' }
    expect((await api('POST', `/api/rulesets/${rulesetName}`, { token: admin, body: ruleset })).status).toBe(201)
    expect((await api('POST', `/api/policies/${policyName}`, { token: admin, body: policy })).status).toBe(201)
  })

  afterAll(async () => {
    await service?.close()
  })

  it('refuses a Kyverno exception without a reason (400 naming the annotation), storing nothing', async () => {
    const refused = await api('POST', '/api/exceptions/delta-exception', { token: admin, raw: deltaYaml, contentType: 'application/x-yaml' })
    expect({ status: refused.status, ...errorBody(refused) }).toEqual({
      status: 400,
      error: 'invalid request',
      details:
        'body.metadata.annotations.verdict.dev/reason: is required: a Verdict exception says why it exists and a Kyverno PolicyException has no field for it; write the reason in this annotation',
    })
    expect((await api('GET', '/api/exceptions/delta-exception', { token: admin })).status).toBe(404)
  })

  it('refuses what it cannot translate and a name that differs from the path, naming the field', async () => {
    const podSecurity = await api('POST', '/api/exceptions/delta-exception', {
      token: admin,
      raw: `${annotatedDelta}  podSecurity:\n  - controlName: Capabilities\n`,
      contentType: 'application/x-yaml',
    })
    expect(podSecurity.status).toBe(400)
    expect(errorBody(podSecurity).details).toMatch(/^body\.spec\.podSecurity\[0\]\.controlName: Capabilities is a container-level control: exclude\.images must be specified/)
    const renamed = await api('POST', '/api/exceptions/other', { token: admin, raw: annotatedDelta, contentType: 'application/x-yaml' })
    expect({ status: renamed.status, ...errorBody(renamed) }).toEqual({ status: 400, error: 'invalid request', details: 'body.metadata.name: "delta-exception" differs from the name in the path, "other"' })
    expect((await api('GET', '/api/exceptions?state=active', { token: admin })).body).toEqual({ exceptions: [] })
  })

  it('stores the translation (201) and applies it as Kyverno would: the Pod and Deployment matched, not the StatefulSet', async () => {
    const created = await api('POST', '/api/exceptions/delta-exception', { token: admin, raw: annotatedDelta, contentType: 'application/x-yaml' })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({
      name: 'delta-exception',
      rules: expect.arrayContaining([{ ruleset: 'disallow-host-namespaces', rule: 'host-namespaces', appliesTo: ['object', 'controllers'] }]),
      match: { any: [{ kinds: ['Pod', 'Deployment'], names: ['important-tool*'], namespaces: ['delta'] }] },
      matchPodTemplates: false,
      reason: 'the tool needs the host IPC namespace',
      ticket: 'OPS-9',
      source: 'api',
      version: 1,
    })
    const judged = async (name: string) => {
      const answer = await api('POST', '/api/eval/policies/disallow-host-namespaces', { token: admin, body: { inputData: resource(name) } })
      expect(answer.status).toBe(200)
      return answer.body as { passed: boolean; results: Array<{ status: string; exception?: string }> }
    }
    for (const name of ['important-tool', 'important-tool-debug']) {
      expect(await judged(name)).toMatchObject({ passed: true, results: [{ status: 'skip', exception: 'delta-exception' }] })
    }
    for (const name of ['important-tool-store', 'important-tool-cleanup', 'bad-deployment']) {
      expect(await judged(name)).toMatchObject({ passed: false, results: [{ status: 'fail' }] })
    }
  })

  it('replaces it with PUT from a policies.kyverno.io exception, its reason and end from Kyverno fields', async () => {
    const cel = read('kyverno-exceptions/check-name.yaml').replace('name: check-name\n', 'name: delta-exception\n')
    const replaced = await api('PUT', '/api/exceptions/delta-exception', { token: admin, raw: cel, contentType: 'application/x-yaml' })
    expect(replaced.status).toBe(200)
    expect(replaced.body).toMatchObject({
      name: 'delta-exception',
      policies: ['check-deployment-name'],
      match: {},
      conditions: [{ name: 'check-name', expression: "object.metadata.name == 'skipped-deployment'" }],
      reason: 'the deployment predates the naming rule',
      ticket: 'OPS-12',
      expiresAt: '2027-01-31T00:00:00.000Z',
      state: 'active',
      version: 2,
    })
    expect(replaced.body).not.toHaveProperty('rules')
  })
})
