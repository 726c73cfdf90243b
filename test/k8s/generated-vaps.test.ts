import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DefinitionService } from '../../src/services/definition-service.js'
import { useTestDatabase } from '../support/databases.js'
import { ControllerHarness, NO_LATEST_TAG, policyResource, rulesetResource, TEAM_LABEL, type Replica } from './controller-harness.js'
import type { FakeKubeApi, Json } from './fake-kube-api.js'
import { waitFor } from './wait-for.js'

const CONDITION = 'ValidatingAdmissionPolicyGenerated'

/** The chart's webhook configuration: never kube-system nor Verdict's own namespace. */
const WEBHOOK_CONFIGURATION: Json = {
  metadata: { name: 'verdict' },
  webhooks: [
    {
      name: 'validate.verdict.dev',
      rules: [],
      namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system', 'verdict'] }] },
    },
  ],
}

const PINNED = { ...NO_LATEST_TAG, autogen: false }

function vapCondition(api: FakeKubeApi, policy: string): Json | undefined {
  const conditions = ((api.get('policies', policy)?.status as Json | undefined)?.conditions ?? []) as Json[]
  return conditions.find((condition) => condition.type === CONDITION)
}

function names(api: FakeKubeApi, resource: 'validatingadmissionpolicies' | 'validatingadmissionpolicybindings'): string[] {
  return api.list(resource).map((object) => (object.metadata as Json).name as string).sort()
}

function specOf(api: FakeKubeApi, resource: 'validatingadmissionpolicies' | 'validatingadmissionpolicybindings', name: string): Json | undefined {
  return api.get(resource, name)?.spec as Json | undefined
}

describe('generated ValidatingAdmissionPolicies kept by the controller', () => {
  let harness: ControllerHarness
  const database = useTestDatabase('pglite')

  beforeEach(async () => {
    harness = await ControllerHarness.start(database.current)
    harness.api.create('validatingwebhookconfigurations', WEBHOOK_CONFIGURATION)
  })
  afterEach(async () => {
    await harness.close()
  })

  async function generatedCondition(leader: Replica, policy: string, reason: string): Promise<Json> {
    const found = await waitFor(`${policy} ${reason}`, () => {
      const condition = vapCondition(harness.api, policy)
      return condition?.reason === reason ? condition : undefined
    })
    await harness.settled(leader)
    return found
  }

  it('creates a policy and binding per rule, labelled, owned by the Policy resource, scoped as the webhook is; Generated counts them', async () => {
    const { api } = harness
    api.create('rulesets', rulesetResource('hygiene', { rules: [NO_LATEST_TAG, TEAM_LABEL] }))
    const created = api.create('policies', policyResource('prod', { rulesets: ['hygiene'], action: 'Deny', generateValidatingAdmissionPolicy: true }))
    const leader = await harness.leader()
    const condition = await generatedCondition(leader, 'prod', 'Generated')
    const expected = ['prod-no-latest-tag', 'prod-no-latest-tag-autogen', 'prod-no-latest-tag-autogen-cronjob', 'prod-team-label']
    expect(condition).toMatchObject({
      status: 'True',
      observedGeneration: 1,
      message: `4 ValidatingAdmissionPolicies and their bindings in force (${expected.join(', ')}): the API server judges the policy's rules, and the webhook leaves them to it`,
    })
    expect(names(api, 'validatingadmissionpolicies')).toEqual(expected)
    expect(names(api, 'validatingadmissionpolicybindings')).toEqual(expected)
    const uid = (created.metadata as Json).uid
    const vap = api.get('validatingadmissionpolicies', 'prod-no-latest-tag') as Json
    expect(vap.metadata).toMatchObject({
      labels: { 'app.kubernetes.io/managed-by': 'verdict', 'verdict.dev/policy': 'prod' },
      annotations: { 'verdict.dev/policy': 'prod', 'verdict.dev/ruleset': 'hygiene', 'verdict.dev/rule': 'no-latest-tag' },
      ownerReferences: [{ apiVersion: 'verdict.dev/v1alpha1', kind: 'Policy', name: 'prod', uid, controller: true }],
    })
    expect(vap.spec).toMatchObject({ failurePolicy: 'Fail', validations: [{ expression: "object.spec.containers.all(c, !c.image.endsWith(':latest'))", message: 'container images must be pinned' }] })
    const binding = api.get('validatingadmissionpolicybindings', 'prod-no-latest-tag') as Json
    expect(binding.metadata).toMatchObject({ labels: { 'app.kubernetes.io/managed-by': 'verdict', 'verdict.dev/policy': 'prod' }, ownerReferences: [{ kind: 'Policy', name: 'prod', uid }] })
    // What the webhook is sent, and never Verdict's own namespace.
    expect(binding.spec).toEqual({
      policyName: 'prod-no-latest-tag',
      validationActions: ['Deny'],
      matchResources: {
        namespaceSelector: {
          matchExpressions: [
            { key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system', 'verdict'] },
            { key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['verdict'] },
          ],
        },
      },
    })
    // Ready stays about the store.
    expect(((api.get('policies', 'prod')?.status as Json).conditions as Json[])[0]).toMatchObject({ type: 'Ready', status: 'True' })
  })

  it('updates them when the policy or a ruleset changes, and deletes the pair of a rule removed', async () => {
    const { api } = harness
    api.create('rulesets', rulesetResource('hygiene', { rules: [PINNED, TEAM_LABEL] }))
    api.create('policies', policyResource('prod', { rulesets: ['hygiene'], action: 'Deny', generateValidatingAdmissionPolicy: true }))
    const leader = await harness.leader()
    await generatedCondition(leader, 'prod', 'Generated')
    expect(names(api, 'validatingadmissionpolicies')).toEqual(['prod-no-latest-tag', 'prod-team-label'])

    api.update('policies', policyResource('prod', { rulesets: ['hygiene'], action: 'Warn', generateValidatingAdmissionPolicy: true }))
    await waitFor('Warn bindings', () => names(api, 'validatingadmissionpolicybindings').every((name) => (specOf(api, 'validatingadmissionpolicybindings', name)?.validationActions as string[])[0] === 'Warn'))

    const stricter = { ...PINNED, validate: { cel: [{ expression: "object.spec.containers.all(c, c.image.contains('@sha256:'))", message: 'pin by digest' }] } }
    api.update('rulesets', rulesetResource('hygiene', { rules: [stricter, TEAM_LABEL] }))
    await waitFor('the new validation', () => (specOf(api, 'validatingadmissionpolicies', 'prod-no-latest-tag')?.validations as Json[] | undefined)?.[0]?.message === 'pin by digest')

    // One rule left: the policy's one pair is named after the policy, the others go.
    api.update('rulesets', rulesetResource('hygiene', { rules: [TEAM_LABEL] }))
    await waitFor('one pair', () => names(api, 'validatingadmissionpolicies').join() === 'prod' && names(api, 'validatingadmissionpolicybindings').join() === 'prod')
    const condition = await generatedCondition(leader, 'prod', 'Generated')
    expect(condition.message).toBe("1 ValidatingAdmissionPolicy and its binding in force (prod): the API server judges the policy's rules, and the webhook leaves them to it")
    expect(leader.logger.lines.filter((line) => line.message === 'ValidatingAdmissionPolicy no longer generated: deleted').map((line) => line.fields.validatingAdmissionPolicy).sort()).toEqual(['prod-no-latest-tag', 'prod-team-label'])
  })

  it('deletes them when the field is switched off, and when the policy is deleted', async () => {
    const { api } = harness
    api.create('rulesets', rulesetResource('hygiene', { rules: [PINNED] }))
    api.create('policies', policyResource('prod', { rulesets: ['hygiene'], action: 'Deny', generateValidatingAdmissionPolicy: true }))
    api.create('policies', policyResource('staging', { rulesets: ['hygiene'], action: 'Warn', generateValidatingAdmissionPolicy: true }))
    const leader = await harness.leader()
    await generatedCondition(leader, 'prod', 'Generated')
    await generatedCondition(leader, 'staging', 'Generated')
    expect(names(api, 'validatingadmissionpolicies')).toEqual(['prod', 'staging'])

    api.update('policies', policyResource('prod', { rulesets: ['hygiene'], action: 'Deny' }))
    await waitFor('prod gone', () => names(api, 'validatingadmissionpolicies').join() === 'staging' && names(api, 'validatingadmissionpolicybindings').join() === 'staging')
    // No condition once the policy no longer asks.
    await waitFor('the condition removed', () => api.get('policies', 'prod')?.metadata && vapCondition(api, 'prod') === undefined && (api.get('policies', 'prod')?.status as Json).observedGeneration === 2)

    api.delete('policies', 'staging')
    await waitFor('staging gone', () => names(api, 'validatingadmissionpolicies').length === 0 && names(api, 'validatingadmissionpolicybindings').length === 0)
    await harness.settled(leader)
  })

  it('repairs a hand edit of a spec or of its labels, and leaves alone a name that is not its own (Conflict)', async () => {
    const { api } = harness
    api.create('rulesets', rulesetResource('hygiene', { rules: [PINNED] }))
    api.create('policies', policyResource('prod', { rulesets: ['hygiene'], action: 'Deny', generateValidatingAdmissionPolicy: true }))
    const leader = await harness.leader()
    await generatedCondition(leader, 'prod', 'Generated')
    const generated = api.get('validatingadmissionpolicies', 'prod') as Json
    const generatedBinding = api.get('validatingadmissionpolicybindings', 'prod') as Json

    // kubectl edit: the validation weakened, the binding switched to Audit.
    api.update('validatingadmissionpolicies', { ...generated, spec: { ...(generated.spec as Json), validations: [{ expression: 'true' }] } })
    api.update('validatingadmissionpolicybindings', { ...generatedBinding, spec: { ...(generatedBinding.spec as Json), validationActions: ['Audit'] } })
    await waitFor('the spec repaired', () => (specOf(api, 'validatingadmissionpolicies', 'prod')?.validations as Json[])[0]?.expression === (PINNED.validate.cel[0] as Json).expression)
    await waitFor('the binding repaired', () => (specOf(api, 'validatingadmissionpolicybindings', 'prod')?.validationActions as string[])[0] === 'Deny')
    expect(leader.logger.lines.some((line) => line.message === 'ValidatingAdmissionPolicy brought back to the generated one')).toBe(true)

    // Verdict's labels taken away: the watch no longer sees it, the create finds it, and it is Verdict's by its annotation.
    const current = api.get('validatingadmissionpolicies', 'prod') as Json
    api.update('validatingadmissionpolicies', { ...current, metadata: { ...(current.metadata as Json), labels: { team: 'platform' } } })
    await waitFor('labels back', () => ((api.get('validatingadmissionpolicies', 'prod')?.metadata as Json).labels as Json)['app.kubernetes.io/managed-by'] === 'verdict')
    expect((api.get('validatingadmissionpolicies', 'prod')?.metadata as Json).labels).toEqual({ team: 'platform', 'app.kubernetes.io/managed-by': 'verdict', 'verdict.dev/policy': 'prod' })
    await generatedCondition(leader, 'prod', 'Generated')

    // A policy of someone else's holds the name another Verdict policy would take.
    api.create('validatingadmissionpolicies', { metadata: { name: 'other' }, spec: { matchConstraints: { resourceRules: [] }, validations: [{ expression: 'true' }] } })
    api.create('policies', policyResource('other', { rulesets: ['hygiene'], action: 'Deny', generateValidatingAdmissionPolicy: true }))
    const conflict = await generatedCondition(leader, 'other', 'Conflict')
    expect(conflict).toMatchObject({ status: 'False', message: 'ValidatingAdmissionPolicy "other" exists and is not Verdict\'s: it is left alone; the webhook judges their rules' })
    expect(specOf(api, 'validatingadmissionpolicies', 'other')?.validations).toEqual([{ expression: 'true' }])
    expect(api.get('validatingadmissionpolicybindings', 'other')).toBeUndefined()
  })

  it('gives a name two Verdict policies would take to the first, and to the other once it is free', async () => {
    const { api } = harness
    const team = { ...TEAM_LABEL, name: 'team' }
    api.create('rulesets', rulesetResource('ownership', { rules: [team] }))
    api.create('rulesets', rulesetResource('both', { rules: [PINNED, team] }))
    api.create('policies', policyResource('prod-team', { rulesets: ['ownership'], action: 'Deny', generateValidatingAdmissionPolicy: true }))
    const leader = await harness.leader()
    await generatedCondition(leader, 'prod-team', 'Generated')
    api.create('policies', policyResource('prod', { rulesets: ['both'], action: 'Deny', generateValidatingAdmissionPolicy: true }))
    const conflict = await generatedCondition(leader, 'prod', 'Conflict')
    expect(conflict.message).toBe('ValidatingAdmissionPolicy "prod-team" exists and was generated from Verdict policy "prod-team": it is left alone; the webhook judges their rules')
    // The rule that has its name is generated all the same.
    expect(names(api, 'validatingadmissionpolicies')).toEqual(['prod-no-latest-tag', 'prod-team'])
    expect(((api.get('validatingadmissionpolicies', 'prod-team')?.metadata as Json).annotations as Json)['verdict.dev/policy']).toBe('prod-team')

    api.delete('policies', 'prod-team')
    await waitFor('prod takes the name', () => ((api.get('validatingadmissionpolicies', 'prod-team')?.metadata as Json | undefined)?.annotations as Json | undefined)?.['verdict.dev/policy'] === 'prod')
    await generatedCondition(leader, 'prod', 'Generated')
  })

  it('says why a policy cannot be generated, naming the rule, and keeps nothing of it', async () => {
    const { api } = harness
    const pattern = { name: 'no-privileged', match: { kinds: ['Pod'] }, validate: { pattern: { spec: { containers: [{ '=(securityContext)': { '=(privileged)': false } }] } } } }
    api.create('rulesets', rulesetResource('hardening', { rules: [pattern, PINNED] }))
    api.create('policies', policyResource('hardened', { rulesets: ['hardening'], action: 'Deny', generateValidatingAdmissionPolicy: true }))
    api.create('rulesets', rulesetResource('hygiene', { rules: [PINNED] }))
    api.create('policies', policyResource('watching', { rulesets: ['hygiene'], generateValidatingAdmissionPolicy: true }))
    const leader = await harness.leader()
    expect(await generatedCondition(leader, 'hardened', 'NotGeneratable')).toMatchObject({
      status: 'False',
      message: "hardening/no-privileged validate.pattern: a pattern rule is judged by Verdict's pattern engine, not CEL: the API server runs CEL only; the webhook judges the policy",
    })
    expect(await generatedCondition(leader, 'watching', 'NotGeneratable')).toMatchObject({
      message: "action: the action is Audit (the default), whose results are Verdict's audits; the API server would keep them in its own audit log only: use Deny or Warn; the webhook judges the policy",
    })
    expect(names(api, 'validatingadmissionpolicies')).toEqual([])
    // Logged once each, for policies made through the REST API too (they have no status).
    expect(leader.logger.lines.filter((line) => line.message === 'the policy asks for generated ValidatingAdmissionPolicies but cannot be generated; the webhook judges it').map((line) => line.fields.policy).sort()).toEqual(['hardened', 'watching'])

    // Once generatable, generated; once not again, deleted.
    api.update('policies', policyResource('watching', { rulesets: ['hygiene'], action: 'Warn', generateValidatingAdmissionPolicy: true }))
    await generatedCondition(leader, 'watching', 'Generated')
    expect(names(api, 'validatingadmissionpolicies')).toEqual(['watching'])
    api.update('rulesets', rulesetResource('hygiene', { rules: [PINNED, pattern] }))
    await generatedCondition(leader, 'watching', 'NotGeneratable')
    await waitFor('deleted', () => names(api, 'validatingadmissionpolicies').length === 0)
  })

  it('refuses an API server older than the policies need, waits for the API server to type-check them, and does nothing with VERDICT_GENERATED_VAPS=off', async () => {
    const { api } = harness
    api.version = { major: '1', minor: '29' }
    api.create('rulesets', rulesetResource('hygiene', { rules: [PINNED] }))
    api.create('policies', policyResource('prod', { rulesets: ['hygiene'], action: 'Deny', generateValidatingAdmissionPolicy: true }))
    const leader = await harness.leader()
    expect((await generatedCondition(leader, 'prod', 'NotGeneratable')).message).toBe('minimumKubernetesVersion: the API server is Kubernetes 1.29, and the generated policies need 1.30; the webhook judges the policy')
    await leader.stop()

    api.version = { major: '1', minor: '31' }
    api.typeChecksVaps = false
    const next = await harness.leader('replica-b')
    expect((await generatedCondition(next, 'prod', 'Pending')).message).toBe('1 of 1 not in force yet: prod (not type-checked by the API server yet); the webhook judges their rules until they are')
    // The status controller catches up.
    const vap = api.get('validatingadmissionpolicies', 'prod') as Json
    api.update('validatingadmissionpolicies', vap)
    await fetch(`${api.url}/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies/prod/status`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ status: { observedGeneration: (vap.metadata as Json).generation } }),
    })
    await generatedCondition(next, 'prod', 'Generated')
    await next.stop()

    const off = await harness.leader('replica-c', {}, { generatedVaps: false })
    const disabled = await generatedCondition(off, 'prod', 'Disabled')
    expect(disabled.message).toBe('VERDICT_GENERATED_VAPS is off: no ValidatingAdmissionPolicy is kept; the webhook judges the policy')
    // Nothing is deleted either: switching the setting off is not switching the policies off.
    expect(names(api, 'validatingadmissionpolicies')).toEqual(['prod'])
    expect(api.requests.filter((request) => request.token === 'replica-c' && request.path.includes('validatingadmissionpolic'))).toEqual([])
  })

  it('generates a policy made through the REST API too, with Verdict\'s labels and no owner, and deletes its pair with it', async () => {
    const { api, db } = harness
    const leader = await harness.leader()
    const service = new DefinitionService(db, leader.catalog)
    await service.createRuleset('hygiene', { rules: [PINNED] }, { by: 'admin' })
    await service.createPolicy('made-by-api', { rulesets: ['hygiene'], action: 'Deny', generateValidatingAdmissionPolicy: true }, { by: 'admin' })
    await waitFor('generated', () => api.get('validatingadmissionpolicybindings', 'made-by-api'))
    const vap = api.get('validatingadmissionpolicies', 'made-by-api') as Json
    expect((vap.metadata as Json).labels).toEqual({ 'app.kubernetes.io/managed-by': 'verdict', 'verdict.dev/policy': 'made-by-api' })
    expect((vap.metadata as Json).ownerReferences).toBeUndefined()
    await service.deletePolicy('made-by-api')
    await waitFor('deleted', () => names(api, 'validatingadmissionpolicies').length === 0 && names(api, 'validatingadmissionpolicybindings').length === 0)
  })
})
