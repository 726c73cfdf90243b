import { describe, expect, it } from 'vitest'
import { compileRuleset, evaluateRuleset, PreparedInput, type ClusterData, type Ruleset } from '../../src/engine/index.js'
import { importDocuments, type ImportedDocument } from '../../src/import/index.js'
import { docs } from './helpers.js'

function importOne(text: string): ImportedDocument {
  const imported = importDocuments(docs(text))
  expect(imported).toHaveLength(1)
  return imported[0] as ImportedDocument
}

/** A ValidatingPolicy around the given spec lines (flow YAML). */
function policy(spec: string, apiVersion = 'policies.kyverno.io/v1alpha1'): string {
  return `{ apiVersion: ${apiVersion}, kind: ValidatingPolicy, metadata: { name: vpol }, spec: { validations: [{ expression: 'true' }], ${spec} } }`
}

const PODS = `matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [pods] }] }`

describe('Kyverno ValidatingPolicy', () => {
  it('becomes one ruleset with one rule named after the policy, and one policy', () => {
    const imported = importOne(`
      apiVersion: policies.kyverno.io/v1
      kind: ValidatingPolicy
      metadata:
        name: require-probes
        annotations:
          policies.kyverno.io/description: Containers need probes.
          policies.kyverno.io/severity: medium
      spec:
        validationActions: [Audit, Deny]
        failurePolicy: Ignore
        evaluation:
          admission: { enabled: false }
          background: { enabled: true }
        matchConstraints:
          resourceRules:
          - apiGroups: [""]
            apiVersions: [v1]
            operations: [CREATE, UPDATE]
            resources: [pods]
        matchConditions:
        - name: not-system
          expression: "object.metadata.namespace != 'kube-system'"
        variables:
        - name: containers
          expression: object.spec.containers
        validations:
        - expression: "variables.containers.all(c, has(c.livenessProbe))"
          messageExpression: "'missing probes in ' + object.metadata.name"
          reason: Invalid
        - expression: "variables.containers.size() > 0"
          message: "at least one container"
        auditAnnotations:
        - key: probes
          valueExpression: "'checked'"
    `)
    expect(imported).toEqual({
      sourceKind: 'ValidatingPolicy',
      sourceName: 'require-probes',
      rulesets: [
        {
          name: 'require-probes',
          description: 'Containers need probes.',
          rules: [
            {
              name: 'require-probes',
              severity: 'medium',
              match: {
                kinds: ['Pod'],
                operations: ['CREATE', 'UPDATE'],
                conditions: [{ name: 'not-system', expression: "object.metadata.namespace != 'kube-system'" }],
              },
              autogen: { controllers: ['DaemonSet', 'Deployment', 'ReplicaSet', 'StatefulSet', 'Job', 'CronJob'] },
              variables: [{ name: 'containers', expression: 'object.spec.containers' }],
              validate: {
                cel: [
                  { expression: 'variables.containers.all(c, has(c.livenessProbe))', messageExpression: "'missing probes in ' + object.metadata.name" },
                  { expression: 'variables.containers.size() > 0', message: 'at least one container' },
                ],
              },
              remediation: 'Use at least one container.',
            },
          ],
        },
      ],
      policies: [
        {
          name: 'require-probes',
          description: 'Containers need probes.',
          rulesets: ['require-probes'],
          action: 'Deny',
          failurePolicy: 'Ignore',
          admission: false,
        },
      ],
      skipped: [],
    })
  })

  it.each([
    [['Warn'], 'Warn'],
    [['Audit', 'Warn'], 'Warn'],
    [['Audit'], 'Audit'],
    [[], 'Deny'],
  ])('maps validationActions %j to %s', (actions, action) => {
    const imported = importOne(policy(`${PODS}, validationActions: ${JSON.stringify(actions)}`, 'policies.kyverno.io/v1beta1'))
    expect(imported.policies[0]?.action).toBe(action)
  })

  describe('autogen', () => {
    const autogenOf = (spec: string) => importOne(policy(spec)).rulesets[0]?.rules[0]?.autogen

    it('narrows to spec.autogen.podControllers.controllers, named as Kyverno names them', () => {
      expect(autogenOf(`${PODS}, autogen: { podControllers: { controllers: [deployments, cronjobs, Deployment] } }`)).toEqual({
        controllers: ['Deployment', 'CronJob'],
      })
      expect(autogenOf(`${PODS}, autogen: { podControllers: { controllers: [] } }`)).toBe(false)
    })

    it('is off unless the policy matches exactly core/v1 pods without selectors, names or exclusions', () => {
      const pods = (extra: string) => `matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: [v1], resources: [pods]${extra} }]`
      expect(autogenOf(`${pods('')}, namespaceSelector: { matchLabels: { a: b } } }`)).toBe(false)
      expect(autogenOf(`${pods('')}, objectSelector: { matchLabels: { a: b } } }`)).toBe(false)
      expect(autogenOf(`${pods(', resourceNames: [web]')} }`)).toBe(false)
      expect(autogenOf(`matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: [v1], resources: [pods, pods/ephemeralcontainers] }] }`)).toBe(false)
      expect(autogenOf(`${pods('')}, excludeResourceRules: [{ apiGroups: [''], apiVersions: [v1], resources: [pods], resourceNames: [x] }] }`)).toBe(false)
      expect(autogenOf(`${pods('')}, namespaceSelector: {} }`)).toEqual({
        controllers: ['DaemonSet', 'Deployment', 'ReplicaSet', 'StatefulSet', 'Job', 'CronJob'],
      })
    })
  })

  describe('match', () => {
    const matchOf = (spec: string) => importOne(policy(spec)).rulesets[0]?.rules[0]?.match

    it('joins resource rules that share operations, and keeps the others as alternatives', () => {
      expect(
        matchOf(`matchConstraints: { resourceRules: [
          { apiGroups: [''], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [pods, pods/ephemeralcontainers] },
          { apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments] } ] }`),
      ).toEqual({ kinds: ['Pod', 'apps/Deployment'], operations: ['CREATE', 'UPDATE'] })
      expect(
        matchOf(`matchConstraints: { resourceRules: [
          { apiGroups: [''], apiVersions: ['*'], operations: ['*'], resources: [services] },
          { apiGroups: [networking.k8s.io], apiVersions: [v1], operations: [CREATE], resources: [ingresses] } ] }`),
      ).toEqual({ any: [{ kinds: ['Service'] }, { kinds: ['networking.k8s.io/Ingress'], operations: ['CREATE'] }] })
    })

    it('translates exclusions, resource names and both selectors', () => {
      expect(
        matchOf(`matchConstraints: {
          resourceRules: [{ apiGroups: [networking.k8s.io], apiVersions: [v1], operations: [CREATE], resources: [networkpolicies] }],
          excludeResourceRules: [{ apiGroups: [networking.k8s.io], apiVersions: [v1], operations: [CREATE], resources: [networkpolicies], resourceNames: [default-deny] }],
          namespaceSelector: { matchExpressions: [{ key: team, operator: Exists }] },
          objectSelector: { matchLabels: { checked: 'true' } } }`),
      ).toEqual({
        kinds: ['networking.k8s.io/NetworkPolicy'],
        operations: ['CREATE'],
        namespaceSelector: { matchExpressions: [{ key: 'team', operator: 'Exists' }] },
        labelSelector: { matchLabels: { checked: 'true' } },
        exclude: { kinds: ['networking.k8s.io/NetworkPolicy'], operations: ['CREATE'], names: ['default-deny'] },
      })
    })

    it('names versions only under matchPolicy: Exact', () => {
      expect(
        matchOf(`matchConstraints: { matchPolicy: Exact, resourceRules: [{ apiGroups: ['', batch], apiVersions: [v1, v1beta1], resources: [pods, cronjobs] }] }`),
      ).toEqual({ kinds: ['core/v1/Pod', 'core/v1beta1/Pod', 'batch/v1/CronJob', 'batch/v1beta1/CronJob'] })
    })

    it('restricts a NamespacedValidatingPolicy to its namespace', () => {
      const imported = importOne(
        `{ apiVersion: policies.kyverno.io/v1beta1, kind: NamespacedValidatingPolicy, metadata: { name: local, namespace: team-a },
           spec: { validations: [{ expression: 'true' }], ${PODS} } }`,
      )
      expect(imported.sourceName).toBe('team-a/local')
      expect(imported.rulesets[0]?.rules[0]?.match).toEqual({ kinds: ['Pod'], operations: ['CREATE', 'UPDATE'], namespaces: ['team-a'] })
    })
  })

  it('skips the policy when its resources cannot be matched by kind', () => {
    const unknown = importOne(policy(`matchConstraints: { resourceRules: [{ apiGroups: [example.com], apiVersions: [v1], resources: [widgets] }] }`))
    expect(unknown).toEqual({
      sourceKind: 'ValidatingPolicy',
      sourceName: 'vpol',
      rulesets: [],
      policies: [],
      skipped: [
        {
          policy: 'vpol',
          rule: 'vpol',
          reason:
            'spec.matchConstraints.resourceRules[0]: the kind of resource "widgets" in API group "example.com" is not known to the importer (custom resources cannot be matched without their Kind)',
        },
      ],
    })
    const statusOnly = importOne(policy(`matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: [v1], resources: [pods/status] }] }`))
    expect(statusOnly.skipped[0]?.reason).toMatch(/^spec\.matchConstraints\.resourceRules: matches a subresource of Pod but not Pod itself/)
  })

  it('imports variables that call cluster libraries as they are', () => {
    const imported = importOne(policy(`${PODS}, variables: [{ name: ns, expression: "resource.Get('v1', 'namespaces', '', object.metadata.namespace)" }]`))
    expect(imported.rulesets[0]?.rules[0]?.variables).toEqual([{ name: 'ns', expression: "resource.Get('v1', 'namespaces', '', object.metadata.namespace)" }])
  })

  describe('using the resource, image and time libraries', () => {
    const imported = importOne(`
      apiVersion: policies.kyverno.io/v1
      kind: ValidatingPolicy
      metadata: { name: cluster-checks }
      spec:
        validationActions: [Audit]
        matchConstraints:
          resourceRules:
          - { apiGroups: [""], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [pods] }
        variables:
        - name: cm
          expression: resource.Get("v1", "configmaps", "platform", "baseimages")
        - name: allowed
          expression: variables.cm.data.?allowed.orValue("").split(",")
        - name: hpas
          expression: resource.List('autoscaling/v1', 'horizontalpodautoscalers', object.metadata.namespace).items.orValue([])
        validations:
        - expression: >-
            object.spec.containers.all(c, has(image.GetMetadata(c.image).manifest.annotations) &&
            image.GetMetadata(c.image).manifest.annotations['org.opencontainers.image.base.name'] in variables.allowed)
          message: base image not allowed
        - expression: >-
            object.spec.containers.all(c, !has(image.GetMetadata(c.image).config.created) ||
            timestamp(image.GetMetadata(c.image).config.created) >= time.now() - duration('4380h'))
          message: stale image
        - expression: size(variables.hpas) < 10
    `)
    const ruleset = imported.rulesets[0] as Ruleset
    const cluster: ClusterData = {
      configMap: (namespace, name) => (namespace === 'platform' && name === 'baseimages' ? { data: { allowed: 'distroless' } } : undefined),
      resources: () => [],
      imageMetadata: (reference) => ({
        image: reference,
        manifest: { annotations: { 'org.opencontainers.image.base.name': reference.startsWith('good') ? 'distroless' : 'ubuntu' } },
        config: { created: reference.endsWith(':old') ? '2020-05-01T03:15:12-07:00' : '2099-01-01T00:00:00Z' },
      }),
    }
    const judge = (image: string, data?: ClusterData) => {
      const input = new PreparedInput({ object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' }, spec: { containers: [{ name: 'c', image }] } }, ...(data ? { cluster: data } : {}) })
      return evaluateRuleset(compileRuleset(ruleset), input).results.map(({ status, message }) => ({ status, message }))
    }

    it('imports it whole and compiles it', () => {
      expect(imported.skipped).toEqual([])
      expect(ruleset.rules[0]?.variables?.map((variable) => variable.name)).toEqual(['cm', 'allowed', 'hpas'])
      expect(() => compileRuleset(ruleset)).not.toThrow()
    })

    it('judges resources against the cluster data of the input', () => {
      expect(judge('good:new', cluster)).toEqual([])
      expect(judge('bad:new', cluster)).toEqual([{ status: 'fail', message: 'base image not allowed' }])
      expect(judge('good:old', cluster)).toEqual([{ status: 'fail', message: 'stale image' }])
    })

    it('errs, saying so, where there is no cluster data', () => {
      expect(judge('good:new')).toEqual([
        {
          status: 'error',
          message:
            'expression "object.spec.containers.all(c, has(image.GetMetadata(c.image).manifest.annotations) && image.GetMetadata(c.image).manifest.annotations[\'org.opencontainers.image.base.name\'] in variables.allowed)" failed: image.GetMetadata("good:new"): no cluster data is available to this evaluation (at 1:87)',
        },
      ])
    })
  })
})
