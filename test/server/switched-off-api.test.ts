import { readFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { variant, type ReviewFixture } from '../admission/fixtures.js'
import { postReview, type HttpsTarget } from '../admission/https-client.js'
import { waitFor } from '../k8s/wait-for.js'
import { testDatabases } from '../support/databases.js'
import { client, errorBody } from './http-client.js'
import { startTestService, type TestService } from './test-service.js'

/**
 * A policy, and one rule of a ruleset, switched off with `enabled: false` and a reason: through
 * REST (the shapes, the refusals) and the admission webhook (AdmissionReview JSON). A switched-off
 * rule is a skip saying so wherever it would have judged; a switched-off policy judges nothing and
 * the answer says it is disabled.
 */
const noPrivileged = {
  name: 'no-privileged',
  severity: 'high',
  match: { kinds: ['Pod'] },
  validate: { cel: [{ expression: 'object.spec.containers.all(c, !(c.?securityContext.?privileged.orValue(false)))', message: 'privileged containers are not allowed' }] },
}
const noLatest = {
  name: 'no-latest',
  severity: 'medium',
  match: { kinds: ['Pod'] },
  validate: { cel: [{ expression: "object.spec.containers.all(c, !c.image.endsWith(':latest'))", message: 'images must be pinned' }] },
}
const latestOff = { ...noLatest, enabled: false, disabledReason: 'the registry migration retags every image; OPS-77' }

const pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', namespace: 'shop' },
  spec: { containers: [{ name: 'web', image: 'nginx:latest', securityContext: { privileged: true } }] },
}
const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'shop' }, data: { a: 'b' } }

const privilegedFailure = { ruleset: 'pod-hardening', rule: 'no-privileged', status: 'fail', severity: 'high', message: 'privileged containers are not allowed' }
const latestSwitchedOff = {
  ruleset: 'pod-hardening',
  rule: 'no-latest',
  status: 'skip',
  severity: 'medium',
  message: 'rule switched off: the registry migration retags every image; OPS-77',
  disabled: true,
  disabledReason: 'the registry migration retags every image; OPS-77',
}

/** The API server's Pod CREATE review (test/admission/fixtures) carrying this test's pod. */
function review(uid: string): ReviewFixture {
  return variant('pod-create', uid, (created) => {
    created.request.object = pod
    created.request.name = pod.metadata.name
    created.request.namespace = pod.metadata.namespace
  })
}

describe.each(testDatabases())('switching a policy or a rule off on $kind', ({ kind }) => {
  let service: TestService
  let api: ReturnType<typeof client>
  let admin: string
  let webhook: HttpsTarget

  beforeAll(async () => {
    service = await startTestService(kind)
    api = client(service.server.apiUrl)
    admin = service.adminToken
    webhook = { port: service.server.webhook.port, ca: await readFile(service.server.webhook.certFile) }
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

  it('refuses a switch without a reason, or a reason without the switch, naming the field, and stores nothing', async () => {
    const noReason = await api('POST', '/api/rulesets/pod-hardening', { token: admin, body: { rules: [noPrivileged, { ...noLatest, enabled: false }] } })
    expect(noReason.status).toBe(400)
    expect(errorBody(noReason)).toEqual({ error: 'invalid request', details: 'body.rules[1].disabledReason: is required with enabled: false (say why it is switched off)' })
    const stray = await api('POST', '/api/rulesets/pod-hardening', { token: admin, body: { rules: [{ ...noPrivileged, disabledReason: 'why not' }, noLatest] } })
    expect(stray.status).toBe(400)
    expect(errorBody(stray)).toEqual({ error: 'invalid request', details: 'body.rules[0].disabledReason: is only for enabled: false (remove it when switching back on)' })
    expect((await api('GET', '/api/rulesets/pod-hardening', { token: admin })).status).toBe(404)

    const policyManifest = 'apiVersion: verdict.dev/v1alpha1\nkind: Policy\nmetadata: {name: baseline-pods}\nspec:\n  rulesets: [pod-hardening]\n  enabled: false\n'
    const policy = await api('POST', '/api/policies/baseline-pods', { token: admin, raw: policyManifest, contentType: 'application/x-yaml' })
    expect(policy.status).toBe(400)
    expect(errorBody(policy)).toEqual({ error: 'invalid request', details: 'body.spec.disabledReason: is required with enabled: false (say why it is switched off)' })
    const wrongType = await api('POST', '/api/policies/baseline-pods', { token: admin, body: { rulesets: ['pod-hardening'], enabled: 'no' } })
    expect(wrongType.status).toBe(400)
    expect(errorBody(wrongType).details).toMatch(/^body\.enabled: /)
    expect((await api('GET', '/api/policies/baseline-pods', { token: admin })).status).toBe(404)
  })

  it('stores a rule switched off with its reason, and lists it as a skip saying so wherever it would have judged', async () => {
    const created = await api('POST', '/api/rulesets/pod-hardening', { token: admin, body: { rules: [noPrivileged, latestOff] } })
    expect(created.status).toBe(201)
    expect((created.body as { rules: unknown[] }).rules[1]).toEqual(latestOff)
    expect((await api('POST', '/api/policies/baseline-pods', { token: admin, body: { rulesets: ['pod-hardening'], action: 'Deny' } })).status).toBe(201)

    const judged = await api('POST', '/api/eval/policies/baseline-pods', { token: admin, body: { inputData: pod } })
    expect(judged.status).toBe(200)
    expect(judged.body).toEqual({ requestId: expect.any(String), policy: 'baseline-pods', passed: false, results: [privilegedFailure, latestSwitchedOff] })
    const { requestId } = judged.body as { requestId: string }
    expect((await policyAudit(requestId)).output).toEqual({ policy: 'baseline-pods', passed: false, results: [privilegedFailure, latestSwitchedOff] })

    // A ruleset evaluated on its own says so too, in the answer and its audit.
    const byRuleset = await api('POST', '/api/eval/rulesets/pod-hardening', { token: admin, body: { inputData: pod } })
    expect(byRuleset.body).toEqual({ requestId: expect.any(String), ruleset: 'pod-hardening', passed: false, results: [privilegedFailure, latestSwitchedOff] })
    const rulesetAudits = await api('GET', `/api/audits/rulesets/uuid/${(byRuleset.body as { requestId: string }).requestId}`, { token: admin })
    expect((rulesetAudits.body as { rulesetAudits: Array<{ output: unknown }> }).rulesetAudits.map((audit) => audit.output)).toEqual([
      { ruleset: 'pod-hardening', passed: false, results: [privilegedFailure, latestSwitchedOff] },
    ])

    // Where it would not have judged (its match does not select a ConfigMap), it is the plain skip it always was.
    const other = await api('POST', '/api/eval/policies/baseline-pods?verbose=true', { token: admin, body: { inputData: configMap } })
    expect((other.body as { results: unknown[] }).results).toEqual([
      { ruleset: 'pod-hardening', rule: 'no-privileged', status: 'skip', severity: 'high', message: 'the rule does not match this resource' },
      { ruleset: 'pod-hardening', rule: 'no-latest', status: 'skip', severity: 'medium', message: 'the rule does not match this resource' },
    ])
  })

  it('webhook: judges by the rules switched on, and the audit lists the one switched off', async () => {
    const uid = '5d1f0a9e-1111-4c1b-9a57-0f3e2d1c0b01'
    const answer = await postReview(webhook, review(uid))
    expect(answer.status).toBe(200)
    expect(answer.json).toEqual({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: {
        uid,
        allowed: false,
        status: { code: 403, message: expect.stringContaining('baseline-pods/pod-hardening/no-privileged: privileged containers are not allowed') },
        auditAnnotations: { policies: 'baseline-pods', 'failed-rules': 'baseline-pods/pod-hardening/no-privileged', 'disabled-rules': 'baseline-pods/pod-hardening/no-latest' },
      },
    })
    expect((await policyAudit(uid)).output).toEqual({ policy: 'baseline-pods', passed: false, results: [privilegedFailure, latestSwitchedOff] })
  })

  it('switches a policy off with PUT: an evaluation says it is disabled and judged nothing; the webhook lets the request through as if it did not match', async () => {
    const reason = 'replaced by restricted-pods; kept for the rollback window'
    const replaced = await api('PUT', '/api/policies/baseline-pods', { token: admin, body: { rulesets: ['pod-hardening'], action: 'Deny', enabled: false, disabledReason: reason } })
    expect(replaced.status).toBe(200)
    expect(replaced.body).toMatchObject({ name: 'baseline-pods', version: 2, enabled: false, disabledReason: reason })
    expect((await api('GET', '/api/policies', { token: admin })).body).toMatchObject({ policies: [{ name: 'baseline-pods', enabled: false, disabledReason: reason }] })

    const answer = await api('POST', '/api/eval/policies/baseline-pods?verbose=true', { token: admin, body: { inputData: pod } })
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({ requestId: expect.any(String), policy: 'baseline-pods', passed: true, results: [], disabled: true, disabledReason: reason })
    expect((await policyAudit((answer.body as { requestId: string }).requestId)).output).toEqual({ policy: 'baseline-pods', passed: true, results: [], disabled: true, disabledReason: reason })

    const uid = '5d1f0a9e-2222-4c1b-9a57-0f3e2d1c0b01'
    const review2 = await postReview(webhook, review(uid))
    expect(review2.json).toEqual({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid, allowed: true } })
    // Nothing judged, nothing audited.
    expect((await api('GET', `/api/audits/policies/uuid/${uid}`, { token: admin })).status).toBe(404)
  })

  it('switches it back on by leaving the fields out: judged again', async () => {
    const replaced = await api('PUT', '/api/policies/baseline-pods', { token: admin, body: { rulesets: ['pod-hardening'], action: 'Deny' } })
    expect(replaced.status).toBe(200)
    expect(replaced.body).not.toHaveProperty('enabled')
    const uid = '5d1f0a9e-3333-4c1b-9a57-0f3e2d1c0b01'
    expect((await postReview(webhook, review(uid))).json).toMatchObject({ response: { uid, allowed: false } })
  })
})
