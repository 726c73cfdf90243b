import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testDatabases } from '../support/databases.js'
import { client, errorBody } from './http-client.js'
import { startTestService, type TestService } from './test-service.js'

/** A hand-written pattern ruleset in the style of the Pod Security Standards. */
const privileged = {
  name: 'privileged-containers',
  severity: 'high',
  match: { kinds: ['Pod'] },
  message: 'Privileged mode is disallowed',
  validate: {
    pattern: {
      spec: {
        '=(initContainers)': [{ '=(securityContext)': { '=(privileged)': 'false' } }],
        containers: [{ '=(securityContext)': { '=(privileged)': 'false' } }],
      },
    },
  },
}
const nonRoot = {
  name: 'run-as-non-root',
  match: { kinds: ['Pod'] },
  message: 'Running as root is not allowed.',
  validate: {
    anyPattern: [{ spec: { securityContext: { runAsNonRoot: true } } }, { spec: { containers: [{ securityContext: { runAsNonRoot: true } }] } }],
  },
}

const badPod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', namespace: 'shop' },
  spec: { containers: [{ name: 'web', image: 'nginx:1.27', securityContext: { privileged: true } }] },
}
const goodPod = { ...badPod, spec: { securityContext: { runAsNonRoot: true }, containers: [{ name: 'web', image: 'nginx:1.27' }] } }

const PRIVILEGED_MESSAGE = 'validation error: Privileged mode is disallowed. rule privileged-containers failed at path /spec/containers/0/securityContext/privileged/'
const NON_ROOT_MESSAGE =
  'validation error: Running as root is not allowed. rule run-as-non-root[0] failed at path /spec/securityContext/ rule run-as-non-root[1] failed at path /spec/containers/0/securityContext/runAsNonRoot/'

describe.each(testDatabases())('pattern rules through the REST API on $kind', ({ kind }) => {
  let service: TestService
  let api: ReturnType<typeof client>
  let admin: string

  beforeAll(async () => {
    service = await startTestService(kind)
    api = client(service.server.apiUrl)
    admin = service.adminToken
  })

  afterAll(async () => {
    await service?.close()
  })

  it('stores a ruleset of pattern rules, in the manifest form too', async () => {
    expect((await api('POST', '/api/rulesets/pod-security', { token: admin, body: { rules: [privileged, nonRoot] } })).status).toBe(201)
    const manifest = { apiVersion: 'verdict.dev/v1alpha1', kind: 'Ruleset', metadata: { name: 'no-privileged' }, spec: { rules: [privileged] } }
    expect((await api('POST', '/api/rulesets/no-privileged', { token: admin, body: manifest })).status).toBe(201)
  })

  it.each([
    ['an unknown operator', { spec: { replicas: '=>2' } }, 'body.rules[0] (rule "x").validate.pattern.spec.replicas: unknown operator "=>" in "=>2" (operators are >, <, >=, <=, !, |, &, a-b and a!-b)'],
    ['a mutate anchor', { metadata: { labels: { '+(team)': 'a' } } }, 'body.rules[0] (rule "x").validate.pattern.metadata.labels["+(team)"]: the anchor "+(team)" adds a field in mutate overlays; validate patterns do not accept it'],
  ])('answers 400 naming the place of %s, storing nothing', async (_what, pattern, details) => {
    const response = await api('POST', '/api/rulesets/broken', { token: admin, body: { rules: [{ name: 'x', validate: { pattern } }] } })
    expect(response.status).toBe(400)
    expect(errorBody(response).details).toBe(details)
    expect((await api('GET', '/api/rulesets/broken', { token: admin })).status).toBe(404)
  })

  it.each([
    ['an operator Kyverno does not have', { deny: { conditions: { any: [{ key: '{{ request.operation }}', operator: 'equals', value: 'CREATE' }] } } }, 'body.rules[0] (rule "x").validate.deny.conditions.any[0].operator: unknown condition operator "equals"; operators are case-sensitive: did you mean "Equals"?'],
    ['a foreach list that does not parse', { foreach: [{ list: 'request.object.spec.[', deny: {} }] }, 'body.rules[0] (rule "x").validate.foreach[0].list'],
  ])('answers 400 for a classic rule with %s, storing nothing', async (_what, validate, details) => {
    const response = await api('POST', '/api/rulesets/broken-classic', { token: admin, body: { rules: [{ name: 'x', validate }] } })
    expect(response.status).toBe(400)
    expect(errorBody(response).details).toContain(details)
    expect((await api('GET', '/api/rulesets/broken-classic', { token: admin })).status).toBe(404)
  })

  it('evaluates a hand-written classic rule (foreach, deny, {{ }} variables) with the substituted message', async () => {
    const registries = {
      name: 'registries',
      match: { kinds: ['Pod'] },
      message: 'image {{ element.image }} is not from registry.example.com',
      validate: { foreach: [{ list: 'request.object.spec.containers', deny: { conditions: { all: [{ key: '{{ element.image }}', operator: 'NotEquals', value: 'registry.example.com/*' }] } } }] },
    }
    expect((await api('POST', '/api/rulesets/registries', { token: admin, body: { rules: [registries] } })).status).toBe(201)
    const failing = await api('POST', '/api/eval/rulesets/registries', { token: admin, body: { inputData: badPod } })
    expect(failing.status).toBe(200)
    expect((failing.body as { results: unknown }).results).toEqual([
      { ruleset: 'registries', rule: 'registries', status: 'fail', severity: 'medium', message: 'validation failure: image nginx:1.27 is not from registry.example.com' },
    ])
    const pinned = { ...badPod, spec: { containers: [{ name: 'web', image: 'registry.example.com/web:1.27' }] } }
    expect((await api('POST', '/api/eval/rulesets/registries', { token: admin, body: { inputData: pinned } })).body).toMatchObject({ passed: true, results: [] })
  })

  it('evaluates with Kyverno\'s messages and the failing field, audits the result, and tells what to change', async () => {
    const response = await api('POST', '/api/eval/rulesets/pod-security', { token: admin, body: { inputData: badPod } })
    expect(response.status).toBe(200)
    const { requestId, ...result } = response.body as { requestId: string }
    expect(result).toEqual({
      ruleset: 'pod-security',
      passed: false,
      results: [
        { ruleset: 'pod-security', rule: 'privileged-containers', status: 'fail', severity: 'high', message: PRIVILEGED_MESSAGE, path: 'spec.containers[0].securityContext.privileged' },
        { ruleset: 'pod-security', rule: 'run-as-non-root', status: 'fail', severity: 'medium', message: NON_ROOT_MESSAGE, path: 'spec.securityContext' },
      ],
    })

    const audits = await api('GET', `/api/audits/rulesets/uuid/${requestId}`, { token: admin })
    expect(audits.status).toBe(200)
    const [audit] = (audits.body as { rulesetAudits: { rulesetName: string; output: unknown }[] }).rulesetAudits
    expect(audit?.rulesetName).toBe('pod-security')
    expect(audit?.output).toEqual(result)

    const remediations = await api('GET', `/api/remediations/audits/${requestId}`, { token: admin })
    expect(remediations.status).toBe(200)
    const body = remediations.body as { remediations: { rule: string; currentStatus: string; fields: unknown[]; remediation: string }[] }
    expect(body.remediations.map(({ rule, currentStatus, fields }) => ({ rule, currentStatus, fields }))).toEqual([
      {
        rule: 'privileged-containers',
        currentStatus: 'fail',
        fields: [{ path: 'spec.containers[0].securityContext.privileged', actual: true, expected: false, requirement: 'must be "false"' }],
      },
      {
        rule: 'run-as-non-root',
        currentStatus: 'fail',
        fields: [
          { path: 'spec.securityContext', requirement: 'must be set' },
          { path: 'spec.containers[0].securityContext.runAsNonRoot', expected: true, requirement: 'must be true' },
        ],
      },
    ])
    for (const remediation of body.remediations) expect(remediation.remediation).not.toBe('')
  })

  it('passes a compliant Pod, and lists pattern rules as passed when verbose', async () => {
    const response = await api('POST', '/api/eval/rulesets/pod-security?verbose=true', { token: admin, body: { inputData: goodPod } })
    expect(response.body).toMatchObject({
      passed: true,
      results: [
        { rule: 'privileged-containers', status: 'pass' },
        { rule: 'run-as-non-root', status: 'pass' },
      ],
    })
  })

  it('judges a Deployment by its pod template, naming fields in the Deployment', async () => {
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'shop' },
      spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: badPod.spec } },
    }
    const response = await api('POST', '/api/eval/rulesets/no-privileged', { token: admin, body: { inputData: deployment } })
    expect((response.body as { results: unknown[] }).results).toEqual([
      {
        ruleset: 'no-privileged',
        rule: 'privileged-containers',
        status: 'fail',
        severity: 'high',
        autogen: 'Deployment',
        message: 'validation error: Privileged mode is disallowed. rule privileged-containers failed at path /spec/template/spec/containers/0/securityContext/privileged/',
        path: 'spec.template.spec.containers[0].securityContext.privileged',
      },
    ])
  })
})
