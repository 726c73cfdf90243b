import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { compileException } from '../../src/engine/exceptions/compile-exception.js'
import { startController, type RunningController } from '../../src/k8s/start-controller.js'
import { DefinitionCatalog } from '../../src/services/definition-catalog.js'
import { FAST_TIMINGS, policyResource, recordingLogger, rulesetResource } from '../k8s/controller-harness.js'
import { FakeKubeApi, type Json } from '../k8s/fake-kube-api.js'
import { waitFor } from '../k8s/wait-for.js'
import { policyAuditsOf, rulesetAuditsOf, startHarness, type Harness } from './admission-harness.js'
import { variant } from './fixtures.js'
import { postReview, type HttpsTarget } from './https-client.js'

const NO_LATEST = {
  name: 'no-latest',
  match: { kinds: ['Pod'] },
  autogen: false,
  validate: { cel: [{ expression: "object.spec.containers.all(c, !c.image.endsWith(':latest'))", message: 'images must be pinned' }] },
}
const TEAM_LABEL = {
  name: 'team-label',
  match: { kinds: ['Pod'] },
  autogen: false,
  validate: { cel: [{ expression: "object.metadata.?labels.?team.orValue('') != ''", message: 'pods need a team label' }] },
}

interface ReviewAnswer {
  response: { allowed: boolean; status?: { message: string }; auditAnnotations?: Record<string, string> }
}

/**
 * The webhook beside the controller, as `verdict serve` wires them, over TLS: a rule whose
 * generated ValidatingAdmissionPolicy is in force is the API server's to judge, on every replica.
 * `enforced` asks for generated policies, `judged-here` does not.
 */
describe('the webhook and generated ValidatingAdmissionPolicies', () => {
  let h: Harness
  let api: FakeKubeApi
  let leader: RunningController
  let follower: RunningController
  let followerCatalog: DefinitionCatalog
  let leaderWebhook: HttpsTarget
  let followerWebhook: HttpsTarget

  beforeAll(async () => {
    h = await startHarness()
    api = await FakeKubeApi.start()
    api.create('namespaces', { metadata: { name: 'team-a', labels: { 'kubernetes.io/metadata.name': 'team-a' } } })
    api.create('validatingwebhookconfigurations', {
      metadata: { name: 'verdict' },
      webhooks: [{ name: 'validate.verdict.dev', rules: [], namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system', 'verdict'] }] } }],
    })
    api.create('rulesets', rulesetResource('images', { rules: [NO_LATEST] }))
    api.create('rulesets', rulesetResource('ownership', { rules: [TEAM_LABEL] }))
    api.create('policies', policyResource('enforced', { rulesets: ['images'], action: 'Deny', generateValidatingAdmissionPolicy: true }))
    api.create('policies', policyResource('judged-here', { rulesets: ['ownership'], action: 'Deny' }))
    const start = async (podName: string, catalog: DefinitionCatalog): Promise<RunningController> => {
      const running = await startController({
        config: { controller: 'on', podNamespace: 'verdict', podName, webhookConfiguration: 'verdict', events: false, scanIntervalSeconds: 0 },
        db: h.db,
        catalog,
        logger: recordingLogger(podName),
        kubeConfig: api.kubeConfig(podName),
        env: {},
        timings: FAST_TIMINGS,
      })
      if (!running) throw new Error('the controller runs')
      return running
    }
    leader = await start('verdict-0', h.catalog)
    await waitFor('verdict-0 to lead', () => leader.isLeader())
    followerCatalog = new DefinitionCatalog(h.db)
    await followerCatalog.start()
    follower = await start('verdict-1', followerCatalog)
    await Promise.all([leader.whenSynced(), follower.whenSynced()])
    leaderWebhook = (await h.start({ namespaces: leader.namespaces, generatedVaps: leader.generatedVaps })).target
    followerWebhook = (await h.start({ namespaces: follower.namespaces, generatedVaps: follower.generatedVaps })).target
    await waitFor('enforced generated', () => {
      const conditions = ((api.get('policies', 'enforced')?.status as Json | undefined)?.conditions ?? []) as Json[]
      return conditions.some((condition) => condition.type === 'ValidatingAdmissionPolicyGenerated' && condition.reason === 'Generated')
    })
    // The follower knows from its own watch, not from the leader.
    await waitFor('the follower to see it', () => follower.generatedVaps?.policy('enforced')?.typeChecked)
  })
  afterAll(async () => {
    await follower?.stop()
    await leader?.stop()
    await followerCatalog?.stop()
    await h?.close()
    await api?.close()
  })

  async function review(target: HttpsTarget, uid: string, change?: Parameters<typeof variant>[2]): Promise<ReviewAnswer['response']> {
    const answer = await postReview(target, variant('pod-create', uid, change))
    expect(answer.status).toBe(200)
    return (answer.json as ReviewAnswer).response
  }

  it('leaves a rule whose ValidatingAdmissionPolicy is in force to the API server, on the leader and the follower alike, and the audit says who judged', async () => {
    for (const [target, uid] of [
      [leaderWebhook, 'leader-1'],
      [followerWebhook, 'follower-1'],
    ] as const) {
      const response = await review(target, uid)
      // The pinned-image rule fails too, but only the API server judges it: one denial, not two.
      expect(response).toEqual({
        uid,
        allowed: false,
        status: { code: 403, message: 'judged-here/ownership/team-label: pods need a team label' },
        auditAnnotations: { policies: 'enforced,judged-here', 'failed-rules': 'judged-here/ownership/team-label', 'vap-judged-rules': 'enforced/images/no-latest' },
      })
    }
    await h.settleAudits()
    const audits = await policyAuditsOf(h.db, 'follower-1')
    expect(audits.map((audit) => [audit.policyName, audit.output.passed, audit.updatedBy])).toEqual([
      ['enforced', true, 'alice@example.com'],
      ['judged-here', false, 'alice@example.com'],
    ])
    expect(audits[0]?.output).toEqual({
      policy: 'enforced',
      passed: true,
      results: [
        {
          ruleset: 'images',
          rule: 'no-latest',
          status: 'skip',
          severity: 'medium',
          message: 'judged by ValidatingAdmissionPolicy "enforced" in the API server',
          judgedBy: 'ValidatingAdmissionPolicy',
          validatingAdmissionPolicy: 'enforced',
        },
      ],
    })
    expect((await rulesetAuditsOf(h.db, 'follower-1')).map((audit) => [audit.rulesetName, (audit.output.results[0] as Json | undefined)?.judgedBy])).toEqual([
      ['images', 'ValidatingAdmissionPolicy'],
      ['ownership', undefined],
    ])
  })

  it('judges a request the generated policy is not sent (a subresource, a namespace it does not know) itself', async () => {
    const subresource = await review(leaderWebhook, 'ephemeral-1', (r) => {
      r.request.operation = 'UPDATE'
      r.request.subResource = 'ephemeralcontainers'
      r.request.oldObject = r.request.object
    })
    expect(subresource.auditAnnotations?.['failed-rules']).toBe('enforced/images/no-latest,judged-here/ownership/team-label')
    expect(subresource.auditAnnotations?.['vap-judged-rules']).toBeUndefined()
    // Its namespace is not in the cache: the binding's namespaceSelector cannot be asked, so the webhook judges.
    const unknown = await review(leaderWebhook, 'elsewhere-1', (r) => {
      r.request.namespace = 'team-b'
      ;(r.request.object?.metadata as Json).namespace = 'team-b'
    })
    expect(unknown.status?.message).toBe('enforced/images/no-latest: images must be pinned\njudged-here/ownership/team-label: pods need a team label')
  })

  it('judges the rule itself when a PolicyException in force reaches the policy: the API server knows nothing of exceptions', async () => {
    const exception = compileException({ name: 'legacy-images', policies: ['enforced'], match: { kinds: ['Pod'], namespaces: ['team-a'] }, reason: 'migrating' })
    const target = (await h.start({ namespaces: leader.namespaces, generatedVaps: leader.generatedVaps, exemptions: () => ({ exceptions: [exception], now: new Date() }) })).target
    const response = await review(target, 'excepted-1')
    expect(response.auditAnnotations).toEqual({ policies: 'enforced,judged-here', 'failed-rules': 'judged-here/ownership/team-label', exceptions: 'legacy-images' })
  })

  it('judges the rule itself while the generated policy is edited by hand, or repaired but not yet type-checked by the API server', async () => {
    api.typeChecksVaps = false
    const generated = api.get('validatingadmissionpolicies', 'enforced') as Json
    const edited = api.update('validatingadmissionpolicies', { ...generated, spec: { ...(generated.spec as Json), validations: [{ expression: 'true' }] } })
    const editedGeneration = (edited.metadata as Json).generation as number
    // The controller puts the generated spec back; this generation waits for its type check.
    await waitFor('repaired', () => {
      const vap = api.get('validatingadmissionpolicies', 'enforced') as Json
      return ((vap.spec as Json).validations as Json[])[0]?.expression === NO_LATEST.validate.cel[0]?.expression && ((vap.metadata as Json).generation as number) > editedGeneration
    })
    const repaired = api.get('validatingadmissionpolicies', 'enforced') as Json
    await waitFor("the follower's watch", () => {
      const seen = follower.generatedVaps?.policy('enforced')
      return seen && !seen.typeChecked && ((seen.spec as Json).validations as Json[])[0]?.expression === NO_LATEST.validate.cel[0]?.expression
    })
    const untrusted = await review(followerWebhook, 'follower-untyped')
    expect(untrusted.auditAnnotations).toEqual({ policies: 'enforced,judged-here', 'failed-rules': 'enforced/images/no-latest,judged-here/ownership/team-label' })

    // kube-controller-manager type-checks it: the API server judges by it again.
    api.typeChecksVaps = true
    const patched = await fetch(`${api.url}/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies/enforced/status`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ status: { observedGeneration: (repaired.metadata as Json).generation } }),
    })
    expect(patched.status).toBe(200)
    await waitFor('type-checked', () => follower.generatedVaps?.policy('enforced')?.typeChecked)
    expect((await review(followerWebhook, 'follower-typed')).auditAnnotations?.['vap-judged-rules']).toBe('enforced/images/no-latest')
  })

  it('judges the rule again once the policy no longer asks for generated policies and they are gone', async () => {
    api.update('policies', policyResource('enforced', { rulesets: ['images'], action: 'Deny' }))
    await waitFor('the generated policy gone from the follower\'s watch', () => follower.generatedVaps?.policy('enforced') === undefined && follower.generatedVaps?.binding('enforced') === undefined)
    await waitFor('the follower\'s catalog', () => followerCatalog.policy('enforced')?.generateValidatingAdmissionPolicy === undefined)
    const response = await review(followerWebhook, 'follower-2')
    expect(response.auditAnnotations).toEqual({ policies: 'enforced,judged-here', 'failed-rules': 'enforced/images/no-latest,judged-here/ownership/team-label' })
  })
})
