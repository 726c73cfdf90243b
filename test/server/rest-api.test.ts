import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AuthoringService } from '../../src/services/authoring-service.js'
import { testDatabases } from '../support/databases.js'
import { client, errorBody, type ApiResponse } from './http-client.js'
import { startTestService, type TestService } from './test-service.js'

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

const noLatest = {
  name: 'no-latest',
  severity: 'high',
  match: { kinds: ['Pod'] },
  remediation: 'pin the image to a version',
  validate: { cel: [{ expression: "object.spec.containers.all(c, !c.image.endsWith(':latest'))", message: 'images must be pinned' }] },
}
const teamLabel = {
  name: 'team-label',
  validate: { cel: [{ expression: "has(object.metadata.labels) && 'team' in object.metadata.labels", message: 'a team label is required' }] },
}

const badPod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'shop' }, spec: { containers: [{ name: 'a', image: 'nginx:latest' }] } }
const goodPod = { ...badPod, metadata: { ...badPod.metadata, labels: { team: 'a' } }, spec: { containers: [{ name: 'a', image: 'nginx:1.27' }] } }

const rulesetYaml = `apiVersion: verdict.dev/v1alpha1
kind: Ruleset
metadata:
  name: hygiene
  labels: {platform: kubernetes, resource: pod}
spec:
  description: team ownership
  rules:
  - name: team-label
    validate:
      cel:
      - expression: "has(object.metadata.labels) && 'team' in object.metadata.labels"
        message: a team label is required
`

describe.each(testDatabases())('the REST API on $kind', ({ kind }) => {
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

  describe('authentication', () => {
    it('answers who the admin token belongs to', async () => {
      const response = await api('GET', '/api/auth/whoami', { token: admin })
      expect(response.status).toBe(200)
      expect(response.body).toEqual({ tokenId: expect.stringMatching(/^tok_/), owner: 'admin@verdict.local', scopes: ['admin'] })
      expect(response.headers.get('x-api-version')).toBe('1.0')
    })

    it('refuses a missing, malformed or unknown token with 401 and WWW-Authenticate', async () => {
      for (const token of [undefined, 'not-a-token', `vdt_${'x'.repeat(43)}`]) {
        const response = await api('GET', '/api/rulesets', token === undefined ? {} : { token })
        expect(response.status).toBe(401)
        expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/)
        expect(errorBody(response).error).toBe('unauthorized')
      }
    })

    it('serves /version to any token', async () => {
      const response = await api('GET', '/version', { token: admin })
      expect(response.status).toBe(200)
      expect(response.body).toEqual({ version: '0.1.0', apiVersion: '1.0', commit: expect.any(String) })
    })
  })

  describe('rulesets', () => {
    it('creates a ruleset from the plain JSON form (201) with its bookkeeping', async () => {
      const response = await api('POST', '/api/rulesets/pods', { token: admin, body: { labels: { platform: 'kubernetes' }, description: 'pod basics', rules: [noLatest] } })
      expect(response.status).toBe(201)
      expect(response.body).toEqual({
        name: 'pods',
        description: 'pod basics',
        labels: { platform: 'kubernetes' },
        rules: [noLatest],
        source: 'api',
        version: 1,
        createdAt: expect.stringMatching(ISO),
        createdBy: 'admin@verdict.local',
        updatedAt: expect.stringMatching(ISO),
        updatedBy: 'admin@verdict.local',
      })
    })

    it('creates a ruleset from a YAML manifest', async () => {
      const response = await api('POST', '/api/rulesets/hygiene', { token: admin, raw: rulesetYaml, contentType: 'application/x-yaml' })
      expect(response.status).toBe(201)
      expect(response.body).toMatchObject({ name: 'hygiene', description: 'team ownership', labels: { platform: 'kubernetes', resource: 'pod' }, version: 1 })
    })

    it('answers 409 for an existing name and leaves the stored ruleset alone', async () => {
      const response = await api('POST', '/api/rulesets/pods', { token: admin, body: { rules: [teamLabel] } })
      expect(response.status).toBe(409)
      expect(errorBody(response).details).toBe('ruleset "pods" already exists; use PUT to replace it')
      const stored = await api('GET', '/api/rulesets/pods', { token: admin })
      expect((stored.body as { rules: unknown[] }).rules).toEqual([noLatest])
    })

    it.each([
      ['an unknown field', { rules: [{ ...teamLabel, sevrity: 'high' }] }, 'body.rules[0].sevrity: unknown field "sevrity"'],
      ['a wrong type', { rules: [{ ...teamLabel, validate: { cel: [{ expression: 42 }] } }] }, 'body.rules[0].validate.cel[0].expression: must be string'],
      ['no rules', { labels: {} }, 'body.rules: is required'],
      ['two validate kinds', { rules: [{ name: 'x', validate: { cel: [{ expression: 'true' }], pattern: {} } }] }, 'body.rules[0].validate: has cel and pattern; a rule validates in exactly one way'],
      ['a CEL syntax error', { rules: [{ name: 'broken-rule', validate: { cel: [{ expression: 'object.(' }] } }] }, /^body\.rules\[0\] \(rule "broken-rule"\)\.validate\.cel\[0\]\.expression \(line 1, column \d+\): /],
      ['a name that differs from the path', { name: 'other', rules: [teamLabel] }, 'body.name: "other" differs from the name in the path, "fresh"'],
    ])('answers 400 naming the field for %s, storing nothing', async (_what, body, details) => {
      const response = await api('POST', '/api/rulesets/fresh', { token: admin, body })
      expect(response.status).toBe(400)
      const error = errorBody(response)
      if (typeof details === 'string') expect(error.details).toBe(details)
      else expect(error.details).toMatch(details)
      expect((await api('GET', '/api/rulesets/fresh', { token: admin })).status).toBe(404)
    })

    it('answers 400 naming the clause for an instruction no template maps, and stores nothing', async () => {
      const response = await api('POST', '/api/rulesets/fresh', { token: admin, body: { instruction: 'the moon must be made of cheese', labels: { platform: 'kubernetes' } } })
      expect(response.status).toBe(400)
      expect(errorBody(response)).toEqual({
        error: 'instruction not understood',
        details: expect.stringMatching(/^body\.instruction: sentence "the moon must be made of cheese": it states a requirement but names no field/) as unknown as string,
      })
      expect((await api('GET', '/api/rulesets/fresh', { token: admin })).status).toBe(404)
    })

    it('answers 400 for an invalid name, malformed JSON and malformed YAML', async () => {
      expect((await api('POST', '/api/rulesets/Bad_Name', { token: admin, body: { rules: [teamLabel] } })).status).toBe(400)
      const json = await api('POST', '/api/rulesets/fresh', { token: admin, raw: '{"rules": [', contentType: 'application/json' })
      expect(json.status).toBe(400)
      const yaml = await api('POST', '/api/rulesets/fresh', { token: admin, raw: 'rules: [\n', contentType: 'application/x-yaml' })
      expect(yaml.status).toBe(400)
    })

    it('answers 415 for an unsupported content type and 413 for a huge body', async () => {
      const xml = await api('POST', '/api/rulesets/fresh', { token: admin, raw: '<rules/>', contentType: 'application/xml' })
      expect(xml.status).toBe(415)
      errorBody(xml)
      const huge = await api('POST', '/api/rulesets/fresh', { token: admin, body: { rules: [teamLabel], description: 'x'.repeat(2 * 1024 * 1024) } })
      expect(huge.status).toBe(413)
      errorBody(huge)
    })

    it('returns a dry run without storing it', async () => {
      const response = await api('POST', '/api/rulesets/dry?dryRun=true', { token: admin, body: { rules: [teamLabel] } })
      expect(response.status).toBe(200)
      expect(response.body).toMatchObject({ name: 'dry', version: 1 })
      expect((await api('GET', '/api/rulesets/dry', { token: admin })).status).toBe(404)
    })

    it('replaces with PUT (version 2, creation kept) and answers 404 for an unknown name', async () => {
      const replaced = await api('PUT', '/api/rulesets/pods', { token: admin, body: { labels: { platform: 'kubernetes', tier: 'strict' }, rules: [noLatest, teamLabel] } })
      expect(replaced.status).toBe(200)
      const created = await api('GET', '/api/rulesets/hygiene', { token: admin })
      expect(replaced.body).toMatchObject({ name: 'pods', version: 2, labels: { platform: 'kubernetes', tier: 'strict' } })
      expect((replaced.body as { rules: unknown[] }).rules).toHaveLength(2)
      expect(created.status).toBe(200)
      const missing = await api('PUT', '/api/rulesets/nope', { token: admin, body: { rules: [teamLabel] } })
      expect(missing.status).toBe(404)
      expect(errorBody(missing).details).toBe('ruleset "nope" does not exist')
    })

    it('lists rulesets by name, filtered by labels', async () => {
      const all = await api('GET', '/api/rulesets', { token: admin })
      expect(all.status).toBe(200)
      expect((all.body as { rulesets: { name: string }[] }).rulesets.map((r) => r.name)).toEqual(['hygiene', 'pods'])
      const strict = await api('GET', '/api/rulesets?label=platform=kubernetes&label=tier=strict', { token: admin })
      expect((strict.body as { rulesets: { name: string }[] }).rulesets.map((r) => r.name)).toEqual(['pods'])
      const bad = await api('GET', '/api/rulesets?label=oops', { token: admin })
      expect(bad.status).toBe(400)
      expect(errorBody(bad).details).toBe('query.label: "oops" is not key=value')
    })
  })

  describe('policies', () => {
    it('creates a policy naming existing rulesets', async () => {
      const response = await api('POST', '/api/policies/prod', { token: admin, body: { labels: { env: 'prod' }, rulesets: ['pods', 'hygiene'], action: 'Deny' } })
      expect(response.status).toBe(201)
      expect(response.body).toEqual({
        name: 'prod',
        labels: { env: 'prod' },
        rulesets: ['pods', 'hygiene'],
        action: 'Deny',
        source: 'api',
        version: 1,
        createdAt: expect.stringMatching(ISO),
        createdBy: 'admin@verdict.local',
        updatedAt: expect.stringMatching(ISO),
        updatedBy: 'admin@verdict.local',
      })
    })

    it('refuses a policy naming a ruleset that does not exist, and a bad action', async () => {
      const missing = await api('POST', '/api/policies/broken', { token: admin, body: { rulesets: ['pods', 'ghost'] } })
      expect(missing.status).toBe(400)
      expect(errorBody(missing).details).toBe('body.rulesets[1]: ruleset "ghost" does not exist')
      const action = await api('POST', '/api/policies/broken', { token: admin, body: { rulesets: ['pods'], action: 'Block' } })
      expect(action.status).toBe(400)
      expect(errorBody(action).details).toBe('body.action: must be "Deny" or "Warn" or "Audit"')
    })

    it('answers 409 for an existing policy name', async () => {
      const response = await api('POST', '/api/policies/prod', { token: admin, body: { rulesets: ['pods'] } })
      expect(response.status).toBe(409)
      expect(errorBody(response).details).toBe('policy "prod" already exists; use PUT to replace it')
    })

    it('reads, lists, replaces and deletes policies', async () => {
      expect((await api('GET', '/api/policies/prod', { token: admin })).status).toBe(200)
      expect((await api('GET', '/api/policies/nope', { token: admin })).status).toBe(404)
      const list = await api('GET', '/api/policies?label=env=prod', { token: admin })
      expect((list.body as { policies: { name: string }[] }).policies.map((p) => p.name)).toEqual(['prod'])
      expect((await api('POST', '/api/policies/temp', { token: admin, body: { rulesets: ['hygiene'] } })).status).toBe(201)
      const replaced = await api('PUT', '/api/policies/temp', { token: admin, body: { rulesets: ['hygiene'], action: 'Warn' } })
      expect(replaced.body).toMatchObject({ name: 'temp', version: 2, action: 'Warn' })
      const deleted = await api('DELETE', '/api/policies/temp', { token: admin })
      expect(deleted.status).toBe(204)
      expect(deleted.body).toBeUndefined()
      expect((await api('DELETE', '/api/policies/temp', { token: admin })).status).toBe(404)
    })

    it('keeps generateValidatingAdmissionPolicy (a Verdict extension) and refuses it when not a boolean', async () => {
      const created = await api('POST', '/api/policies/generated', { token: admin, body: { rulesets: ['hygiene'], action: 'Deny', generateValidatingAdmissionPolicy: true } })
      expect(created.status, JSON.stringify(created.body)).toBe(201)
      expect(created.body).toMatchObject({ name: 'generated', generateValidatingAdmissionPolicy: true })
      expect((await api('GET', '/api/policies/generated', { token: admin })).body).toMatchObject({ generateValidatingAdmissionPolicy: true })
      const wrong = await api('PUT', '/api/policies/generated', { token: admin, body: { rulesets: ['hygiene'], generateValidatingAdmissionPolicy: 'yes' } })
      expect(wrong.status).toBe(400)
      expect(errorBody(wrong).details).toBe('body.generateValidatingAdmissionPolicy: must be boolean')
      expect((await api('DELETE', '/api/policies/generated', { token: admin })).status).toBe(204)
    })

    it('refuses to delete a ruleset a policy still names (409)', async () => {
      const response = await api('DELETE', '/api/rulesets/hygiene', { token: admin })
      expect(response.status).toBe(409)
      expect(errorBody(response).details).toBe('ruleset "hygiene" is still referenced by policy "prod"')
      expect((await api('GET', '/api/rulesets/hygiene', { token: admin })).status).toBe(200)
    })

    it('lists the labels in use', async () => {
      // Besides the labels in use, the platforms and resources instructions understand.
      const vocabulary = await new AuthoringService(service.server.catalog).vocabulary()
      const rulesets = (await api('GET', '/api/labels/rulesets', { token: admin })).body as { labels: Record<string, string[]> }
      expect(Object.keys(rulesets.labels)).toEqual(['platform', 'resource', 'tier'])
      expect(rulesets.labels.platform).toEqual(['generic', 'kubernetes', 'terraform'])
      expect(rulesets.labels.tier).toEqual(['strict'])
      expect(rulesets.labels.resource).toEqual([...new Set(['pod', ...(vocabulary.resource ?? [])])].sort())
      const policies = (await api('GET', '/api/labels/policies', { token: admin })).body as { labels: Record<string, string[]> }
      expect(policies.labels.env).toEqual(['prod'])
      expect(policies.labels.platform).toEqual(['generic', 'kubernetes', 'terraform'])
    })
  })

  describe('evaluation and audits', () => {
    let failingRequestId = ''

    it('evaluates a document against a policy and answers with the request id', async () => {
      const response = await api('POST', '/api/eval/policies/prod', { token: admin, body: { inputData: badPod } })
      expect(response.status).toBe(200)
      expect(response.body).toEqual({
        requestId: expect.stringMatching(UUID),
        policy: 'prod',
        passed: false,
        results: [
          { ruleset: 'pods', rule: 'no-latest', status: 'fail', severity: 'high', message: 'images must be pinned', remediation: 'pin the image to a version' },
          { ruleset: 'pods', rule: 'team-label', status: 'fail', severity: 'medium', message: 'a team label is required' },
          { ruleset: 'hygiene', rule: 'team-label', status: 'fail', severity: 'medium', message: 'a team label is required' },
        ],
      })
      failingRequestId = (response.body as { requestId: string }).requestId
      const passing = await api('POST', '/api/eval/policies/prod', { token: admin, body: { inputData: goodPod } })
      expect(passing.body).toEqual({ requestId: expect.stringMatching(UUID), policy: 'prod', passed: true, results: [] })
    })

    it('has written the policy audit and one ruleset audit per ruleset under the same request id', async () => {
      const policyAudit = await api('GET', `/api/audits/policies/uuid/${failingRequestId}`, { token: admin })
      expect(policyAudit.status).toBe(200)
      expect(policyAudit.body).toEqual({
        requestId: failingRequestId,
        policyAudit: {
          policyName: 'prod',
          input: JSON.stringify(badPod),
          inputFormat: 'json',
          output: { policy: 'prod', passed: false, results: expect.any(Array) },
          updatedAt: expect.stringMatching(ISO),
          updatedBy: 'admin@verdict.local',
          requestId: failingRequestId,
        },
      })
      const rulesetAudits = await api('GET', `/api/audits/rulesets/uuid/${failingRequestId}`, { token: admin })
      expect(rulesetAudits.status).toBe(200)
      const body = rulesetAudits.body as { requestId: string; rulesetAudits: { rulesetName: string; output: { ruleset: string; passed: boolean } }[] }
      expect(body.requestId).toBe(failingRequestId)
      expect(body.rulesetAudits.map((audit) => [audit.rulesetName, audit.output.ruleset, audit.output.passed]).sort()).toEqual([
        ['hygiene', 'hygiene', false],
        ['pods', 'pods', false],
      ])
      expect((await api('GET', '/api/audits/policies/uuid/nope', { token: admin })).status).toBe(404)
      expect((await api('GET', '/api/audits/rulesets/uuid/nope', { token: admin })).status).toBe(404)
    })

    it('evaluates against a ruleset, in YAML too, and audits the input as sent', async () => {
      const response = await api('POST', '/api/eval/rulesets/hygiene', {
        token: admin,
        raw: 'inputData:\n  apiVersion: v1\n  kind: Pod\n  metadata: {name: y}\n  spec: {containers: []}\n',
        contentType: 'application/yaml',
      })
      expect(response.status).toBe(200)
      expect(response.body).toEqual({
        requestId: expect.stringMatching(UUID),
        ruleset: 'hygiene',
        passed: false,
        results: [{ ruleset: 'hygiene', rule: 'team-label', status: 'fail', severity: 'medium', message: 'a team label is required' }],
      })
      const requestId = (response.body as { requestId: string }).requestId
      const audits = await api('GET', `/api/audits/rulesets/uuid/${requestId}`, { token: admin })
      expect((audits.body as { rulesetAudits: { inputFormat: string; input: string }[] }).rulesetAudits).toEqual([
        expect.objectContaining({ inputFormat: 'yaml', input: expect.stringContaining('kind: Pod') }),
      ])
    })

    it('lists passed and skipped rules when verbose', async () => {
      const response = await api('POST', '/api/eval/rulesets/pods?verbose=true', { token: admin, body: { inputData: { kind: 'ConfigMap', metadata: { name: 'c', labels: { team: 'a' } } } } })
      expect((response.body as { results: { rule: string; status: string }[] }).results.map((r) => [r.rule, r.status])).toEqual([
        ['no-latest', 'skip'],
        ['team-label', 'pass'],
      ])
    })

    it('answers 404 for an unknown policy or ruleset and 400 naming inputData', async () => {
      expect(errorBody(await api('POST', '/api/eval/policies/nope', { token: admin, body: { inputData: {} } })).details).toBe('policy "nope" does not exist')
      expect((await api('POST', '/api/eval/rulesets/nope', { token: admin, body: { inputData: {} } })).status).toBe(404)
      const missing = await api('POST', '/api/eval/policies/prod', { token: admin, body: { input: {} } })
      expect(missing.status).toBe(400)
      expect(errorBody(missing).details).toMatch(/inputData/)
      const wrongType = await api('POST', '/api/eval/policies/prod', { token: admin, body: { inputData: 'a pod' } })
      expect(wrongType.status).toBe(400)
      expect(errorBody(wrongType).details).toMatch(/inputData/)
    })

    it('lists audits newest first with the spec shape, paging and time range echoed', async () => {
      const list = await api('GET', '/api/audits/policies/prod?pageSize=1', { token: admin })
      expect(list.status).toBe(200)
      const body = list.body as Record<string, unknown> & { policyAudits: { output: { passed: boolean } }[] }
      expect(Object.keys(body).sort()).toEqual(['endTimestamp', 'page', 'pageSize', 'policyAudits', 'policyName', 'startTimestamp'])
      expect(body).toMatchObject({ policyName: 'prod', startTimestamp: '1970-01-01T00:00:00.000Z', page: 1, pageSize: 1 })
      expect(body.policyAudits).toHaveLength(1)
      expect(body.policyAudits[0]?.output.passed).toBe(true)
      const second = await api('GET', '/api/audits/policies/prod?pageSize=1&page=2', { token: admin })
      expect((second.body as typeof body).policyAudits[0]?.output.passed).toBe(false)

      const window = await api('GET', '/api/audits/policies/prod?startTimestamp=2000-01-01T00:00:00Z&endTimestamp=2001-01-01T00:00:00Z', { token: admin })
      expect(window.body).toEqual({ policyName: 'prod', startTimestamp: '2000-01-01T00:00:00Z', endTimestamp: '2001-01-01T00:00:00Z', page: 1, pageSize: 10, policyAudits: [] })
    })

    it('counts audits and lists all or globbed names', async () => {
      expect((await api('GET', '/api/audits/count/policies/prod', { token: admin })).body).toMatchObject({ policyName: 'prod', policyAuditsCount: 2 })
      expect((await api('GET', '/api/audits/count/rulesets/hygiene', { token: admin })).body).toMatchObject({ rulesetName: 'hygiene', rulesetAuditsCount: 3 })
      const all = await api('GET', '/api/audits/rulesets', { token: admin })
      expect((all.body as { rulesetName: string; rulesetAudits: unknown[] }).rulesetName).toBe('*')
      expect((all.body as { rulesetAudits: unknown[] }).rulesetAudits).toHaveLength(6)
      const globbed = await api('GET', '/api/audits/rulesets?ruleset_name=hyg*', { token: admin })
      expect((globbed.body as { rulesetAudits: { rulesetName: string }[] }).rulesetAudits.every((a) => a.rulesetName === 'hygiene')).toBe(true)
      const policies = await api('GET', '/api/audits/policies?policy_name=*', { token: admin })
      expect((policies.body as { policyAudits: unknown[] }).policyAudits).toHaveLength(2)
    })

    it.each([
      ['/api/audits/policies/prod?page=0', /query\.page/],
      ['/api/audits/policies/prod?pageSize=100000', /query\.pageSize/],
      ['/api/audits/policies/prod?pageSize=abc', /query\.pageSize/],
      ['/api/audits/policies/prod?startTimestamp=yesterday', /^query\.startTimestamp: "yesterday" is not an ISO 8601 date-time/],
      ['/api/audits/count/rulesets/pods?startTimestamp=2020-01-02T00:00:00Z&endTimestamp=2020-01-01T00:00:00Z', /^query\.startTimestamp: .* is after query\.endTimestamp/],
    ])('answers 400 naming the parameter for %s', async (path, details) => {
      const response = await api('GET', path, { token: admin })
      expect(response.status).toBe(400)
      expect(errorBody(response).details).toMatch(details)
    })

    it('audits under a fresh request id when the client sends its own X-Request-Id, which may repeat', async () => {
      const ids: string[] = []
      for (let i = 0; i < 2; i++) {
        const response = await api('POST', '/api/eval/policies/prod', { token: admin, body: { inputData: goodPod }, headers: { 'x-request-id': 'client-trace-1' } })
        expect(response.headers.get('x-request-id')).toBe('client-trace-1')
        ids.push((response.body as { requestId: string }).requestId)
      }
      expect(ids[0]).toMatch(UUID)
      expect(ids[1]).toMatch(UUID)
      expect(ids[0]).not.toBe(ids[1])
      expect((await api('GET', '/api/audits/policies/uuid/client-trace-1', { token: admin })).status).toBe(404)
    })
  })

  describe('tokens and scopes', () => {
    let reader: { id: string; secret: string }

    it('creates a token whose secret is shown once', async () => {
      const response = await api('POST', '/api/tokens', { token: admin, body: { name: 'dashboards', owner: 'ops@example.com', scopes: ['audits:read'] } })
      expect(response.status).toBe(201)
      expect(response.body).toEqual({
        id: expect.stringMatching(/^tok_/),
        name: 'dashboards',
        owner: 'ops@example.com',
        scopes: ['audits:read'],
        createdAt: expect.stringMatching(ISO),
        expiresAt: null,
        lastUsedAt: null,
        revokedAt: null,
        secret: expect.stringMatching(/^vdt_[A-Za-z0-9_-]{43}$/),
      })
      reader = response.body as { id: string; secret: string }
      const listed = await api('GET', '/api/tokens', { token: admin })
      expect(JSON.stringify(listed.body)).not.toContain(reader.secret)
      expect((await api('GET', `/api/tokens/${reader.id}`, { token: admin })).body).toMatchObject({ id: reader.id, name: 'dashboards' })
    })

    it('lets a token do what its scopes allow and answers 403 naming the missing scope', async () => {
      expect((await api('GET', '/api/audits/policies/prod', { token: reader.secret })).status).toBe(200)
      const denied = await api('POST', '/api/eval/policies/prod', { token: reader.secret, body: { inputData: goodPod } })
      expect(denied.status).toBe(403)
      expect(errorBody(denied).details).toMatch(/\beval\b/)
      expect((await api('GET', '/api/tokens', { token: reader.secret })).status).toBe(403)
      for (const [method, path] of [
        ['POST', '/api/rulesets/x'],
        ['PUT', '/api/rulesets/pods'],
        ['DELETE', '/api/rulesets/pods'],
        ['GET', '/api/rulesets'],
        ['POST', '/api/policies/x'],
        ['GET', '/api/policies/prod'],
      ] as const) {
        const response = await api(method, path, { token: reader.secret, ...(method === 'GET' ? {} : { body: { rules: [teamLabel] } }) })
        expect(response.status, `${method} ${path}`).toBe(403)
      }
      expect((await api('GET', '/api/rulesets/pods', { token: admin })).status).toBe(200)
    })

    it('refuses bad token requests', async () => {
      const scope = await api('POST', '/api/tokens', { token: admin, body: { name: 'x', scopes: ['root'] } })
      expect(scope.status).toBe(400)
      const expired = await api('POST', '/api/tokens', { token: admin, body: { name: 'x', scopes: ['eval'], expiresAt: '2000-01-01T00:00:00Z' } })
      expect(errorBody(expired).details).toBe('expiresAt must be in the future')
      expect((await api('DELETE', '/api/tokens/tok_nope', { token: admin })).status).toBe(404)
    })

    it.each([
      ['a string where a list belongs', { name: 'x', scopes: 'eval' }, /body\.scopes/],
      ['a number where a string belongs', { name: 42, scopes: ['eval'] }, /body\.name/],
      ['a field the schema does not know', { name: 'x', scopes: ['eval'], role: 'admin' }, /role/],
      ['a missing field', { name: 'x' }, /body\.scopes/],
    ])('checks bodies as sent, never coerced or trimmed: %s', async (_what, body, details) => {
      const response = await api('POST', '/api/tokens', { token: admin, body })
      expect(response.status).toBe(400)
      expect(errorBody(response).details).toMatch(details)
    })

    it('revokes a token at once', async () => {
      const revoked = await api('DELETE', `/api/tokens/${reader.id}`, { token: admin })
      expect(revoked.status).toBe(200)
      expect(revoked.body).toMatchObject({ id: reader.id, revokedAt: expect.stringMatching(ISO) })
      expect((await api('GET', '/api/audits/policies/prod', { token: reader.secret })).status).toBe(401)
    })
  })

  it('documents every route in /api/openapi.json', async () => {
    const response = await api('GET', '/api/openapi.json', { token: admin })
    expect(response.status).toBe(200)
    const paths = Object.keys((response.body as { paths: Record<string, unknown> }).paths).sort()
    expect(paths).toEqual([
      '/api/audits/count/policies/{policy_name}',
      '/api/audits/count/rulesets/{ruleset_name}',
      '/api/audits/policies',
      '/api/audits/policies/uuid/{request_id}',
      '/api/audits/policies/{policy_name}',
      '/api/audits/rulesets',
      '/api/audits/rulesets/uuid/{request_id}',
      '/api/audits/rulesets/{ruleset_name}',
      '/api/auth/whoami',
      '/api/eval/policies/{name}',
      '/api/eval/rulesets/{name}',
      '/api/exceptions',
      '/api/exceptions/{name}',
      '/api/hints/policy',
      '/api/hints/ruleset',
      '/api/labels/policies',
      '/api/labels/rulesets',
      '/api/openapi.json',
      '/api/policies',
      '/api/policies/{name}',
      '/api/prompt',
      '/api/recommendations',
      '/api/remediations/audits/{request_id}',
      '/api/remediations/rulesets/{name}',
      '/api/rulesets',
      '/api/rulesets/{name}',
      '/api/samples',
      '/api/timeseries/policies/{policy_name}',
      '/api/timeseries/rulesets/{ruleset_name}',
      '/api/tokens',
      '/api/tokens/{id}',
      '/version',
    ])
  })

  it('has every route of /api/openapi.json in docs/api.md', async () => {
    const response = await api('GET', '/api/openapi.json', { token: admin })
    const page = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'api.md'), 'utf8')
    const missing = Object.keys((response.body as { paths: Record<string, unknown> }).paths).filter((path) => {
      // Parameters may be named differently on the page ({name} for {policy_name}); the path must end where it ends.
      const pattern = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '\\{[^}]+\\}')
      return !new RegExp(`${pattern}(?=[\`?\\s,)|])`).test(page)
    })
    expect(missing).toEqual([])
  })

  it('answers unknown routes with 404 in the error shape', async () => {
    const response = await api('GET', '/api/nothing-here', { token: admin })
    expect(response.status).toBe(404)
    errorBody(response)
    expect(response.headers.get('x-api-version')).toBe('1.0')
  })
})

describe('rate limits on the whole service', () => {
  let service: TestService

  beforeAll(async () => {
    service = await startTestService('pglite', { VERDICT_RATE_LIMIT: '1', VERDICT_RATE_BURST: '3' })
  })

  afterAll(async () => {
    await service?.close()
  })

  it('answers 429 with Retry-After and RateLimit headers once a token spends its burst', async () => {
    const api = client(service.server.apiUrl)
    const statuses: number[] = []
    let last: ApiResponse | undefined
    for (let i = 0; i < 5; i++) {
      last = await api('GET', '/api/rulesets', { token: service.adminToken })
      statuses.push(last.status)
    }
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200])
    expect(last?.status).toBe(429)
    expect(Number(last?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect(last?.headers.get('ratelimit-limit')).toBe('3')
    expect(last?.headers.get('ratelimit-remaining')).toBe('0')
    expect(errorBody(last as ApiResponse)).toEqual({ error: 'rate limited', details: expect.stringMatching(/retry after \d+ s/) })
  })
})
