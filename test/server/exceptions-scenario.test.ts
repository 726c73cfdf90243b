import { readFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { postReview, type HttpsTarget } from '../admission/https-client.js'
import { waitFor } from '../k8s/wait-for.js'
import { testDatabases } from '../support/databases.js'
import { client } from './http-client.js'
import type { RunningServer } from '../../src/server/start-server.js'
import { startReplica, startTestService, type TestService } from './test-service.js'

/**
 * One exception, two paths: a privileged log shipper is let through a Deny policy by REST
 * evaluation and by the admission webhook until the exception's expiresAt, and judged from that
 * instant on. The clock is the service's, moved by the test; audits name the exception.
 */
const START = new Date('2026-06-01T12:00:00.000Z')
const EXPIRES = new Date('2026-06-01T13:00:00.000Z')

const ruleset = {
  rules: [
    {
      name: 'no-privileged',
      severity: 'high',
      match: { kinds: ['Pod'] },
      validate: { cel: [{ expression: 'object.spec.containers.all(c, !(c.?securityContext.?privileged.orValue(false)))', message: 'privileged containers are not allowed' }] },
    },
  ],
}
const policy = { rulesets: ['pod-hardening'], action: 'Deny' }
const exception = {
  policies: ['baseline-*'],
  rules: [{ ruleset: 'pod-hardening', rule: 'no-privileged' }],
  match: { kinds: ['Pod'], namespaces: ['logging'], names: ['log-shipper*'] },
  conditions: [{ name: 'own-registry', expression: "object.spec.containers.all(c, c.image.startsWith('registry.example.com/'))" }],
  reason: 'the log shipper reads host logs',
  ticket: 'OPS-42',
  expiresAt: EXPIRES.toISOString(),
}

const podSpec = { containers: [{ name: 'shipper', image: 'registry.example.com/shipper:1.2', securityContext: { privileged: true } }] }
const shipperPod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'log-shipper-x1', namespace: 'logging' }, spec: podSpec }
const shipperDaemonSet = {
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name: 'log-shipper', namespace: 'logging' },
  spec: { selector: { matchLabels: { app: 'log-shipper' } }, template: { metadata: { labels: { app: 'log-shipper' } }, spec: podSpec } },
}

function review(uid: string, object: typeof shipperDaemonSet): unknown {
  return {
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid,
      kind: { group: 'apps', version: 'v1', kind: 'DaemonSet' },
      resource: { group: 'apps', version: 'v1', resource: 'daemonsets' },
      requestKind: { group: 'apps', version: 'v1', kind: 'DaemonSet' },
      requestResource: { group: 'apps', version: 'v1', resource: 'daemonsets' },
      name: object.metadata.name,
      namespace: object.metadata.namespace,
      operation: 'CREATE',
      userInfo: { username: 'fluent-operator', groups: ['system:authenticated'] },
      object,
      oldObject: null,
      dryRun: false,
      options: { apiVersion: 'meta.k8s.io/v1', kind: 'CreateOptions' },
    },
  }
}

const exempted = {
  ruleset: 'pod-hardening',
  rule: 'no-privileged',
  status: 'skip',
  severity: 'high',
  message: 'exempted by exception "log-shipper"',
  exception: 'log-shipper',
}

describe.each(testDatabases())('a PolicyException applied alike by REST and the webhook on $kind', ({ kind }) => {
  let service: TestService
  let api: ReturnType<typeof client>
  let admin: string
  let webhook: HttpsTarget
  const clock = { now: START }

  beforeAll(async () => {
    service = await startTestService(kind, {}, { now: () => clock.now })
    api = client(service.server.apiUrl)
    admin = service.adminToken
    webhook = { port: service.server.webhook.port, ca: await readFile(service.server.webhook.certFile) }
    for (const [path, body] of [
      ['/api/rulesets/pod-hardening', ruleset],
      ['/api/policies/baseline-pods', policy],
      ['/api/exceptions/log-shipper', exception],
    ] as const) {
      expect((await api('POST', path, { token: admin, body })).status).toBe(201)
    }
  })

  afterAll(async () => {
    await service?.close()
  })

  async function policyAudit(requestId: string): Promise<{ output: unknown }> {
    const response = await waitFor(`the policy audit of ${requestId}`, async () => {
      const answer = await api('GET', `/api/audits/policies/uuid/${requestId}`, { token: admin })
      return answer.status === 200 ? answer : undefined
    })
    return (response.body as { policyAudit: { output: unknown } }).policyAudit
  }

  it('REST: exempts the pod and the DaemonSet template before expiresAt, names the exception in the answer and the audit', async () => {
    clock.now = new Date(EXPIRES.getTime() - 1)
    const pod = await api('POST', '/api/eval/policies/baseline-pods', { token: admin, body: { inputData: shipperPod } })
    expect(pod.status).toBe(200)
    expect(pod.body).toEqual({ requestId: expect.any(String), policy: 'baseline-pods', passed: true, results: [exempted] })
    const daemonSet = await api('POST', '/api/eval/policies/baseline-pods?verbose=true', { token: admin, body: { inputData: shipperDaemonSet } })
    expect(daemonSet.body).toEqual({ requestId: expect.any(String), policy: 'baseline-pods', passed: true, results: [{ ...exempted, autogen: 'DaemonSet' }] })
    const { requestId } = pod.body as { requestId: string }
    expect((await policyAudit(requestId)).output).toEqual({ policy: 'baseline-pods', passed: true, results: [exempted] })
    const rulesetAudits = await api('GET', `/api/audits/rulesets/uuid/${requestId}`, { token: admin })
    expect((rulesetAudits.body as { rulesetAudits: Array<{ output: unknown }> }).rulesetAudits.map((audit) => audit.output)).toEqual([
      { ruleset: 'pod-hardening', passed: true, results: [exempted] },
    ])
  })

  it('REST: judges the pod again from expiresAt on, with no resync', async () => {
    clock.now = EXPIRES
    const pod = await api('POST', '/api/eval/policies/baseline-pods', { token: admin, body: { inputData: shipperPod } })
    expect(pod.body).toEqual({
      requestId: expect.any(String),
      policy: 'baseline-pods',
      passed: false,
      results: [{ ruleset: 'pod-hardening', rule: 'no-privileged', status: 'fail', severity: 'high', message: 'privileged containers are not allowed' }],
    })
  })

  it('webhook: admits the DaemonSet before expiresAt, its audit naming the exception; denies it from expiresAt on', async () => {
    clock.now = new Date(EXPIRES.getTime() - 1)
    const before = await postReview(webhook, review('0b7c2f4e-1111-4e3a-8d2b-1a0c9b8a7f66', shipperDaemonSet))
    expect(before.status).toBe(200)
    expect(before.json).toEqual({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: { uid: '0b7c2f4e-1111-4e3a-8d2b-1a0c9b8a7f66', allowed: true, auditAnnotations: { policies: 'baseline-pods', exceptions: 'log-shipper' } },
    })
    expect((await policyAudit('0b7c2f4e-1111-4e3a-8d2b-1a0c9b8a7f66')).output).toEqual({
      policy: 'baseline-pods',
      passed: true,
      results: [{ ...exempted, autogen: 'DaemonSet' }],
    })

    clock.now = EXPIRES
    const after = await postReview(webhook, review('0b7c2f4e-2222-4e3a-8d2b-1a0c9b8a7f66', shipperDaemonSet))
    expect(after.json).toMatchObject({
      response: {
        uid: '0b7c2f4e-2222-4e3a-8d2b-1a0c9b8a7f66',
        allowed: false,
        status: { code: 403, message: expect.stringContaining('baseline-pods/pod-hardening/no-privileged: privileged containers are not allowed') },
      },
    })
    expect((await policyAudit('0b7c2f4e-2222-4e3a-8d2b-1a0c9b8a7f66')).output).toMatchObject({ passed: false, results: [{ rule: 'no-privileged', status: 'fail', autogen: 'DaemonSet' }] })
  })

  it('webhook: an image from elsewhere fails the CEL condition, so the exception does not apply', async () => {
    clock.now = START
    const elsewhere = { ...shipperDaemonSet, spec: { ...shipperDaemonSet.spec, template: { ...shipperDaemonSet.spec.template, spec: { containers: [{ ...podSpec.containers[0], image: 'docker.io/shipper:1.2' }] } } } }
    const answer = await postReview(webhook, review('0b7c2f4e-3333-4e3a-8d2b-1a0c9b8a7f66', elsewhere as typeof shipperDaemonSet))
    expect(answer.json).toMatchObject({ response: { allowed: false } })
  })

  it('counts applications per exception and path', async () => {
    const metrics = await (await fetch(`${service.server.opsUrl}/metrics`)).text()
    expect(metrics).toContain('verdict_exception_applications_total{exception="log-shipper",path="api"} 2')
    expect(metrics).toContain('verdict_exception_applications_total{exception="log-shipper",path="admission"} 1')
  })
})

describe('a PolicyException created through one replica', () => {
  let first: TestService
  let second: RunningServer

  beforeAll(async () => {
    first = await startTestService('postgres')
    second = await startReplica(first.databaseUrl as string)
  })

  afterAll(async () => {
    await second?.close()
    await first?.close()
  })

  it('is applied, and its deletion followed, by the other replica once the notification arrives', async () => {
    const viaFirst = client(first.server.apiUrl)
    const viaSecond = client(second.apiUrl)
    const token = first.adminToken
    for (const [path, body] of [
      ['/api/rulesets/pod-hardening', ruleset],
      ['/api/policies/baseline-pods', policy],
    ] as const) {
      expect((await viaFirst('POST', path, { token, body })).status).toBe(201)
    }
    const passedOnSecond = async (): Promise<boolean> =>
      ((await viaSecond('POST', '/api/eval/policies/baseline-pods', { token, body: { inputData: shipperPod } })).body as { passed: boolean }).passed
    // GET reads the store, evaluations the replica's catalog, which learns of the policy from a notification.
    await waitFor('the second replica to know the policy', async () =>
      (await viaSecond('POST', '/api/eval/policies/baseline-pods', { token, body: { inputData: shipperPod } })).status === 200,
    )
    expect(await passedOnSecond()).toBe(false)
    // No expiry here: the replicas judge by the real clock.
    const { expiresAt: _expiresAt, ...forever } = exception
    expect((await viaFirst('POST', '/api/exceptions/log-shipper', { token, body: forever })).status).toBe(201)
    await waitFor('the second replica to apply the exception', passedOnSecond)
    expect((await viaFirst('DELETE', '/api/exceptions/log-shipper', { token })).status).toBe(204)
    await waitFor('the second replica to drop the exception', async () => !(await passedOnSecond()))
  })
})
