import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { insertPolicy } from '../../src/store/policies-repository.js'
import { policyAuditsOf, startHarness, type Harness } from './admission-harness.js'
import { postReview, type HttpsTarget } from './https-client.js'

/** A namespaced CREATE of a core object, shaped as the API server sends it. */
function createReview(uid: string, kind: string, resource: string, object: Record<string, unknown>) {
  const metadata = object.metadata as { name: string; namespace: string }
  return {
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid,
      kind: { group: '', version: 'v1', kind },
      resource: { group: '', version: 'v1', resource },
      requestKind: { group: '', version: 'v1', kind },
      requestResource: { group: '', version: 'v1', resource },
      name: metadata.name,
      namespace: metadata.namespace,
      operation: 'CREATE',
      userInfo: { username: 'bob@example.com', groups: ['system:authenticated'] },
      object: { apiVersion: 'v1', kind, ...object },
      oldObject: null,
      dryRun: false,
      options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1', fieldManager: 'kubectl-create' },
    },
  }
}

const configMap = (uid: string, strict: string) =>
  createReview(uid, 'ConfigMap', 'configmaps', { metadata: { name: 'settings', namespace: 'apps', labels: { strict } }, data: { color: 'blue' } })
const secret = (uid: string, strict: string) =>
  createReview(uid, 'Secret', 'secrets', { metadata: { name: 'token', namespace: 'apps', labels: { strict } }, type: 'Opaque', data: {} })

describe('rule errors and missing rulesets under each failurePolicy', () => {
  let h: Harness
  let target: HttpsTarget

  beforeAll(async () => {
    h = await startHarness()
    const by = 'platform@example.com'
    // `data.owner` is absent from the ConfigMaps below: the expression errors rather than fails.
    await h.definitions.createRuleset(
      'configmap-checks',
      { rules: [{ name: 'owner-is-platform', match: { kinds: ['ConfigMap'] }, validate: { cel: [{ expression: "object.data.owner == 'platform'" }] } }] },
      { by },
    )
    const strictly = (value: string) => ({ labelSelector: { matchLabels: { strict: value } } })
    await h.definitions.createPolicy('configmaps-strict', { rulesets: ['configmap-checks'], action: 'Deny', failurePolicy: 'Fail', match: strictly('true') }, { by })
    await h.definitions.createPolicy('configmaps-lenient', { rulesets: ['configmap-checks'], action: 'Deny', failurePolicy: 'Ignore', match: strictly('false') }, { by })
    // The service refuses a policy naming an unknown ruleset; one can still arrive (a CRD applied first), so it is stored directly.
    for (const [name, failurePolicy, strict] of [
      ['ghost-strict', 'Fail', 'true'],
      ['ghost-lenient', 'Ignore', 'false'],
    ] as const) {
      await insertPolicy(h.db, {
        name,
        labels: {},
        rulesets: ['vanished'],
        action: 'Deny',
        failurePolicy,
        match: { kinds: ['Secret'], ...strictly(strict) },
        source: 'api',
        createdBy: by,
        updatedBy: by,
      })
      await h.catalog.refresh({ kind: 'policy', name })
    }
    target = (await h.start()).target
  })
  afterAll(async () => {
    await h?.close()
  })

  it('denies on a rule error when failurePolicy is Fail', async () => {
    const answer = await postReview(target, configMap('error-fail', 'true'))
    const response = (answer.json as { response: { allowed: boolean; status: { code: number; message: string } } }).response
    expect(response.allowed).toBe(false)
    expect(response.status.code).toBe(403)
    expect(response.status.message).toMatch(/^configmaps-strict\/configmap-checks\/owner-is-platform: expression "object\.data\.owner == 'platform'" failed: .*owner/)
  })

  it('allows on a rule error when failurePolicy is Ignore, and still audits the error', async () => {
    const answer = await postReview(target, configMap('error-ignore', 'false'))
    expect(answer.json).toEqual({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: { uid: 'error-ignore', allowed: true, auditAnnotations: { policies: 'configmaps-lenient' } },
    })
    await h.settleAudits()
    const [audit] = await policyAuditsOf(h.db, 'error-ignore')
    expect(audit?.output.passed).toBe(true)
    expect(audit?.output.results.map((result) => [result.rule, result.status])).toEqual([['owner-is-platform', 'error']])
    expect(audit?.updatedBy).toBe('bob@example.com')
  })

  it('counts a missing ruleset as an error: denied under Fail', async () => {
    const answer = await postReview(target, secret('missing-fail', 'true'))
    expect(answer.json).toEqual({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: {
        uid: 'missing-fail',
        allowed: false,
        status: { code: 403, message: 'ghost-strict/vanished: ruleset "vanished" does not exist' },
        auditAnnotations: { policies: 'ghost-strict', 'failed-rules': 'ghost-strict/vanished' },
      },
    })
    await h.settleAudits()
    const [audit] = await policyAuditsOf(h.db, 'missing-fail')
    expect(audit?.output).toEqual({
      policy: 'ghost-strict',
      passed: false,
      results: [{ ruleset: 'vanished', rule: '', status: 'error', severity: 'high', message: 'ruleset "vanished" does not exist' }],
    })
  })

  it('counts a missing ruleset as an error: allowed under Ignore', async () => {
    const answer = await postReview(target, secret('missing-ignore', 'false'))
    expect(answer.json).toEqual({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: { uid: 'missing-ignore', allowed: true, auditAnnotations: { policies: 'ghost-lenient' } },
    })
  })
})
