import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { policyAuditsOf, storeImported, rulesetAuditsOf, startHarness, type Harness } from './admission-harness.js'
import { variant } from './fixtures.js'
import { postReview, type HttpsTarget } from './https-client.js'

const BY = 'platform@example.com'

/** Two classic Kyverno ClusterPolicies in the style of the policy library: one enforced, one audited. */
const KYVERNO_POLICIES = `
apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: disallow-privileged-containers
spec:
  validationFailureAction: Enforce
  rules:
    - name: privileged-containers
      match:
        any:
          - resources:
              kinds: [Pod]
      validate:
        message: Privileged mode is disallowed
        pattern:
          spec:
            =(initContainers):
              - =(securityContext):
                  =(privileged): "false"
            containers:
              - =(securityContext):
                  =(privileged): "false"
---
apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: disallow-latest-tag
spec:
  validationFailureAction: Audit
  rules:
    - name: validate-image-tag
      match:
        any:
          - resources:
              kinds: [Pod]
      validate:
        message: Using a mutable image tag e.g. 'latest' is not allowed.
        pattern:
          spec:
            containers:
              - image: "!*:latest"
`

const PRIVILEGED = 'validation error: Privileged mode is disallowed. rule privileged-containers failed at path /spec/containers/0/securityContext/privileged/'

function privileged(container: Record<string, unknown>): Record<string, unknown> {
  return { ...container, securityContext: { privileged: true } }
}

describe('the admission webhook with imported Kyverno pattern policies', () => {
  let h: Harness
  let target: HttpsTarget

  beforeAll(async () => {
    h = await startHarness()
    await storeImported(h, KYVERNO_POLICIES, BY)
    target = (await h.start()).target
  })
  afterAll(async () => {
    await h?.close()
  })

  it('denies a privileged Pod with Kyverno\'s message, and audits the failing field', async () => {
    const review = variant('pod-create', 'pattern-pod-0001', (r) => {
      const spec = (r.request.object as { spec: { containers: Record<string, unknown>[] } }).spec
      spec.containers = spec.containers.map(privileged)
    })
    const answer = await postReview(target, review)
    expect(answer.json).toMatchObject({
      response: {
        uid: 'pattern-pod-0001',
        allowed: false,
        status: { code: 403, message: `disallow-privileged-containers/disallow-privileged-containers/privileged-containers: ${PRIVILEGED}` },
      },
    })
    await h.settleAudits()
    const audits = await policyAuditsOf(h.db, 'pattern-pod-0001')
    expect(audits.map((audit) => audit.output)).toEqual([
      {
        policy: 'disallow-latest-tag',
        passed: false,
        results: [
          {
            ruleset: 'disallow-latest-tag',
            rule: 'validate-image-tag',
            status: 'fail',
            severity: 'medium',
            message: "validation error: Using a mutable image tag e.g. 'latest' is not allowed. rule validate-image-tag failed at path /spec/containers/0/image/",
            remediation: expect.any(String) as unknown as string,
            path: 'spec.containers[0].image',
          },
        ],
      },
      {
        policy: 'disallow-privileged-containers',
        passed: false,
        results: [
          {
            ruleset: 'disallow-privileged-containers',
            rule: 'privileged-containers',
            status: 'fail',
            severity: 'medium',
            message: PRIVILEGED,
            remediation: expect.any(String) as unknown as string,
            path: 'spec.containers[0].securityContext.privileged',
          },
        ],
      },
    ])
    const rulesetAudits = await rulesetAuditsOf(h.db, 'pattern-pod-0001')
    expect(rulesetAudits.map((audit) => [audit.rulesetName, audit.output.passed])).toEqual([
      ['disallow-latest-tag', false],
      ['disallow-privileged-containers', false],
    ])
  })

  it('denies a Deployment whose pod template is privileged, naming the field in the Deployment', async () => {
    const review = variant('deployment-create', 'pattern-deploy-0001', (r) => {
      const template = (r.request.object as { spec: { template: { spec: { containers: Record<string, unknown>[] } } } }).spec.template
      template.spec.containers = template.spec.containers.map(privileged)
    })
    const answer = await postReview(target, review)
    expect(answer.json).toMatchObject({
      response: {
        allowed: false,
        status: {
          code: 403,
          message:
            'disallow-privileged-containers/disallow-privileged-containers/privileged-containers: validation error: Privileged mode is disallowed. rule privileged-containers failed at path /spec/template/spec/containers/0/securityContext/privileged/',
        },
      },
    })
    await h.settleAudits()
    const [, privilegedAudit] = await policyAuditsOf(h.db, 'pattern-deploy-0001')
    expect(privilegedAudit?.output.results).toMatchObject([{ autogen: 'Deployment', path: 'spec.template.spec.containers[0].securityContext.privileged' }])
  })

  it('admits a Pod that matches the enforced pattern; the audited policy only records its failure', async () => {
    const answer = await postReview(target, variant('pod-create', 'pattern-pod-0002'))
    expect(answer.json).toMatchObject({ response: { uid: 'pattern-pod-0002', allowed: true } })
    await h.settleAudits()
    const audits = await policyAuditsOf(h.db, 'pattern-pod-0002')
    expect(audits.map((audit) => [audit.policyName, audit.output.passed])).toEqual([
      ['disallow-latest-tag', false],
      ['disallow-privileged-containers', true],
    ])
  })
})
