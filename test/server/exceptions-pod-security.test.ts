import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { client, errorBody } from './http-client.js'
import { startTestService, type TestService } from './test-service.js'

const START = new Date('2026-06-01T12:00:00.000Z')

const ruleset = { rules: [{ name: 'baseline', severity: 'high', match: { kinds: ['Pod'] }, validate: { podSecurity: { level: 'baseline', version: 'latest' } } }] }
const policy = { rulesets: ['psa'], action: 'Deny' }

const logsException = {
  rules: [{ ruleset: 'psa', rule: 'baseline' }],
  match: { kinds: ['Pod'], namespaces: ['logging'] },
  podSecurity: [{ controlName: 'HostPath Volumes', restrictedField: 'spec.volumes[*].hostPath', values: ['/var/log'] }],
  reason: 'the shipper reads the node logs',
}

function pod(path: string): unknown {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'log-shipper', namespace: 'logging' },
    spec: { volumes: [{ name: 'logs', hostPath: { path } }], containers: [{ name: 'shipper', image: 'registry.example.com/shipper:1.0' }] },
  }
}

describe('exceptions with podSecurity over HTTP (pglite)', () => {
  let service: TestService
  let api: ReturnType<typeof client>
  let admin: string

  beforeAll(async () => {
    service = await startTestService('pglite', {}, { now: () => START })
    api = client(service.server.apiUrl)
    admin = service.adminToken
    expect((await api('POST', '/api/rulesets/psa', { token: admin, body: ruleset })).status).toBe(201)
    expect((await api('POST', '/api/policies/psa', { token: admin, body: policy })).status).toBe(201)
  })

  afterAll(async () => {
    await service?.close()
  })

  it.each([
    [[{ controlName: 'Host Path' }], 'body.podSecurity[0].controlName'],
    [[{ controlName: 'Capabilities' }], 'body.podSecurity[0].controlName: Capabilities is a container-level control: exclude.images must be specified'],
    [[{ controlName: 'HostPath Volumes', images: ['nginx*'] }], 'body.podSecurity[0].controlName: HostPath Volumes is a pod-level control: exclude.images must not be specified'],
    [[{ controlName: 'HostPath Volumes', restrictedField: 'spec.volumes[*].hostPath' }], 'body.podSecurity[0].values: values is required with restrictedField'],
    [[], 'body.podSecurity'],
  ])('refuses podSecurity %j with 400 naming the field, storing nothing', async (podSecurity, field) => {
    const response = await api('POST', '/api/exceptions/bad-controls', { token: admin, body: { ...logsException, podSecurity } })
    expect(response.status).toBe(400)
    expect(errorBody(response).details).toContain(field)
    expect((await api('GET', '/api/exceptions/bad-controls', { token: admin })).status).toBe(404)
  })

  it('names the known controls when the control name is unknown', async () => {
    const response = await api('POST', '/api/exceptions/bad-controls', { token: admin, body: { ...logsException, podSecurity: [{ controlName: 'Host Path' }] } })
    expect(errorBody(response).details).toMatch(/^body\.podSecurity\[0\]\.controlName: must be one of "HostProcess", "Host Namespaces", .*"HostPath Volumes"/)
  })

  it('stores podSecurity as written and judges the pod with the control excluded for the listed value only', async () => {
    const created = await api('POST', '/api/exceptions/node-logs', { token: admin, body: logsException })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ name: 'node-logs', podSecurity: logsException.podSecurity })
    const exempted = await api('POST', '/api/eval/policies/psa', { token: admin, body: { inputData: pod('/var/log') } })
    expect(exempted.body).toEqual({
      requestId: expect.any(String),
      policy: 'psa',
      passed: true,
      results: [{ ruleset: 'psa', rule: 'baseline', status: 'skip', severity: 'high', message: 'Pod Security controls exempted by exception "node-logs"', exception: 'node-logs' }],
    })
    const failed = await api('POST', '/api/eval/policies/psa', { token: admin, body: { inputData: pod('/etc') } })
    expect(failed.body).toMatchObject({ policy: 'psa', passed: false, results: [{ rule: 'baseline', status: 'fail' }] })
    expect((failed.body as { results: { exception?: string }[] }).results[0]?.exception).toBeUndefined()
  })
})
