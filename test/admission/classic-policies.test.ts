import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { policyAuditsOf, storeImported, startHarness, type Harness } from './admission-harness.js'
import { variant } from './fixtures.js'
import { postReview, type HttpsTarget } from './https-client.js'

const BY = 'platform@example.com'

/**
 * A classic Kyverno ClusterPolicy in the style of the policy library: a precondition on the
 * operation, a context variable, foreach over every container and a deny whose message names the
 * offending image.
 */
const KYVERNO_POLICY = `
apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: restrict-image-registries
spec:
  validationFailureAction: Enforce
  rules:
    - name: validate-registries
      match:
        any:
          - resources:
              kinds: [Pod]
      preconditions:
        all:
          - key: "{{ request.operation || 'BACKGROUND' }}"
            operator: NotEquals
            value: DELETE
      context:
        - name: allowed
          variable:
            value: ["registry.example.com/*", "ghcr.io/acme/*"]
      validate:
        message: "image {{ element.image }} of {{ request.object.metadata.name }} comes from an unknown registry"
        foreach:
          - list: "request.object.spec.[initContainers, containers][]"
            deny:
              conditions:
                all:
                  - key: "{{ element.image }}"
                    operator: AnyNotIn
                    value: "{{ allowed }}"
`

function withImage(image: string) {
  return (review: { request: { object?: unknown } }) => {
    const spec = (review.request.object as { spec: { containers: { image: string }[] } }).spec
    spec.containers = spec.containers.map((container) => ({ ...container, image }))
  }
}

describe('the admission webhook with an imported classic Kyverno policy (foreach, deny, context, preconditions)', () => {
  let h: Harness
  let target: HttpsTarget

  beforeAll(async () => {
    h = await startHarness()
    await storeImported(h, KYVERNO_POLICY, BY)
    target = (await h.start()).target
  })
  afterAll(async () => {
    await h?.close()
  })

  it('denies a Pod with an image from another registry, with the substituted message, and audits it', async () => {
    const answer = await postReview(target, variant('pod-create', 'classic-pod-0001', withImage('docker.io/nginx:1.27')))
    const message = 'validation failure: image docker.io/nginx:1.27 of web comes from an unknown registry'
    expect(answer.json).toMatchObject({
      response: { uid: 'classic-pod-0001', allowed: false, status: { code: 403, message: `restrict-image-registries/restrict-image-registries/validate-registries: ${message}` } },
    })
    await h.settleAudits()
    const audits = await policyAuditsOf(h.db, 'classic-pod-0001')
    expect(audits.map((audit) => audit.output)).toEqual([
      {
        policy: 'restrict-image-registries',
        passed: false,
        results: [
          {
            ruleset: 'restrict-image-registries',
            rule: 'validate-registries',
            status: 'fail',
            severity: 'medium',
            message,
            remediation: expect.any(String) as unknown as string,
          },
        ],
      },
    ])
  })

  it('admits a Pod whose images all come from allowed registries', async () => {
    const answer = await postReview(target, variant('pod-create', 'classic-pod-0002', withImage('registry.example.com/web:1.4.2')))
    expect(answer.json).toMatchObject({ response: { uid: 'classic-pod-0002', allowed: true } })
  })

  it('judges a Deployment by its pod template (autogen); a message variable the template lacks leaves the message as written', async () => {
    const review = variant('deployment-create', 'classic-deploy-0001', (r) => {
      const template = (r.request.object as { spec: { template: { spec: { containers: { image: string }[] } } } }).spec.template
      template.spec.containers = template.spec.containers.map((container) => ({ ...container, image: 'quay.io/web:2' }))
    })
    const answer = await postReview(target, review)
    expect(answer.json).toMatchObject({ response: { allowed: false, status: { code: 403 } } })
    // As in Kyverno's autogen, request.object.metadata reads the template's metadata, which has no name.
    expect((answer.json as { response: { status: { message: string } } }).response.status.message).toBe(
      'restrict-image-registries/restrict-image-registries/validate-registries: validation failure: image {{ element.image }} of {{ request.object.metadata.name }} comes from an unknown registry',
    )
  })
})
