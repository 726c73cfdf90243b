import { describe, expect, it } from 'vitest'
import { ImportError, importDocuments } from '../../src/import/index.js'
import { docs } from './helpers.js'

const VAP = `
  apiVersion: admissionregistration.k8s.io/v1
  kind: ValidatingAdmissionPolicy
  metadata: { name: replica-limit }
  spec:
    failurePolicy: Ignore
    matchConstraints:
      resourceRules:
      - apiGroups: [apps]
        apiVersions: [v1]
        operations: [CREATE, UPDATE]
        resources: [deployments]
    matchConditions:
    - name: not-paused
      expression: "!has(object.spec.paused) || !object.spec.paused"
    variables:
    - name: replicas
      expression: "object.spec.?replicas.orValue(1)"
    validations:
    - expression: "variables.replicas <= 5"
      message: at most 5 replicas
`

describe('Kubernetes ValidatingAdmissionPolicy', () => {
  it('becomes a ruleset, and each binding a policy narrowed by its matchResources', () => {
    const imported = importDocuments([
      ...docs(VAP),
      ...docs(`
        apiVersion: admissionregistration.k8s.io/v1
        kind: ValidatingAdmissionPolicyBinding
        metadata: { name: replica-limit-prod }
        spec:
          policyName: replica-limit
          validationActions: [Audit, Warn]
          matchResources:
            namespaceSelector: { matchLabels: { env: prod } }
        ---
        apiVersion: admissionregistration.k8s.io/v1
        kind: ValidatingAdmissionPolicyBinding
        metadata: { name: replica-limit-all }
        spec:
          policyName: replica-limit
          validationActions: [Deny]
      `),
    ])
    expect(imported).toEqual([
      {
        sourceKind: 'ValidatingAdmissionPolicy',
        sourceName: 'replica-limit',
        rulesets: [
          {
            name: 'replica-limit',
            rules: [
              {
                name: 'replica-limit',
                match: {
                  kinds: ['apps/Deployment'],
                  operations: ['CREATE', 'UPDATE'],
                  conditions: [{ name: 'not-paused', expression: '!has(object.spec.paused) || !object.spec.paused' }],
                },
                autogen: false,
                variables: [{ name: 'replicas', expression: 'object.spec.?replicas.orValue(1)' }],
                validate: { cel: [{ expression: 'variables.replicas <= 5', message: 'at most 5 replicas' }] },
                remediation: 'Use at most 5 replicas.',
              },
            ],
          },
        ],
        policies: [
          {
            name: 'replica-limit-prod',
            rulesets: ['replica-limit'],
            match: { namespaceSelector: { matchLabels: { env: 'prod' } } },
            action: 'Warn',
            failurePolicy: 'Ignore',
          },
          { name: 'replica-limit-all', rulesets: ['replica-limit'], action: 'Deny', failurePolicy: 'Ignore' },
        ],
        skipped: [],
      },
    ])
  })

  it('imports a policy without a binding as a ruleset alone, and a lone binding as a policy naming its ruleset', () => {
    const alone = importDocuments(docs(VAP))
    expect(alone[0]?.rulesets.map((r) => r.name)).toEqual(['replica-limit'])
    expect(alone[0]?.policies).toEqual([])

    const binding = importDocuments(
      docs(`{ apiVersion: admissionregistration.k8s.io/v1beta1, kind: ValidatingAdmissionPolicyBinding, metadata: { name: b }, spec: { policyName: elsewhere, validationActions: [Deny] } }`),
    )
    expect(binding).toEqual([
      { sourceKind: 'ValidatingAdmissionPolicyBinding', sourceName: 'b', rulesets: [], policies: [{ name: 'b', rulesets: ['elsewhere'], action: 'Deny' }], skipped: [] },
    ])
  })

  it('keeps pod rules off autogen: the API server never checks pod templates', () => {
    const [imported] = importDocuments(
      docs(`{ apiVersion: admissionregistration.k8s.io/v1, kind: ValidatingAdmissionPolicy, metadata: { name: pods },
              spec: { matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: [v1], operations: ['*'], resources: [pods] }] },
                      validations: [{ expression: 'true' }] } }`),
    )
    expect(imported?.rulesets[0]?.rules[0]).toEqual({ name: 'pods', match: { kinds: ['Pod'] }, autogen: false, validate: { cel: [{ expression: 'true' }] }, remediation: 'Change the resource so that `true` holds.' })
  })

  it('skips a policy with paramKind, and its bindings with it', () => {
    const imported = importDocuments(
      docs(`
        apiVersion: admissionregistration.k8s.io/v1
        kind: ValidatingAdmissionPolicy
        metadata: { name: with-params }
        spec:
          paramKind: { apiVersion: v1, kind: ConfigMap }
          matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: [v1], operations: [CREATE], resources: [pods] }] }
          validations: [{ expression: "params.data.x == 'y'" }]
        ---
        apiVersion: admissionregistration.k8s.io/v1
        kind: ValidatingAdmissionPolicyBinding
        metadata: { name: with-params-binding }
        spec: { policyName: with-params, validationActions: [Deny], paramRef: { name: cfg, namespace: default } }
      `),
    )
    expect(imported).toEqual([
      {
        sourceKind: 'ValidatingAdmissionPolicy',
        sourceName: 'with-params',
        rulesets: [],
        policies: [],
        skipped: [
          { policy: 'with-params', rule: 'with-params', reason: 'spec.paramKind is not supported (parameter resources come from a cluster)' },
          { policy: 'with-params-binding', rule: 'with-params', reason: 'binds ValidatingAdmissionPolicy "with-params", which was not imported' },
        ],
      },
    ])
  })

  it('rejects a binding without validationActions, naming the binding document', () => {
    let error: unknown
    try {
      importDocuments([
        ...docs(VAP),
        ...docs(`{ apiVersion: admissionregistration.k8s.io/v1, kind: ValidatingAdmissionPolicyBinding, metadata: { name: b }, spec: { policyName: replica-limit } }`),
      ])
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(ImportError)
    expect((error as ImportError).field).toBe('spec.validationActions')
    expect((error as ImportError).message).toBe('ValidatingAdmissionPolicyBinding "b" (document 2): spec.validationActions: is required')
  })

  it('rejects a policy without resourceRules', () => {
    expect(() =>
      importDocuments(docs(`{ apiVersion: admissionregistration.k8s.io/v1, kind: ValidatingAdmissionPolicy, metadata: { name: p }, spec: { validations: [{ expression: 'true' }] } }`)),
    ).toThrow(expect.objectContaining({ field: 'spec.matchConstraints.resourceRules' }))
  })
})
