import { describe, expect, it } from 'vitest'
import { ImportError, importDocuments, type ImportedDocument } from '../../src/import/index.js'
import { docs } from './helpers.js'

function importOne(text: string): ImportedDocument {
  const imported = importDocuments(docs(text))
  expect(imported).toHaveLength(1)
  return imported[0] as ImportedDocument
}

function importError(text: string): ImportError {
  try {
    importDocuments(docs(text))
  } catch (error) {
    if (error instanceof ImportError) return error
    throw error
  }
  throw new Error('expected an ImportError')
}

describe('Kyverno ClusterPolicy', () => {
  it('maps a validate.cel rule, its metadata and the policy settings', () => {
    const imported = importOne(`
      apiVersion: kyverno.io/v1
      kind: ClusterPolicy
      metadata:
        name: require-team-label
        annotations:
          policies.kyverno.io/description: >-
            Every Pod names
            its team.
          policies.kyverno.io/severity: High
      spec:
        validationFailureAction: enforce
        failurePolicy: Ignore
        rules:
        - name: check-team
          match:
            any:
            - resources:
                kinds: [Pod]
                operations: [CREATE, UPDATE]
          celPreconditions:
          - name: not-system
            expression: "object.metadata.namespace != 'kube-system'"
          validate:
            message: The team label is required.
            cel:
              variables:
              - name: team
                expression: "object.metadata.?labels.team.orValue('')"
              expressions:
              - expression: "variables.team != ''"
                message: team must be set
              - expression: "variables.team.size() < 64"
                messageExpression: "'team too long: ' + variables.team"
    `)
    expect(imported).toEqual({
      sourceKind: 'ClusterPolicy',
      sourceName: 'require-team-label',
      rulesets: [
        {
          name: 'require-team-label',
          description: 'Every Pod names its team.',
          rules: [
            {
              name: 'check-team',
              severity: 'high',
              match: {
                any: [{ kinds: ['Pod'], operations: ['CREATE', 'UPDATE'] }],
                conditions: [{ name: 'not-system', expression: "object.metadata.namespace != 'kube-system'" }],
              },
              autogen: true,
              variables: [{ name: 'team', expression: "object.metadata.?labels.team.orValue('')" }],
              validate: {
                cel: [
                  { expression: "variables.team != ''", message: 'team must be set' },
                  { expression: 'variables.team.size() < 64', messageExpression: "'team too long: ' + variables.team" },
                ],
              },
              message: 'The team label is required.',
              remediation: 'Add the team label.',
            },
          ],
        },
      ],
      policies: [
        {
          name: 'require-team-label',
          description: 'Every Pod names its team.',
          rulesets: ['require-team-label'],
          action: 'Deny',
          failurePolicy: 'Ignore',
        },
      ],
      skipped: [],
    })
  })

  it('defaults to Audit and Fail, ignores an unknown severity and keeps admission: false', () => {
    const imported = importOne(`
      apiVersion: kyverno.io/v2beta1
      kind: ClusterPolicy
      metadata:
        name: audit-only
        annotations: { policies.kyverno.io/severity: urgent }
      spec:
        admission: false
        rules:
        - name: r
          match: { any: [{ resources: { kinds: [ConfigMap] } }] }
          validate: { cel: { expressions: [{ expression: 'true' }] } }
    `)
    expect(imported.policies).toEqual([{ name: 'audit-only', rulesets: ['audit-only'], action: 'Audit', failurePolicy: 'Fail', admission: false }])
    expect(imported.rulesets[0]?.rules[0]).toEqual({
      name: 'r',
      match: { any: [{ kinds: ['ConfigMap'] }] },
      autogen: false,
      validate: { cel: [{ expression: 'true' }] },
      remediation: 'Change the resource so that `true` holds.',
    })
  })

  describe('pattern rules', () => {
    it('maps validate.pattern and validate.anyPattern with the message, match and autogen of CEL rules', () => {
      const imported = importOne(`
        apiVersion: kyverno.io/v1
        kind: ClusterPolicy
        metadata: { name: pod-security }
        spec:
          validationFailureAction: Enforce
          rules:
          - name: privileged
            match: { any: [{ resources: { kinds: [Pod] } }] }
            exclude: { any: [{ resources: { namespaces: [kube-system] } }] }
            validate:
              message: Privileged mode is disallowed.
              pattern:
                spec:
                  containers:
                  - =(securityContext):
                      =(privileged): "false"
          - name: non-root
            match: { any: [{ resources: { kinds: [Pod] } }] }
            validate:
              anyPattern:
              - spec: { securityContext: { runAsNonRoot: true } }
              - spec: { containers: [{ securityContext: { runAsNonRoot: true } }] }
      `)
      expect(imported.skipped).toEqual([])
      expect(imported.policies).toMatchObject([{ name: 'pod-security', rulesets: ['pod-security'], action: 'Deny' }])
      const [privileged, nonRoot] = imported.rulesets[0]?.rules ?? []
      expect(privileged).toEqual({
        name: 'privileged',
        match: { any: [{ kinds: ['Pod'] }], exclude: { any: [{ namespaces: ['kube-system'] }] } },
        autogen: true,
        validate: { pattern: { spec: { containers: [{ '=(securityContext)': { '=(privileged)': 'false' } }] } } },
        message: 'Privileged mode is disallowed.',
        remediation: expect.any(String) as unknown as string,
      })
      expect(nonRoot).toMatchObject({
        name: 'non-root',
        autogen: true,
        validate: { anyPattern: [{ spec: { securityContext: { runAsNonRoot: true } } }, { spec: { containers: [{ securityContext: { runAsNonRoot: true } }] } }] },
      })
      expect(nonRoot?.message).toBeUndefined()
    })

    it.each([
      ['both pattern and anyPattern', 'validate: { pattern: { a: 1 }, anyPattern: [{ a: 1 }] }', 'spec.rules[0].validate', 'has pattern and anyPattern; a rule validates in exactly one way'],
      ['an empty anyPattern', 'validate: { anyPattern: [] }', 'spec.rules[0].validate.anyPattern', 'must list at least one pattern'],
      ['celPreconditions on a pattern rule', 'celPreconditions: [{ name: a, expression: "true" }]\n            validate: { pattern: { a: 1 } }', 'spec.rules[0].celPreconditions', 'applies to validate.cel rules only'],
    ])('rejects %s, as Kyverno does', (_what, rule, field, problem) => {
      const error = importError(`
        apiVersion: kyverno.io/v1
        kind: ClusterPolicy
        metadata: { name: p }
        spec:
          rules:
          - name: r
            match: { any: [{ resources: { kinds: [Pod] } }] }
            ${rule}
      `)
      expect([error.field, error.problem]).toEqual([field, problem])
    })
  })

  describe('match and exclude', () => {
    it('translates the legacy match.resources form with every resource filter', () => {
      const imported = importOne(`
        apiVersion: kyverno.io/v1
        kind: ClusterPolicy
        metadata: { name: legacy }
        spec:
          rules:
          - name: r
            match:
              resources:
                kinds: [Service]
                name: frontend
                names: ["api-*"]
                namespaces: ["prod-*"]
                operations: [CREATE]
                selector: { matchLabels: { tier: web } }
                namespaceSelector:
                  matchExpressions: [{ key: env, operator: In, values: [prod] }]
            validate: { cel: { expressions: [{ expression: 'true' }] } }
      `)
      expect(imported.rulesets[0]?.rules[0]?.match).toEqual({
        kinds: ['Service'],
        names: ['frontend', 'api-*'],
        namespaces: ['prod-*'],
        operations: ['CREATE'],
        labelSelector: { matchLabels: { tier: 'web' } },
        namespaceSelector: { matchExpressions: [{ key: 'env', operator: 'In', values: ['prod'] }] },
      })
    })

    it('keeps match.all and exclude.any / exclude.all as alternatives and conjunctions', () => {
      const imported = importOne(`
        apiVersion: kyverno.io/v1
        kind: ClusterPolicy
        metadata: { name: blocks }
        spec:
          rules:
          - name: all-and-exclude-any
            match:
              all:
              - resources: { kinds: [NetworkPolicy] }
              - resources: { namespaces: [team-*] }
            exclude:
              any:
              - resources: { kinds: [NetworkPolicy], names: [default-deny] }
              - resources: { namespaces: [team-admin] }
            validate: { cel: { expressions: [{ expression: 'true' }] } }
          - name: exclude-all
            match:
              any:
              - resources: { kinds: [NetworkPolicy] }
            exclude:
              all:
              - resources: { namespaces: [kube-*] }
              - resources: { selector: { matchLabels: { system: "true" } } }
            validate: { cel: { expressions: [{ expression: 'true' }] } }
      `)
      const [first, second] = imported.rulesets[0]?.rules ?? []
      expect(first?.match).toEqual({
        all: [{ kinds: ['NetworkPolicy'] }, { namespaces: ['team-*'] }],
        exclude: { any: [{ kinds: ['NetworkPolicy'], names: ['default-deny'] }, { namespaces: ['team-admin'] }] },
      })
      expect(second?.match).toEqual({
        any: [{ kinds: ['NetworkPolicy'] }],
        exclude: { all: [{ namespaces: ['kube-*'] }, { labelSelector: { matchLabels: { system: 'true' } } }] },
      })
    })

    it('writes Kyverno kinds in the forms the model reads, subresources as the object they carry', () => {
      const imported = importOne(`
        apiVersion: kyverno.io/v1
        kind: ClusterPolicy
        metadata: { name: kinds }
        spec:
          rules:
          - name: r
            match:
              any:
              - resources:
                  kinds: [v1/Pod, apps/v1/Deployment, batch/*/CronJob, Pod/exec, v1/Pod.status, Deployment/scale, Pod/eviction, "*"]
            validate: { cel: { expressions: [{ expression: 'true' }] } }
      `)
      expect(imported.rulesets[0]?.rules[0]?.match?.any?.[0]?.kinds).toEqual([
        'v1/Pod',
        'apps/v1/Deployment',
        'batch/CronJob',
        'PodExecOptions',
        'autoscaling/Scale',
        'policy/Eviction',
        '*',
      ])
    })

    it('restricts the rules of a namespaced Policy to its namespace', () => {
      const imported = importOne(`
        apiVersion: kyverno.io/v1
        kind: Policy
        metadata: { name: local, namespace: team-a }
        spec:
          rules:
          - name: plain
            match: { any: [{ resources: { kinds: [ConfigMap] } }] }
            validate: { cel: { expressions: [{ expression: 'true' }] } }
          - name: has-namespaces
            match: { resources: { kinds: [ConfigMap], namespaces: ["team-*"] } }
            validate: { cel: { expressions: [{ expression: 'true' }] } }
      `)
      expect(imported.sourceKind).toBe('Policy')
      expect(imported.sourceName).toBe('team-a/local')
      expect(imported.rulesets[0]?.rules.map((rule) => rule.match)).toEqual([
        { any: [{ kinds: ['ConfigMap'] }], namespaces: ['team-a'] },
        { kinds: ['ConfigMap'], namespaces: ['team-*'], all: [{ namespaces: ['team-a'] }] },
      ])
    })
  })

  describe('autogen', () => {
    const policy = (annotations: string, rules: string) => `
      apiVersion: kyverno.io/v1
      kind: ClusterPolicy
      metadata:
        name: p
        annotations: {${annotations}}
      spec:
        rules:
${rules}
    `
    const rule = (name: string, resources: string) => `
        - name: ${name}
          match: { any: [{ resources: ${resources} }] }
          validate: { cel: { expressions: [{ expression: 'true' }] } }`
    const autogenOf = (text: string) => importOne(text).rulesets[0]?.rules.map((r) => r.autogen)

    it('is on by default for Pod rules, and off for the rules that name no Pod', () => {
      expect(autogenOf(policy('', rule('pods', '{ kinds: [Pod] }') + rule('services', '{ kinds: [Service] }')))).toEqual([true, false])
    })

    it('follows the autogen-controllers annotation', () => {
      expect(autogenOf(policy('pod-policies.kyverno.io/autogen-controllers: none', rule('pods', '{ kinds: [Pod] }')))).toEqual([false])
      expect(
        autogenOf(policy('pod-policies.kyverno.io/autogen-controllers: "Deployment, CronJob,Unknown"', rule('pods', '{ kinds: [Pod] }'))),
      ).toEqual([{ controllers: ['Deployment', 'CronJob'] }])
    })

    it('is off for the whole policy when a rule filters on names or a selector, or mixes Pod with other kinds', () => {
      expect(autogenOf(policy('', rule('a', '{ kinds: [Pod] }') + rule('b', '{ kinds: [Pod], names: [web] }')))).toEqual([false, false])
      expect(autogenOf(policy('', rule('a', '{ kinds: [Pod], selector: { matchLabels: { a: b } } }')))).toEqual([false])
      expect(autogenOf(policy('', rule('a', '{ kinds: [Pod] }') + rule('b', '{ kinds: [Pod, Deployment] }')))).toEqual([false, false])
    })

    it('counts skipped rules when deciding, as Kyverno does', () => {
      const imported = importOne(`
        apiVersion: kyverno.io/v1
        kind: ClusterPolicy
        metadata: { name: p }
        spec:
          rules:
          - name: cel
            match: { any: [{ resources: { kinds: [Pod] } }] }
            validate: { cel: { expressions: [{ expression: 'true' }] } }
          - name: generated
            match: { any: [{ resources: { kinds: [Namespace] } }] }
            generate: { kind: ConfigMap, name: x, namespace: y, data: {} }
      `)
      expect(imported.rulesets[0]?.rules.map((r) => r.autogen)).toEqual([false])
      expect(imported.skipped).toEqual([{ policy: 'p', rule: 'generated', reason: 'generate rules are not supported' }])
    })
  })

  describe('skipped rules', () => {
    it('reports every rule Verdict cannot judge as Kyverno does, with its kind, and imports the classic ones', () => {
      const imported = importOne(`
        apiVersion: kyverno.io/v1
        kind: ClusterPolicy
        metadata: { name: mixed }
        spec:
          rules:
          - { name: variables, match: { any: [{ resources: { kinds: [Pod] } }] }, validate: { pattern: { metadata: { name: '{{ request.object.metadata.labels.app }}' } } } }
          - { name: reference, match: { any: [{ resources: { kinds: [Pod] } }] }, validate: { pattern: { spec: { x: '$(./../y)' } } } }
          - { name: mutate-anchor, match: { any: [{ resources: { kinds: [Pod] } }] }, validate: { anyPattern: [{ spec: {} }, { spec: { +(x): 'y' } }] } }
          - { name: deny, match: { any: [{ resources: { kinds: [Pod] } }] }, validate: { deny: { conditions: { any: [] } } } }
          - { name: foreach, match: { any: [{ resources: { kinds: [Pod] } }] }, validate: { foreach: [{ list: x, deny: {} }] } }
          - { name: pss, match: { any: [{ resources: { kinds: [Pod] } }] }, validate: { podSecurity: { level: baseline } } }
          - { name: mutate, match: { any: [{ resources: { kinds: [Pod] } }] }, mutate: { patchStrategicMerge: {} } }
          - { name: verify, match: { any: [{ resources: { kinds: [Pod] } }] }, verifyImages: [{ imageReferences: ["*"] }] }
          - name: params
            match: { any: [{ resources: { kinds: [Pod] } }] }
            validate: { cel: { paramKind: { apiVersion: v1, kind: ConfigMap }, expressions: [{ expression: 'true' }] } }
          - name: context
            match: { any: [{ resources: { kinds: [Pod] } }] }
            context: [{ name: cm, configMap: { name: x, namespace: y } }]
            validate: { cel: { expressions: [{ expression: 'true' }] } }
      `)
      const reasons = Object.fromEntries(imported.skipped.map((s) => [s.rule, s.reason]))
      expect(reasons).toEqual({
        'mutate-anchor': 'spec.rules[2].validate.anyPattern[1].spec["+(x)"]: the anchor "+(x)" adds a field in mutate overlays; validate patterns do not accept it',
        mutate: 'mutate rules are not supported',
        verify: 'verifyImages rules are not supported',
        params: 'validate.cel with paramKind/paramRef is not supported (parameter resources come from a cluster)',
      })
      expect(imported.skipped.every((s) => s.policy === 'mixed')).toBe(true)
      expect(imported.rulesets.flatMap((ruleset) => ruleset.rules.map((rule) => rule.name))).toEqual(['variables', 'reference', 'deny', 'foreach', 'pss', 'context'])
      const byName = new Map(imported.rulesets[0]?.rules.map((rule) => [rule.name, rule]))
      expect(byName.get('deny')?.validate).toEqual({ deny: { conditions: { any: [] } } })
      expect(byName.get('foreach')?.validate).toEqual({ foreach: [{ list: 'x', deny: {} }] })
      expect(byName.get('context')?.context).toEqual([{ name: 'cm', configMap: { name: 'x', namespace: 'y' } }])
    })

    it('skips rules whose match the model cannot express, naming the field', () => {
      const imported = importOne(`
        apiVersion: kyverno.io/v1
        kind: ClusterPolicy
        metadata: { name: unmatchable }
        spec:
          rules:
          - name: by-role
            match: { any: [{ resources: { kinds: [Pod] }, clusterRoles: [admin] }] }
            validate: { cel: { expressions: [{ expression: 'true' }] } }
          - name: by-annotation
            match: { any: [{ resources: { kinds: [Pod], annotations: { 'team.*': 'pay*' } }, subjects: [{ kind: ServiceAccount, name: ci, namespace: build }] }] }
            validate: { cel: { expressions: [{ expression: 'true' }] } }
          - name: status-only
            match: { any: [{ resources: { kinds: [Pod/status] } }] }
            validate: { cel: { expressions: [{ expression: 'true' }] } }
          - name: status-and-pod
            match: { any: [{ resources: { kinds: [Pod, Pod/status] } }] }
            validate: { cel: { expressions: [{ expression: 'true' }] } }
      `)
      expect(imported.skipped).toEqual([
        {
          policy: 'unmatchable',
          rule: 'by-role',
          reason: "spec.rules[0].match.any[0].clusterRoles: matching on the requesting user's roles is not supported (Verdict does not read RBAC bindings); subjects are",
        },
        {
          policy: 'unmatchable',
          rule: 'status-only',
          reason:
            "spec.rules[2].match.any: matches a subresource of Pod but not Pod itself; such requests carry the Pod object, and Verdict's match cannot tell them apart from ordinary Pod requests",
        },
      ])
      expect(imported.rulesets[0]?.rules.map((r) => [r.name, r.match?.any?.[0]?.kinds])).toEqual([
        ['by-annotation', ['Pod']],
        ['status-and-pod', ['Pod']],
      ])
      expect(imported.rulesets[0]?.rules[0]?.match?.any?.[0]).toEqual({
        kinds: ['Pod'],
        annotations: { 'team.*': 'pay*' },
        subjects: [{ kind: 'ServiceAccount', name: 'ci', namespace: 'build' }],
      })
    })
  })

  describe('actions', () => {
    it('splits rules with different failure actions into one ruleset and policy per action', () => {
      const imported = importOne(`
        apiVersion: kyverno.io/v1
        kind: ClusterPolicy
        metadata: { name: split }
        spec:
          validationFailureAction: Audit
          rules:
          - name: enforced
            match: { any: [{ resources: { kinds: [Service] } }] }
            validate: { failureAction: Enforce, cel: { expressions: [{ expression: 'true' }] } }
          - name: audited
            match: { any: [{ resources: { kinds: [Service] } }] }
            validate: { cel: { expressions: [{ expression: 'true' }] } }
      `)
      expect(imported.rulesets.map((r) => [r.name, r.rules.map((rule) => rule.name)])).toEqual([
        ['split', ['audited']],
        ['split-enforce', ['enforced']],
      ])
      expect(imported.policies).toEqual([
        { name: 'split', rulesets: ['split'], action: 'Audit', failurePolicy: 'Fail' },
        { name: 'split-enforce', rulesets: ['split-enforce'], action: 'Deny', failurePolicy: 'Fail' },
      ])
    })

    it('turns validationFailureActionOverrides into policies limited to their namespaces', () => {
      const imported = importOne(`
        apiVersion: kyverno.io/v1
        kind: ClusterPolicy
        metadata: { name: overrides }
        spec:
          validationFailureAction: Enforce
          validationFailureActionOverrides:
          - { action: Audit, namespaces: [dev-*] }
          - { action: Audit, namespaceSelector: { matchLabels: { stage: test } } }
          - { action: Audit }
          rules:
          - name: r
            match: { any: [{ resources: { kinds: [Service] } }] }
            validate: { cel: { expressions: [{ expression: 'true' }] } }
      `)
      expect(imported.policies).toEqual([
        {
          name: 'overrides',
          rulesets: ['overrides'],
          match: { exclude: { any: [{ namespaces: ['dev-*'] }, { namespaceSelector: { matchLabels: { stage: 'test' } } }] } },
          action: 'Deny',
          failurePolicy: 'Fail',
        },
        { name: 'overrides-override-1', rulesets: ['overrides'], match: { namespaces: ['dev-*'] }, action: 'Audit', failurePolicy: 'Fail' },
        {
          name: 'overrides-override-2',
          rulesets: ['overrides'],
          match: { namespaceSelector: { matchLabels: { stage: 'test' } }, exclude: { any: [{ namespaces: ['dev-*'] }] } },
          action: 'Audit',
          failurePolicy: 'Fail',
        },
      ])
    })
  })

  describe('malformed documents', () => {
    it('names the field of a malformed expression and the document it is in', () => {
      const error = importError(`
        apiVersion: v1
        kind: ConfigMap
        metadata: { name: unrelated }
        ---
        apiVersion: kyverno.io/v1
        kind: ClusterPolicy
        metadata: { name: broken }
        spec:
          rules:
          - { name: a, match: { any: [{ resources: { kinds: [Pod] } }] }, validate: { cel: { expressions: [{ expression: 'true' }] } } }
          - { name: b, match: { any: [{ resources: { kinds: [Pod] } }] }, validate: { cel: { expressions: [{ expression: 'true' }] } } }
          - { name: c, match: { any: [{ resources: { kinds: [Pod] } }] }, validate: { cel: { expressions: [{ expression: 42 }] } } }
      `)
      expect(error.field).toBe('spec.rules[2].validate.cel.expressions[0].expression')
      expect(error.document).toBe(1)
      expect(error.message).toBe('ClusterPolicy "broken" (document 2): spec.rules[2].validate.cel.expressions[0].expression: must be a string')
    })

    it.each([
      ['an unknown failure action', 'validationFailureAction: Block, rules: []', 'spec.validationFailureAction'],
      ['an unknown operation', 'rules: [{ name: a, match: { any: [{ resources: { kinds: [Pod], operations: [PATCH] } }] }, validate: { cel: { expressions: [{ expression: x }] } } }]', 'spec.rules[0].match.any[0].resources.operations[0]'],
      ['a duplicate rule name', 'rules: [{ name: a, mutate: { patchStrategicMerge: {} } }, { name: a, mutate: { patchStrategicMerge: {} } }]', 'spec.rules[1].name'],
      ['no expressions', 'rules: [{ name: a, match: { any: [] }, validate: { cel: { expressions: [] } } }]', 'spec.rules[0].validate.cel.expressions'],
      ['a variable name that is no identifier', 'rules: [{ name: a, match: {}, validate: { cel: { variables: [{ name: a-b, expression: x }], expressions: [{ expression: x }] } } }]', 'spec.rules[0].validate.cel.variables[0].name'],
    ])('rejects %s', (_what, spec, field) => {
      const error = importError(`{ apiVersion: kyverno.io/v1, kind: ClusterPolicy, metadata: { name: p }, spec: { ${spec} } }`)
      expect(error.field).toBe(field)
    })

    it('rejects a policy without a valid name', () => {
      expect(importError('{ apiVersion: kyverno.io/v1, kind: ClusterPolicy, metadata: { name: Bad_Name }, spec: { rules: [] } }').field).toBe('metadata.name')
    })
  })
})
