import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HttpsTarget } from './https-client.js'
import { httpsRequest, postReview } from './https-client.js'
import { fixedNamespaces, policyAuditsOf, rulesetAuditsOf, startHarness, type Harness } from './admission-harness.js'
import { fixture, variant, type FixtureName } from './fixtures.js'

const BY = 'platform@example.com'
const LONG_MESSAGE =
  'every container needs resources.limits.memory so that the scheduler can place the pod and the kubelet can evict it predictably under node memory pressure'

function celRule(name: string, kinds: string[], expression: string, message: string, match: Record<string, unknown> = {}) {
  return { name, match: { kinds, ...match }, validate: { cel: [{ expression, message }] } }
}

/**
 * The policies of a small cluster: two Deny policies on Pods (one for restricted namespaces only),
 * a Warn and an Audit policy on Pods, a Deny policy for deleting protected Pods, one judging
 * updates by oldObject, Deny policies on ClusterRoles and Scale, a Warn policy on Namespaces,
 * and a Deny policy kept out of admission.
 */
async function definePolicies(h: Harness): Promise<void> {
  const rulesets: Record<string, unknown[]> = {
    'pod-hygiene': [celRule('no-latest-tag', ['Pod'], "object.spec.containers.all(c, !c.image.endsWith(':latest'))", 'container images must be pinned, not :latest')],
    'pod-resources': [
      celRule('memory-limits', ['Pod'], 'object.spec.containers.all(c, has(c.resources.limits) && has(c.resources.limits.memory))', LONG_MESSAGE),
      celRule('cpu-requests', ['Pod'], 'object.spec.containers.all(c, has(c.resources.requests))', 'containers should request CPU and memory'),
    ],
    'team-labels': [celRule('team-label', ['Pod'], "'team' in object.metadata.?labels.orValue({})", 'pods should carry a team label')],
    'restricted-registries': [
      celRule('trusted-registry', ['Pod'], "object.spec.containers.all(c, c.image.startsWith('registry.acme.example/'))", 'images must come from registry.acme.example in restricted namespaces'),
    ],
    'protected-pods': [celRule('not-protected', ['Pod'], "object.metadata.?labels.?protected.orValue('') != 'true'", 'pods labelled protected=true cannot be deleted')],
    'stable-labels': [
      celRule('app-label-unchanged', ['Pod'], 'object.metadata.labels.app == oldObject.metadata.labels.app', 'the app label of a pod cannot change', { operations: ['UPDATE'] }),
    ],
    'cluster-roles': [celRule('no-wildcard-verbs', ['ClusterRole'], "object.rules.all(r, !('*' in r.verbs))", 'ClusterRoles must not grant every verb')],
    'namespace-owner': [celRule('owner-label', ['Namespace'], "'owner' in object.metadata.?labels.orValue({})", 'namespaces should name an owner label')],
    'scale-limits': [celRule('max-replicas', ['Scale'], 'object.spec.replicas <= 10', 'no more than 10 replicas')],
    'always-fails': [celRule('never', ['Pod'], 'false', 'this policy is not for admission')],
  }
  for (const [name, rules] of Object.entries(rulesets)) await h.definitions.createRuleset(name, { rules }, { by: BY })
  const policies: Record<string, Record<string, unknown>> = {
    'pod-security': { rulesets: ['pod-hygiene'], action: 'Deny' },
    'resource-hygiene': { rulesets: ['pod-resources'], action: 'Warn' },
    'team-ownership': { rulesets: ['team-labels'], action: 'Audit' },
    'restricted-namespaces': { rulesets: ['restricted-registries'], action: 'Deny', match: { namespaceSelector: { matchLabels: { tier: 'restricted' } } } },
    'protect-pods': { rulesets: ['protected-pods'], action: 'Deny', match: { operations: ['DELETE'] } },
    'label-stability': { rulesets: ['stable-labels'], action: 'Deny' },
    rbac: { rulesets: ['cluster-roles'], action: 'Deny' },
    'namespace-ownership': { rulesets: ['namespace-owner'], action: 'Warn' },
    'scale-limits': { rulesets: ['scale-limits'], action: 'Deny' },
    'not-for-admission': { rulesets: ['always-fails'], action: 'Deny', admission: false },
  }
  for (const [name, body] of Object.entries(policies)) await h.definitions.createPolicy(name, body, { by: BY })
}

const NO_LATEST = 'pod-security/pod-hygiene/no-latest-tag: container images must be pinned, not :latest'
const TRUSTED_REGISTRY = 'restricted-namespaces/restricted-registries/trusted-registry: images must come from registry.acme.example in restricted namespaces'
const MEMORY_WARNING = `resource-hygiene/pod-resources/memory-limits: ${LONG_MESSAGE}`.slice(0, 119) + '\u2026'
const CPU_WARNING = 'resource-hygiene/pod-resources/cpu-requests: containers should request CPU and memory'
const POD_FAILED_RULES = [
  'pod-security/pod-hygiene/no-latest-tag',
  'resource-hygiene/pod-resources/memory-limits',
  'resource-hygiene/pod-resources/cpu-requests',
  'restricted-namespaces/restricted-registries/trusted-registry',
  'team-ownership/team-labels/team-label',
].join(',')

describe('the admission webhook over TLS', () => {
  let h: Harness
  let target: HttpsTarget

  beforeAll(async () => {
    h = await startHarness()
    await definePolicies(h)
    const server = await h.start({ namespaces: fixedNamespaces({ 'team-a': { tier: 'restricted' }, sandbox: { tier: 'open' } }) })
    target = server.target
  })
  afterAll(async () => {
    await h?.close()
  })

  it('denies a Pod CREATE with every failed Deny rule in the message, Warn failures as warnings, and audit annotations', async () => {
    const review = fixture('pod-create')
    const answer = await postReview(target, review)
    expect(answer.status).toBe(200)
    expect(answer.headers['content-type']).toBe('application/json')
    expect(answer.json).toEqual({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: {
        uid: '705ab4f5-6393-11e8-b7cc-42010a800002',
        allowed: false,
        status: { code: 403, message: `${NO_LATEST}\n${TRUSTED_REGISTRY}` },
        warnings: [MEMORY_WARNING, CPU_WARNING],
        auditAnnotations: { policies: 'pod-security,resource-hygiene,restricted-namespaces,team-ownership', 'failed-rules': POD_FAILED_RULES },
      },
    })
    expect(Array.from(MEMORY_WARNING)).toHaveLength(120)
  })

  it('writes one policy audit per judging policy and one ruleset audit per judging ruleset, under the review uid and the user', async () => {
    const review = variant('pod-create', 'audit-check-0001')
    await postReview(target, review)
    await h.settleAudits()
    const policyAudits = await policyAuditsOf(h.db, 'audit-check-0001')
    expect(policyAudits.map((audit) => [audit.policyName, audit.output.passed])).toEqual([
      ['pod-security', false],
      ['resource-hygiene', false],
      ['restricted-namespaces', false],
      ['team-ownership', false],
    ])
    for (const audit of policyAudits) {
      expect(audit.updatedBy).toBe('alice@example.com')
      expect(audit.inputFormat).toBe('json')
      expect(JSON.parse(audit.input)).toEqual(review.request.object)
    }
    expect(policyAudits[0]?.output).toEqual({
      policy: 'pod-security',
      passed: false,
      results: [{ ruleset: 'pod-hygiene', rule: 'no-latest-tag', status: 'fail', severity: 'medium', message: 'container images must be pinned, not :latest' }],
    })
    const rulesetAudits = await rulesetAuditsOf(h.db, 'audit-check-0001')
    expect(rulesetAudits.map((audit) => [audit.rulesetName, audit.output.passed, audit.updatedBy])).toEqual([
      ['pod-hygiene', false, 'alice@example.com'],
      ['pod-resources', false, 'alice@example.com'],
      ['restricted-registries', false, 'alice@example.com'],
      ['team-labels', false, 'alice@example.com'],
    ])
  })

  it('judges a dry run the same way but does not audit it', async () => {
    const answer = await postReview(target, fixture('pod-create-dry-run'))
    expect(answer.status).toBe(200)
    expect(answer.json).toMatchObject({ response: { uid: '0f8fa6c4-9b8e-4c52-bd1e-4e3a4a2d6f01', allowed: false, status: { code: 403, message: `${NO_LATEST}\n${TRUSTED_REGISTRY}` } } })
    await h.settleAudits()
    expect(await policyAuditsOf(h.db, '0f8fa6c4-9b8e-4c52-bd1e-4e3a4a2d6f01')).toEqual([])
    expect(await rulesetAuditsOf(h.db, '0f8fa6c4-9b8e-4c52-bd1e-4e3a4a2d6f01')).toEqual([])
  })

  it('allows a compliant Pod, with no warnings and the passing policies named in the annotations', async () => {
    const review = variant('pod-create', 'compliant-0001', (r) => {
      const object = r.request.object as { metadata: { labels: Record<string, string> }; spec: { containers: Array<Record<string, unknown>> } }
      object.metadata.labels.team = 'payments'
      object.spec.containers[0] = {
        ...object.spec.containers[0],
        image: 'registry.acme.example/web:1.4.2',
        resources: { limits: { memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi' } },
      }
    })
    const answer = await postReview(target, review)
    expect(answer.json).toEqual({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: { uid: 'compliant-0001', allowed: true, auditAnnotations: { policies: 'pod-security,resource-hygiene,restricted-namespaces,team-ownership' } },
    })
    await h.settleAudits()
    expect((await policyAuditsOf(h.db, 'compliant-0001')).map((audit) => audit.output)).toEqual([
      { policy: 'pod-security', passed: true, results: [] },
      { policy: 'resource-hygiene', passed: true, results: [] },
      { policy: 'restricted-namespaces', passed: true, results: [] },
      { policy: 'team-ownership', passed: true, results: [] },
    ])
  })

  it('applies namespaceSelector with the Namespace from the NamespaceSource', async () => {
    const inNamespace = (namespace: string, uid: string) =>
      variant('pod-create', uid, (r) => {
        r.request.namespace = namespace
        ;(r.request.object as { metadata: { namespace: string } }).metadata.namespace = namespace
      })
    const restricted = await postReview(target, inNamespace('team-a', 'ns-restricted'))
    const open = await postReview(target, inNamespace('sandbox', 'ns-open'))
    const unknown = await postReview(target, inNamespace('nobody-knows', 'ns-unknown'))
    expect(restricted.json).toMatchObject({ response: { allowed: false, status: { message: `${NO_LATEST}\n${TRUSTED_REGISTRY}` } } })
    expect(open.json).toMatchObject({ response: { allowed: false, status: { message: NO_LATEST } } })
    expect(unknown.json).toMatchObject({ response: { allowed: false, status: { message: NO_LATEST } } })
  })

  it('judges an UPDATE with oldObject available to CEL', async () => {
    const unchanged = await postReview(target, fixture('pod-update'))
    expect(unchanged.json).toMatchObject({ response: { uid: 'b2d9a8e4-1c3f-4e7a-9d6b-5a4c3b2a1f00', allowed: false, status: { code: 403, message: `${NO_LATEST}\n${TRUSTED_REGISTRY}` } } })
    expect((unchanged.json as { response: { auditAnnotations: Record<string, string> } }).response.auditAnnotations.policies).toBe(
      'label-stability,pod-security,resource-hygiene,restricted-namespaces,team-ownership',
    )
    const relabelled = await postReview(
      target,
      variant('pod-update', 'update-relabel', (r) => {
        ;(r.request.object as { metadata: { labels: Record<string, string> } }).metadata.labels.app = 'web-v2'
      }),
    )
    expect((relabelled.json as { response: { status: { message: string } } }).response.status.message.split('\n')).toEqual([
      'label-stability/stable-labels/app-label-unchanged: the app label of a pod cannot change',
      NO_LATEST,
      TRUSTED_REGISTRY,
    ])
  })

  it('judges a DELETE by the oldObject, only for policies that name DELETE', async () => {
    const answer = await postReview(target, fixture('pod-delete'))
    expect(answer.json).toEqual({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: {
        uid: 'c3e0b9f5-2d4a-4f8b-8e7c-6b5d4c3b2a11',
        allowed: false,
        status: { code: 403, message: 'protect-pods/protected-pods/not-protected: pods labelled protected=true cannot be deleted' },
        auditAnnotations: { policies: 'protect-pods', 'failed-rules': 'protect-pods/protected-pods/not-protected' },
      },
    })
    await h.settleAudits()
    const [audit] = await policyAuditsOf(h.db, 'c3e0b9f5-2d4a-4f8b-8e7c-6b5d4c3b2a11')
    expect(JSON.parse(audit?.input ?? 'null')).toEqual(fixture('pod-delete').request.oldObject)

    // An unprotected Pod with a :latest image can still be deleted: Pod policies do not judge deletions.
    const unprotected = variant('pod-delete', 'delete-unprotected', (r) => {
      delete (r.request.oldObject as { metadata: { labels: Record<string, string> } }).metadata.labels.protected
    })
    expect((await postReview(target, unprotected)).json).toEqual({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: { uid: 'delete-unprotected', allowed: true, auditAnnotations: { policies: 'protect-pods' } },
    })
  })

  it.each<[FixtureName, string]>([
    ['pod-status-update', 'd4f1c0a6-3e5b-4a9c-8f8d-7c6e5d4c3b22'],
    ['pod-exec-connect', 'e5a2d1b7-4f6c-4b0d-9a9e-8d7f6e5d4c33'],
  ])('allows %s without judging or auditing it', async (name, uid) => {
    const answer = await postReview(target, fixture(name))
    expect(answer.json).toEqual({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid, allowed: true } })
    await h.settleAudits()
    expect(await policyAuditsOf(h.db, uid)).toEqual([])
  })

  it('allows a CONNECT that carries no object', async () => {
    const review = variant('pod-exec-connect', 'connect-without-object', (r) => {
      r.request.object = null
    })
    expect((await postReview(target, review)).json).toEqual({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: { uid: 'connect-without-object', allowed: true },
    })
  })

  it('judges a scale subresource by the Scale object it carries', async () => {
    const answer = await postReview(target, fixture('deployment-scale-update'))
    expect(answer.json).toEqual({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: {
        uid: '7e3b0ae0-d3f5-4e9a-8d8b-7a6c5b4a3fdd',
        allowed: false,
        status: { code: 403, message: 'scale-limits/scale-limits/max-replicas: no more than 10 replicas' },
        auditAnnotations: { policies: 'scale-limits', 'failed-rules': 'scale-limits/scale-limits/max-replicas' },
      },
    })
  })

  it.each<[FixtureName, string, string]>([
    ['deployment-create', 'Deployment', 'alice@example.com'],
    ['statefulset-create', 'StatefulSet', 'alice@example.com'],
    ['daemonset-create', 'DaemonSet', 'alice@example.com'],
    ['replicaset-create', 'ReplicaSet', 'system:serviceaccount:kube-system:deployment-controller'],
    ['job-create', 'Job', 'alice@example.com'],
    ['cronjob-create', 'CronJob', 'alice@example.com'],
  ])('judges the pod template of a %s by the Pod policies', async (name, kind, user) => {
    const review = fixture(name)
    const answer = await postReview(target, review)
    expect(answer.json).toEqual({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: {
        uid: review.request.uid,
        allowed: false,
        status: { code: 403, message: `${NO_LATEST}\n${TRUSTED_REGISTRY}` },
        warnings: [MEMORY_WARNING, CPU_WARNING],
        auditAnnotations: { policies: 'pod-security,resource-hygiene,restricted-namespaces,team-ownership', 'failed-rules': POD_FAILED_RULES },
      },
    })
    await h.settleAudits()
    const audits = await policyAuditsOf(h.db, review.request.uid)
    expect(audits.map((audit) => audit.updatedBy)).toEqual([user, user, user, user])
    expect(audits[0]?.output.results).toEqual([
      { ruleset: 'pod-hygiene', rule: 'no-latest-tag', status: 'fail', severity: 'medium', message: 'container images must be pinned, not :latest', autogen: kind },
    ])
  })

  it('judges a cluster-scoped Namespace by its own labels and warns', async () => {
    const answer = await postReview(target, fixture('namespace-create'))
    expect(answer.json).toEqual({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: {
        uid: '5c19e8ce-b1d3-4c7e-8b6f-5e4a3f2e1dbb',
        allowed: true,
        warnings: ['namespace-ownership/namespace-owner/owner-label: namespaces should name an owner label'],
        auditAnnotations: { policies: 'namespace-ownership', 'failed-rules': 'namespace-ownership/namespace-owner/owner-label' },
      },
    })
  })

  it('denies a cluster-scoped ClusterRole', async () => {
    const answer = await postReview(target, fixture('clusterrole-create'))
    expect(answer.json).toMatchObject({
      response: { uid: '6d2af9df-c2e4-4d8f-9c7a-6f5b4a3f2ecc', allowed: false, status: { code: 403, message: 'rbac/cluster-roles/no-wildcard-verbs: ClusterRoles must not grant every verb' } },
    })
  })

  it("leaves Verdict's own namespace alone", async () => {
    const review = variant('pod-create', 'own-namespace', (r) => {
      r.request.namespace = 'verdict'
      ;(r.request.object as { metadata: { namespace: string } }).metadata.namespace = 'verdict'
    })
    expect((await postReview(target, review)).json).toEqual({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: 'own-namespace', allowed: true } })
  })

  it('sees policy changes at once', async () => {
    await h.definitions.createRuleset('no-pods-named-web', { rules: [celRule('not-web', ['Pod'], "object.metadata.name != 'web'", 'the name web is taken')] }, { by: BY })
    await h.definitions.createPolicy('names', { rulesets: ['no-pods-named-web'], action: 'Warn' }, { by: BY })
    try {
      const answer = await postReview(target, variant('pod-create', 'after-change'))
      expect((answer.json as { response: { warnings: string[] } }).response.warnings).toContain('names/no-pods-named-web/not-web: the name web is taken')
    } finally {
      await h.definitions.deletePolicy('names')
      await h.definitions.deleteRuleset('no-pods-named-web')
    }
    const after = await postReview(target, variant('pod-create', 'after-delete'))
    expect((after.json as { response: { warnings: string[] } }).response.warnings).toEqual([MEMORY_WARNING, CPU_WARNING])
  })

  it('answers GET /healthz', async () => {
    const answer = await httpsRequest(target, 'GET', '/healthz')
    expect([answer.status, answer.json]).toEqual([200, { status: 'ok' }])
  })

  it('answers other paths and methods with the error shape', async () => {
    const notFound = await httpsRequest(target, 'POST', '/mutate', '{}')
    expect([notFound.status, notFound.json]).toEqual([404, { error: 'not found', details: 'path: /mutate is not served here; AdmissionReviews go to POST /validate' }])
    const wrongMethod = await httpsRequest(target, 'GET', '/validate')
    expect([wrongMethod.status, wrongMethod.headers.allow, wrongMethod.json]).toEqual([
      405,
      'POST',
      { error: 'method not allowed', details: 'method: GET is not allowed here; use POST' },
    ])
  })

  it.each<[string, (review: Record<string, unknown>) => unknown, string]>([
    ['a body that is not JSON', () => '{"apiVersion": "admission.k8s.io/v1", "kind": ', 'the body is not JSON: '],
    ['a JSON array', () => [], 'body must be a JSON object (an AdmissionReview), got an array'],
    ['the v1beta1 apiVersion', (r) => ({ ...r, apiVersion: 'admission.k8s.io/v1beta1' }), 'apiVersion must be "admission.k8s.io/v1", got "admission.k8s.io/v1beta1"'],
    ['another kind', (r) => ({ ...r, kind: 'TokenReview' }), 'kind must be "AdmissionReview", got "TokenReview"'],
    ['no request', (r) => ({ ...r, request: undefined }), 'request must be an object (the AdmissionRequest), got nothing'],
    ['no request.uid', (r) => withRequest(r, { uid: undefined }), 'request.uid must be a non-empty string, got nothing'],
    ['an empty request.uid', (r) => withRequest(r, { uid: '' }), 'request.uid must be a non-empty string, got ""'],
    ['an unknown operation', (r) => withRequest(r, { operation: 'PATCH' }), 'request.operation must be one of CREATE, UPDATE, DELETE, CONNECT, got "PATCH"'],
    ['no request.kind', (r) => withRequest(r, { kind: undefined }), 'request.kind must be an object {group, version, kind}, got nothing'],
    ['a CREATE without object', (r) => withRequest(r, { object: null }), 'request.object must be an object for CREATE, got null'],
    ['an object that is a string', (r) => withRequest(r, { object: 'pod' }), 'request.object must be a JSON object or null, got "pod"'],
    ['a DELETE without oldObject', (r) => withRequest(r, { operation: 'DELETE', object: null }), 'request.oldObject must be an object for DELETE (the resource being deleted), got null'],
    ['a dryRun that is a string', (r) => withRequest(r, { dryRun: 'true' }), 'request.dryRun must be a boolean, got "true"'],
    ['userInfo.groups that is a string', (r) => withRequest(r, { userInfo: { username: 'x', groups: 'admins' } }), 'request.userInfo.groups must be an array of strings, got "admins"'],
  ])('answers 400 naming the field for %s', async (_, change, details) => {
    const body = change(fixture('pod-create') as unknown as Record<string, unknown>)
    const answer = await postReview(target, typeof body === 'string' ? body : JSON.stringify(body))
    expect(answer.status).toBe(400)
    expect(answer.json).toEqual({ error: 'malformed AdmissionReview', details: expect.stringContaining(details) })
    if (!details.endsWith(': ')) expect((answer.json as { details: string }).details).toBe(details)
  })

  it('refuses a body over the size limit with 413', async () => {
    // The service passes its pino logger (fastify's app.log); it must fit the webhook's logger type.
    const small = await h.start({ maxBodyBytes: 1024, logger: pino({ level: 'silent' }) })
    const answer = await postReview(small.target, fixture('pod-create'))
    expect([answer.status, answer.json]).toEqual([413, { error: 'payload too large', details: 'body: an AdmissionReview must not exceed 1024 bytes' }])
  })
})

function withRequest(review: Record<string, unknown>, fields: Record<string, unknown>): Record<string, unknown> {
  return { ...review, request: { ...(review.request as Record<string, unknown>), ...fields } }
}
