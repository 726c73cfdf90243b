import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { insertPolicy } from '../../src/store/policies-repository.js'
import { insertRuleset } from '../../src/store/rulesets-repository.js'
import { policyAuditsOf, startHarness, type Harness } from './admission-harness.js'
import { postReview, type HttpsTarget } from './https-client.js'

function configMapReview(uid: string, data: Record<string, unknown>) {
  return {
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid,
      kind: { group: '', version: 'v1', kind: 'ConfigMap' },
      resource: { group: '', version: 'v1', resource: 'configmaps' },
      name: 'settings',
      namespace: 'apps',
      operation: 'CREATE',
      userInfo: { username: 'bob@example.com', groups: ['system:authenticated'] },
      object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'apps' }, data },
      oldObject: null,
    },
  }
}

function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: 'x' }
  for (let level = 0; level < depth; level++) value = { a: value }
  return value
}

const by = 'platform@example.com'

describe('the webhook facing malformed stored definitions and hostile objects', () => {
  let h: Harness
  let target: HttpsTarget

  beforeAll(async () => {
    h = await startHarness()
    await h.definitions.createRuleset(
      'configmap-color',
      { rules: [{ name: 'color-is-blue', match: { kinds: ['ConfigMap'] }, validate: { cel: [{ expression: "object.data.?color.orValue('') == 'blue'" }] } }] },
      { by },
    )
    await h.definitions.createPolicy('configmaps', { rulesets: ['configmap-color'], action: 'Deny', failurePolicy: 'Fail' }, { by })
    // Rows the write checks would refuse, as an older release or a hand edit could leave them.
    const broken = { labels: {}, source: 'api' as const, createdBy: by, updatedBy: by }
    await insertPolicy(h.db, { name: 'broken-kinds', ...broken, rulesets: ['configmap-color'], action: 'Deny', match: { kinds: 5 } } as never)
    await insertRuleset(h.db, { name: 'broken-rules', ...broken, rules: 'not a list' } as never)
    await insertRuleset(h.db, { name: 'broken-cel', ...broken, rules: [{ name: 'r', validate: { cel: [{ expression: 'object.(' }] } }] })
    await h.catalog.resync()
    target = (await h.start()).target
  })
  afterAll(async () => {
    await h?.close()
  })

  it('sets aside a stored definition that fails its schema or does not compile, reporting its problems', () => {
    expect(h.catalog.policy('broken-kinds')).toBeUndefined()
    expect(h.catalog.ruleset('broken-rules')).toBeUndefined()
    expect(h.catalog.setAside().map(({ kind, name, problems }) => ({ kind, name, problems }))).toEqual([
      { kind: 'policy', name: 'broken-kinds', problems: [{ path: 'spec.match.kinds', message: 'must be array' }] },
      { kind: 'ruleset', name: 'broken-cel', problems: [{ path: 'spec.rules[0].validate.cel[0].expression', message: 'Expected IDENTIFIER, got LPAREN' }] },
      { kind: 'ruleset', name: 'broken-rules', problems: [{ path: 'spec.rules', message: 'must be array' }] },
    ])
  })

  it('answers for the other policies as if the malformed one were not there', async () => {
    const denied = await postReview(target, configMapReview('broken-neighbour-deny', { color: 'red' }))
    expect(denied.status).toBe(200)
    expect(denied.json).toEqual({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: {
        uid: 'broken-neighbour-deny',
        allowed: false,
        status: { code: 403, message: "configmaps/configmap-color/color-is-blue: failed expression: object.data.?color.orValue('') == 'blue'" },
        auditAnnotations: { policies: 'configmaps', 'failed-rules': 'configmaps/configmap-color/color-is-blue' },
      },
    })
    const allowed = await postReview(target, configMapReview('broken-neighbour-allow', { color: 'blue' }))
    expect(allowed.json).toEqual({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: { uid: 'broken-neighbour-allow', allowed: true, auditAnnotations: { policies: 'configmaps' } },
    })
    await h.settleAudits()
    expect((await policyAuditsOf(h.db, 'broken-neighbour-allow')).map((audit) => audit.policyName)).toEqual(['configmaps'])
  })

  it('serves a fixed definition again once it is replaced', async () => {
    await h.definitions.replacePolicy('broken-kinds', { rulesets: ['configmap-color'], action: 'Audit', match: { kinds: ['Secret'] } }, { by })
    expect(h.catalog.policy('broken-kinds')?.match).toEqual({ kinds: ['Secret'] })
    expect(h.catalog.setAside().map((entry) => entry.name)).toEqual(['broken-cel', 'broken-rules'])
  })

  it('answers an object nested thousands of levels deep with a decision and the reason, not an error', async () => {
    // Written as text: JSON.stringify itself overflows the stack on such a value.
    const deep = `${'{"a":'.repeat(5000)}{}${'}'.repeat(5000)}`
    const answer = await postReview(target, JSON.stringify(configMapReview('too-deep', { color: 'blue', deep: 'DEEP' })).replace('"DEEP"', deep))
    expect(answer.status).toBe(200)
    expect(answer.json).toEqual({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: {
        uid: 'too-deep',
        allowed: false,
        status: { code: 403, message: 'Verdict cannot judge this request: request.object.data.deep.a.a… nests deeper than 200 levels, the most Verdict judges' },
      },
    })
  })

  it('judges an object nested as deep as the limit allows', async () => {
    const answer = await postReview(target, configMapReview('deep-but-fine', { color: 'blue', deep: nested(150) }))
    expect((answer.json as { response: { allowed: boolean } }).response.allowed).toBe(true)
  })
})
