import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { POD_SECURITY_TEMPLATES } from '../../src/authoring/catalog/index.js'
import { RECOMMENDATION_TYPES } from '../../src/recommendations/recommendation.js'
import { READY_TO_DENY_MIN_AUDITS } from '../../src/recommendations/ready-to-deny.js'
import { noteVerdicts } from '../../src/store/background-verdicts-repository.js'
import { insertAudits } from '../../src/store/audits-repository.js'
import { insertPolicy } from '../../src/store/policies-repository.js'
import { testDatabases } from '../support/databases.js'
import { client, errorBody } from './http-client.js'
import { startTestService, type TestService } from './test-service.js'

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
const DAY_MS = 86_400_000

const noLatest = {
  name: 'no-latest',
  match: { kinds: ['Pod'] },
  remediation: 'pin the image to a version',
  validate: { cel: [{ expression: "object.spec.containers.all(c, !c.image.endsWith(':latest'))", message: 'images must be pinned' }] },
}
const teamLabel = {
  name: 'team-label',
  validate: { cel: [{ expression: "has(object.metadata.labels) && 'team' in object.metadata.labels", message: 'a team label is required' }] },
}
/** Pods have no spec.replicas: reading it is an error, not a failure. */
const replicas = {
  name: 'replicas',
  validate: { cel: [{ expression: 'object.spec.replicas >= 2', message: 'at least two replicas' }] },
}
const always = { name: 'always', validate: { cel: [{ expression: 'true' }] } }

const badPod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'shop' }, spec: { containers: [{ name: 'a', image: 'nginx:latest' }] } }
const goodPod = { ...badPod, metadata: { ...badPod.metadata, labels: { team: 'a' } }, spec: { containers: [{ name: 'a', image: 'nginx:1.27' }] } }

const UNCOVERED = POD_SECURITY_TEMPLATES.map((template) => template.id).filter((id) => !id.endsWith('-profile') && id !== 'pss-privileged')

interface Body {
  recommendations: Array<{ id: string; type: string; target: Record<string, string>; message: string; evidence: Record<string, unknown> }>
  generatedAt: string
  days: number
}

describe.each(testDatabases())('GET /api/recommendations on $kind', ({ kind }) => {
  let service: TestService
  let api: ReturnType<typeof client>
  let admin: string
  const lastForgottenAudit = new Date(Date.now() - 20 * DAY_MS)

  const get = async (query = '', token = admin): Promise<Body> => {
    const response = await api('GET', `/api/recommendations${query}`, { token })
    expect(response.status).toBe(200)
    return response.body as Body
  }
  const ok = async (method: string, path: string, body: unknown, status = 200): Promise<void> => {
    const response = await api(method, path, { token: admin, body })
    expect(response.status, JSON.stringify(response.body)).toBe(status)
  }

  beforeAll(async () => {
    service = await startTestService(kind)
    api = client(service.server.apiUrl)
    admin = service.adminToken
    await ok('POST', '/api/rulesets/pods', { rules: [noLatest, teamLabel, replicas] }, 201)
    await ok('POST', '/api/rulesets/calm', { rules: [always] }, 201)
    await ok('POST', '/api/rulesets/orphan', { rules: [always] }, 201)
    await ok('POST', '/api/rulesets/privileged', { instruction: 'no privileged pods', labels: { platform: 'kubernetes', resource: 'pod' } }, 201)
    await ok('POST', '/api/policies/watch', { rulesets: ['pods'], action: 'Audit' }, 201)
    await ok('POST', '/api/policies/quiet', { rulesets: ['calm'], action: 'Warn' }, 201)
    await ok('POST', '/api/policies/enforce', { rulesets: ['privileged'], action: 'Deny' }, 201)
    // What the API cannot make: a policy that has existed for a month, and one naming a ruleset
    // that is gone (a Policy object applied before its Ruleset). Stored directly, then announced.
    const stamp = { source: 'api' as const, createdBy: 'admin@verdict.local', updatedBy: 'admin@verdict.local' }
    const monthAgo = new Date(Date.now() - 30 * DAY_MS).toISOString()
    await insertPolicy(service.server.db, { name: 'forgotten', rulesets: ['calm'], ...stamp, createdAt: monthAgo })
    await insertPolicy(service.server.db, { name: 'broken', rulesets: ['calm', 'ghost'], ...stamp })
    await service.server.catalog.refresh({ kind: 'policy', name: 'forgotten' })
    await service.server.catalog.refresh({ kind: 'policy', name: 'broken' })
    await insertAudits(service.server.db, {
      policyAudits: [
        {
          requestId: 'old-request',
          policyName: 'forgotten',
          input: JSON.stringify(goodPod),
          inputFormat: 'json',
          output: { policy: 'forgotten', passed: true, results: [] },
          updatedBy: 'admin@verdict.local',
          updatedAt: lastForgottenAudit,
        },
      ],
      rulesetAudits: [],
    })

    for (let i = 0; i < 3; i++) await ok('POST', '/api/eval/policies/watch', { inputData: badPod })
    await ok('POST', '/api/eval/policies/watch', { inputData: goodPod })
    for (let i = 0; i < READY_TO_DENY_MIN_AUDITS; i++) await ok('POST', '/api/eval/policies/quiet', { inputData: goodPod })
    await ok('POST', '/api/eval/rulesets/orphan', { inputData: goodPod })
  })

  afterAll(async () => {
    await service?.close()
  })

  it('answers every kind over the last 7 days by default, in a fixed order', async () => {
    const body = await get()
    expect(Object.keys(body).sort()).toEqual(['days', 'generatedAt', 'recommendations'])
    expect(body.days).toBe(7)
    expect(body.generatedAt).toMatch(ISO)
    expect(body.recommendations.map((item) => item.id)).toEqual([
      'erroring-policy:broken',
      'erroring-rule:pods/replicas',
      ...UNCOVERED.map((id) => `uncovered-pod-security-control:${id}`),
      'ready-to-deny:quiet',
      'frequent-violation:pods/no-latest',
      'frequent-violation:pods/team-label',
      'idle-policy:forgotten',
      'unused-ruleset:orphan',
    ])
    // The same findings keep their ids.
    expect((await get()).recommendations.map((item) => item.id)).toEqual(body.recommendations.map((item) => item.id))
  })

  it('names a policy whose ruleset is missing', async () => {
    expect((await get('?type=erroring-policy')).recommendations).toEqual([
      {
        id: 'erroring-policy:broken',
        type: 'erroring-policy',
        target: { kind: 'policy', name: 'broken' },
        message:
          'Policy "broken" names a ruleset that does not exist (ghost): every evaluation of it ends in error, so it fails every resource it matches (0 evaluations in the last 7 days). Create the ruleset or remove it from the policy.',
        evidence: { missingRulesets: ['ghost'], audits: 0, failurePolicy: 'Fail' },
      },
    ])
  })

  it('counts error results of a rule from the failed ruleset audits', async () => {
    const [erroring] = (await get('?type=erroring-rule')).recommendations
    expect(erroring).toEqual({
      id: 'erroring-rule:pods/replicas',
      type: 'erroring-rule',
      target: { kind: 'rule', name: 'replicas', ruleset: 'pods' },
      message: expect.stringMatching(/^Rule "replicas" of ruleset "pods" ended in error in 4 evaluations in the last 7 days \(latest: .+\): fix its expressions/) as unknown as string,
      evidence: {
        errors: 4,
        rulesetAudits: 4,
        lastErrorAt: expect.stringMatching(ISO) as unknown as string,
        latestMessage: expect.any(String) as unknown as string,
        policies: ['watch'],
        countedFrom: expect.stringMatching(ISO) as unknown as string,
        sampled: false,
        scannedAudits: 4,
      },
    })
  })

  it('lists the Pod Security controls no Deny policy enforces, judged with the engine', async () => {
    const found = (await get('?type=uncovered-pod-security-control')).recommendations
    expect(found.map((item) => item.target.name)).toEqual(UNCOVERED)
    expect(found.find((item) => item.target.name === 'pss-host-path')).toEqual({
      id: 'uncovered-pod-security-control:pss-host-path',
      type: 'uncovered-pod-security-control',
      target: { kind: 'control', name: 'pss-host-path' },
      message:
        'Pod Security baseline control "No hostPath volumes" (pss-host-path) is not enforced: no Deny admission policy rejects its non-compliant sample (a pod with a hostPath volume). ' +
        'To enforce it, create a ruleset from the instruction "no hostPath volumes" and apply it in a policy with action Deny.',
      evidence: { title: 'No hostPath volumes', level: 'baseline', samples: 1, admitted: 1, admittedSamples: ['a pod with a hostPath volume'], denyPolicies: 1, templateRules: [] },
    })
  })

  it('finds the Warn policy that never failed ready to Deny, and not the Audit policy that did', async () => {
    expect((await get('?type=ready-to-deny')).recommendations).toEqual([
      {
        id: 'ready-to-deny:quiet',
        type: 'ready-to-deny',
        target: { kind: 'policy', name: 'quiet' },
        message: `Policy "quiet" (action Warn) passed all ${READY_TO_DENY_MIN_AUDITS} evaluations in the last 7 days: set its action to Deny to enforce it.`,
        evidence: { action: 'Warn', audits: READY_TO_DENY_MIN_AUDITS, failures: 0, minAudits: READY_TO_DENY_MIN_AUDITS, since: expect.stringMatching(ISO) as unknown as string, existingObjects: null, existingViolations: null },
      },
    ])
  })

  it('lists the most frequent violations with the remediation, or the message', async () => {
    const found = (await get('?type=frequent-violation')).recommendations
    expect(found.map((item) => [item.id, item.message])).toEqual([
      ['frequent-violation:pods/no-latest', 'Rule "no-latest" of ruleset "pods" failed 3 times in the last 7 days (50% of rule failures). Remediation: pin the image to a version'],
      ['frequent-violation:pods/team-label', 'Rule "team-label" of ruleset "pods" failed 3 times in the last 7 days (50% of rule failures). The rule reports: a team label is required'],
    ])
    expect(found[0]?.evidence).toEqual({
      failures: 3,
      share: 0.5,
      rulesetAudits: 4,
      lastFailedAt: expect.stringMatching(ISO),
      remediation: 'pin the image to a version',
      countedFrom: expect.stringMatching(ISO),
      sampled: false,
      scannedAudits: 4,
    })
  })

  it('calls a policy idle when it had no audit in the window, and not when the window reaches its last one', async () => {
    expect((await get('?type=idle-policy')).recommendations).toEqual([
      {
        id: 'idle-policy:forgotten',
        type: 'idle-policy',
        target: { kind: 'policy', name: 'forgotten' },
        message: `Policy "forgotten" was not evaluated in the last 7 days (last evaluated ${lastForgottenAudit.toISOString()}): check that its match and its rulesets select resources that are evaluated, or delete it.`,
        evidence: { audits: 0, lastAuditAt: lastForgottenAudit.toISOString(), createdAt: expect.stringMatching(ISO) },
      },
    ])
    const month = await get('?days=30&type=idle-policy')
    expect(month.days).toBe(30)
    expect(month.recommendations).toEqual([])
  })

  it('lists the ruleset no policy applies, with its direct evaluations', async () => {
    expect((await get('?type=unused-ruleset')).recommendations).toEqual([
      {
        id: 'unused-ruleset:orphan',
        type: 'unused-ruleset',
        target: { kind: 'ruleset', name: 'orphan' },
        message: 'No policy applies ruleset "orphan" by name or by rulesetSelector (evaluated directly 1 time in the last 7 days): add it to a policy or delete it.',
        evidence: { policies: 0, rules: 1, rulesetAudits: 1 },
      },
    ])
  })

  it('lists the objects already running that fail a policy, from the background scans, and keeps them from ready-to-deny', async () => {
    const verdict = (policy: string, object: string, failures: number) => ({ policy, object, digest: `d${failures}`, passed: failures === 0, failures })
    await noteVerdicts(service.server.db, [verdict('watch', 'v1/Pod/shop/web', 2), verdict('watch', 'v1/Pod/shop/api', 0), verdict('quiet', 'v1/Pod/shop/web', 1)], new Date())
    try {
      const body = await get('?type=violations-in-cluster&type=ready-to-deny')
      expect(body.recommendations.map((item) => item.id)).toEqual(['violations-in-cluster:quiet', 'violations-in-cluster:watch'])
      expect(body.recommendations[1]).toMatchObject({ evidence: { action: 'Audit', failing: 1, scanned: 2, objects: ['v1/Pod/shop/web'] } })
    } finally {
      await service.server.db.query('DELETE FROM background_verdicts')
    }
  })

  it('filters by several types', async () => {
    const body = await get('?type=unused-ruleset&type=ready-to-deny')
    expect(body.recommendations.map((item) => item.id)).toEqual(['ready-to-deny:quiet', 'unused-ruleset:orphan'])
  })

  it('follows definition changes: a ruleset put in a policy is no longer unused', async () => {
    await ok('POST', '/api/policies/uses-orphan', { rulesets: ['orphan'], admission: false }, 201)
    expect((await get('?type=unused-ruleset')).recommendations).toEqual([])
    await ok('DELETE', '/api/policies/uses-orphan', undefined, 204)
    expect((await get('?type=unused-ruleset')).recommendations.map((item) => item.id)).toEqual(['unused-ruleset:orphan'])
  })

  it('serves any valid token, whatever its scopes', async () => {
    const created = await api('POST', '/api/tokens', { token: admin, body: { name: 'ci', owner: 'ci@example.com', scopes: ['eval'] } })
    expect(created.status).toBe(201)
    const body = await get('?type=unused-ruleset', (created.body as { secret: string }).secret)
    expect(body.recommendations).toHaveLength(1)
  })

  it('answers 401 without a token', async () => {
    const response = await api('GET', '/api/recommendations')
    expect(response.status).toBe(401)
    expect(errorBody(response).error).toBe('unauthorized')
  })

  it.each([
    ['?days=0', 'query.days must be >= 1'],
    ['?days=366', 'query.days must be <= 365'],
    ['?days=1.5', 'query.days must be an integer'],
    ['?days=week', 'query.days must be an integer'],
    ['?type=everything', `query.type[0] must be one of ${RECOMMENDATION_TYPES.map((type) => JSON.stringify(type)).join(', ')}`],
    ['?day=30', 'query.day is not allowed'],
  ])('answers 400 naming the parameter for %s', async (query, details) => {
    const response = await api('GET', `/api/recommendations${query}`, { token: admin })
    expect(response.status).toBe(400)
    expect(errorBody(response)).toEqual({ error: 'bad request', details })
  })
})
