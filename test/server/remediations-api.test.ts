import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testDatabases } from '../support/databases.js'
import { client, type ApiResponse } from './http-client.js'
import { startTestService, type TestService } from './test-service.js'

const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/) as unknown as string

/** Hand-written rules: one without a remediation (derived at read time), one with its own. */
const noLatest = {
  name: 'no-latest',
  severity: 'high',
  match: { kinds: ['Pod'] },
  validate: { cel: [{ expression: "object.spec.containers.all(c, !c.image.endsWith(':latest'))", message: 'images must be pinned' }] },
}
const teamLabel = {
  name: 'team-label',
  validate: { cel: [{ expression: "has(object.metadata.labels) && 'team' in object.metadata.labels", message: 'a team label is required' }] },
  remediation: 'Add a team label.',
}

const badPod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', namespace: 'shop' },
  spec: { containers: [{ name: 'web', image: 'nginx:latest', securityContext: { privileged: true } }] },
}
const badDeployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'shop', labels: { team: 'payments' } },
  spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: badPod.spec } },
}

const PRIVILEGED_REMEDIATION = 'Remove securityContext.privileged or set it to false on every container, init container and ephemeral container.'

function errorOf(response: ApiResponse): { error: string; details: string } {
  expect(Object.keys(response.body as object).sort()).toEqual(['details', 'error'])
  return response.body as { error: string; details: string }
}

/** Audit and definition times are the store's, to the millisecond: a write in a later millisecond is a later write. */
async function afterMillisecond(iso: string): Promise<void> {
  while (Date.now() <= Date.parse(iso)) await new Promise((resolve) => setTimeout(resolve, 1))
}

describe.each(testDatabases())('remediations through the REST API on $kind', ({ kind }) => {
  let service: TestService
  let api: ReturnType<typeof client>
  let admin: string

  beforeAll(async () => {
    service = await startTestService(kind)
    api = client(service.server.apiUrl)
    admin = service.adminToken
    const created = [
      await api('POST', '/api/rulesets/pod-rules', { token: admin, body: { labels: { platform: 'kubernetes' }, rules: [noLatest, teamLabel] } }),
      await api('POST', '/api/rulesets/no-priv', { token: admin, body: { instruction: 'containers must not be privileged', labels: { platform: 'kubernetes', resource: 'pod' } } }),
      await api('POST', '/api/policies/production', { token: admin, body: { rulesets: ['pod-rules', 'no-priv'], action: 'Deny' } }),
    ]
    expect(created.map((response) => response.status)).toEqual([201, 201, 201])
  })

  afterAll(async () => {
    await service?.close()
  })

  const evaluate = async (path: string, inputData: unknown): Promise<string> => {
    const response = await api('POST', path, { token: admin, body: { inputData } })
    expect(response.status).toBe(200)
    return (response.body as { requestId: string }).requestId
  }

  describe('GET /api/remediations/rulesets/{name}', () => {
    it("lists each rule's remediation, derived from its message when it has none", async () => {
      const response = await api('GET', '/api/remediations/rulesets/pod-rules', { token: admin })
      expect(response.status).toBe(200)
      expect(response.body).toEqual({
        rulesetName: 'pod-rules',
        version: 1,
        remediations: [
          { rule: 'no-latest', severity: 'high', message: 'images must be pinned', remediation: 'Make images be pinned.', derived: true },
          { rule: 'team-label', severity: 'medium', message: 'a team label is required', remediation: 'Add a team label.', derived: false },
        ],
      })
    })

    it('gives the catalog remediation and template of a rule compiled from an instruction', async () => {
      const response = await api('GET', '/api/remediations/rulesets/no-priv', { token: admin })
      expect(response.status).toBe(200)
      expect(response.body).toEqual({
        rulesetName: 'no-priv',
        version: 1,
        remediations: [
          {
            rule: 'no-privileged-containers',
            severity: 'high',
            message: 'privileged containers are not allowed',
            remediation: PRIVILEGED_REMEDIATION,
            derived: false,
            template: 'pss-privileged',
          },
        ],
      })
    })

    it('answers 404 for an unknown ruleset and 400 for a name that cannot be one', async () => {
      const missing = await api('GET', '/api/remediations/rulesets/nothing', { token: admin })
      expect(missing.status).toBe(404)
      expect(errorOf(missing).details).toBe('ruleset "nothing" does not exist')
      const invalid = await api('GET', '/api/remediations/rulesets/Bad_Name', { token: admin })
      expect(invalid.status).toBe(400)
      expect(errorOf(invalid).details).toMatch(/^params\.name/)
    })
  })

  describe('GET /api/remediations/audits/{requestId}', () => {
    it('gives, for each failure of a ruleset evaluation, what to change and where', async () => {
      const requestId = await evaluate('/api/eval/rulesets/pod-rules', badPod)
      const response = await api('GET', `/api/remediations/audits/${requestId}`, { token: admin })
      expect(response.status).toBe(200)
      expect(response.body).toEqual({
        requestId,
        policies: [],
        rulesets: [{ ruleset: 'pod-rules', passed: false, auditedAt: ISO, state: 'unchanged', version: 1, updatedAt: ISO }],
        remediations: [
          {
            ruleset: 'pod-rules',
            rule: 'no-latest',
            status: 'fail',
            severity: 'high',
            message: 'images must be pinned',
            remediation: 'Make images be pinned.',
            derived: true,
            currentStatus: 'fail',
            fields: [{ path: 'spec.containers[0].image', actual: 'nginx:latest', requirement: 'must not end with ":latest"' }],
          },
          {
            ruleset: 'pod-rules',
            rule: 'team-label',
            status: 'fail',
            severity: 'medium',
            message: 'a team label is required',
            remediation: 'Add a team label.',
            derived: false,
            currentStatus: 'fail',
            fields: [{ path: 'metadata.labels', requirement: 'must be set' }],
          },
        ],
      })
    })

    it('covers every ruleset a policy applied, with paths into the pod template the rules judged', async () => {
      const requestId = await evaluate('/api/eval/policies/production', badDeployment)
      const response = await api('GET', `/api/remediations/audits/${requestId}`, { token: admin })
      expect(response.status).toBe(200)
      expect(response.body).toEqual({
        requestId,
        policies: [{ policy: 'production', passed: false, auditedAt: ISO }],
        rulesets: [
          { ruleset: 'pod-rules', passed: false, auditedAt: ISO, state: 'unchanged', version: 1, updatedAt: ISO },
          { ruleset: 'no-priv', passed: false, auditedAt: ISO, state: 'unchanged', version: 1, updatedAt: ISO },
        ],
        remediations: [
          {
            ruleset: 'pod-rules',
            rule: 'no-latest',
            status: 'fail',
            severity: 'high',
            message: 'images must be pinned',
            autogen: 'Deployment',
            remediation: 'Make images be pinned.',
            derived: true,
            currentStatus: 'fail',
            fields: [{ path: 'spec.template.spec.containers[0].image', actual: 'nginx:latest', requirement: 'must not end with ":latest"' }],
          },
          {
            ruleset: 'no-priv',
            rule: 'no-privileged-containers',
            status: 'fail',
            severity: 'high',
            message: 'privileged containers are not allowed',
            autogen: 'Deployment',
            remediation: PRIVILEGED_REMEDIATION,
            derived: false,
            currentStatus: 'fail',
            fields: [{ path: 'spec.template.spec.containers[0].securityContext.privileged', actual: true, expected: false, requirement: 'must not be true' }],
          },
        ],
      })
    })

    it('reads a document that was sent as YAML', async () => {
      const yaml = 'inputData:\n  apiVersion: v1\n  kind: Pod\n  metadata: {name: web, labels: {team: a}}\n  spec:\n    containers: [{name: web, image: "nginx:latest"}]\n'
      const evaluated = await api('POST', '/api/eval/rulesets/pod-rules', { token: admin, raw: yaml, contentType: 'application/x-yaml' })
      expect(evaluated.status).toBe(200)
      const response = await api('GET', `/api/remediations/audits/${(evaluated.body as { requestId: string }).requestId}`, { token: admin })
      expect((response.body as { remediations: { rule: string; fields: unknown[] }[] }).remediations.map(({ rule, fields }) => ({ rule, fields }))).toEqual([
        { rule: 'no-latest', fields: [{ path: 'spec.containers[0].image', actual: 'nginx:latest', requirement: 'must not end with ":latest"' }] },
      ])
    })

    it('says the ruleset changed since the audit and judges with what it is now', async () => {
      await api('POST', '/api/rulesets/mutable', { token: admin, body: { rules: [noLatest, teamLabel] } })
      const requestId = await evaluate('/api/eval/rulesets/mutable', badPod)
      const before = (await api('GET', `/api/remediations/audits/${requestId}`, { token: admin })).body as { rulesets: { auditedAt: string }[] }
      await afterMillisecond(before.rulesets[0]?.auditedAt ?? '')
      const allowLatest = { ...noLatest, validate: { cel: [{ expression: 'true' }] } }
      expect((await api('PUT', '/api/rulesets/mutable', { token: admin, body: { rules: [allowLatest, { ...teamLabel, remediation: 'Label the pod with its team.' }] } })).status).toBe(200)
      const response = await api('GET', `/api/remediations/audits/${requestId}`, { token: admin })
      expect(response.status).toBe(200)
      const body = response.body as { rulesets: unknown[]; remediations: Record<string, unknown>[] }
      expect(body.rulesets).toEqual([{ ruleset: 'mutable', passed: false, auditedAt: ISO, state: 'changed', version: 2, updatedAt: ISO }])
      expect(body.remediations.map(({ rule, status, remediation, currentStatus, fields }) => ({ rule, status, remediation, currentStatus, fields }))).toEqual([
        // The remediation is the current rule's: what to do now, even when the audited message was another rule's.
        { rule: 'no-latest', status: 'fail', remediation: 'Change the resource so that `true` holds.', currentStatus: 'pass', fields: [] },
        { rule: 'team-label', status: 'fail', remediation: 'Label the pod with its team.', currentStatus: 'fail', fields: [{ path: 'metadata.labels', requirement: 'must be set' }] },
      ])
    })

    it('still answers when the ruleset no longer exists, from what the audit recorded', async () => {
      await api('POST', '/api/rulesets/short-lived', { token: admin, body: { rules: [noLatest, teamLabel] } })
      const requestId = await evaluate('/api/eval/rulesets/short-lived', badPod)
      expect((await api('DELETE', '/api/rulesets/short-lived', { token: admin })).status).toBe(204)
      const response = await api('GET', `/api/remediations/audits/${requestId}`, { token: admin })
      expect(response.status).toBe(200)
      const body = response.body as { rulesets: unknown[]; remediations: Record<string, unknown>[] }
      expect(body.rulesets).toEqual([{ ruleset: 'short-lived', passed: false, auditedAt: ISO, state: 'deleted' }])
      expect(body.remediations.map(({ rule, remediation, derived, currentStatus, fields }) => ({ rule, remediation, derived, currentStatus, fields }))).toEqual([
        { rule: 'no-latest', remediation: 'Make images be pinned.', derived: true, currentStatus: 'unknown', fields: [] },
        { rule: 'team-label', remediation: 'Add a team label.', derived: false, currentStatus: 'unknown', fields: [] },
      ])
    })

    it('answers an evaluation that passed with no remediations', async () => {
      const goodPod = { ...badPod, metadata: { ...badPod.metadata, labels: { team: 'a' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } }
      const requestId = await evaluate('/api/eval/rulesets/pod-rules', goodPod)
      const response = await api('GET', `/api/remediations/audits/${requestId}`, { token: admin })
      expect(response.body).toEqual({
        requestId,
        policies: [],
        rulesets: [{ ruleset: 'pod-rules', passed: true, auditedAt: ISO, state: 'unchanged', version: 1, updatedAt: ISO }],
        remediations: [],
      })
    })

    it('answers 404 when no audit has the request id', async () => {
      const response = await api('GET', '/api/remediations/audits/00000000-0000-4000-8000-000000000000', { token: admin })
      expect(response.status).toBe(404)
      expect(errorOf(response).details).toBe('audit for request "00000000-0000-4000-8000-000000000000" does not exist')
    })
  })

  describe('authentication and scopes', () => {
    it('answers 401 without a token on both routes', async () => {
      for (const path of ['/api/remediations/rulesets/pod-rules', '/api/remediations/audits/some-id']) {
        const response = await api('GET', path)
        expect(response.status).toBe(401)
        expect(errorOf(response).error).toBe('unauthorized')
      }
    })

    it('serves ruleset remediations to any token, and audit remediations only with audits:read', async () => {
      const created = await api('POST', '/api/tokens', { token: admin, body: { name: 'evaluator', scopes: ['eval'] } })
      expect(created.status).toBe(201)
      const evaluator = (created.body as { secret: string }).secret
      expect((await api('GET', '/api/remediations/rulesets/pod-rules', { token: evaluator })).status).toBe(200)
      const requestId = await evaluate('/api/eval/rulesets/pod-rules', badPod)
      const forbidden = await api('GET', `/api/remediations/audits/${requestId}`, { token: evaluator })
      expect(forbidden.status).toBe(403)
      expect(errorOf(forbidden).details).toBe('the token lacks the scope audits:read')
      const reader = (await api('POST', '/api/tokens', { token: admin, body: { name: 'reader', scopes: ['audits:read'] } })).body as { secret: string }
      expect((await api('GET', `/api/remediations/audits/${requestId}`, { token: reader.secret })).status).toBe(200)
    })
  })
})
