import { describe, expect, it } from 'vitest'
import type { EvaluationInput, Policy, Rule, Ruleset } from '../../../src/engine/index.js'
import { generateValidatingAdmissionPolicies } from '../../../src/export/vap/index.js'
import { judgeBothWays } from './judge-both-ways.js'

const IMAGE_CHECK = { cel: [{ expression: "object.spec.containers.all(c, !c.image.endsWith(':latest'))", message: 'no latest tag' }] }

function rule(overrides: Partial<Rule> = {}): Rule {
  return { name: 'no-latest', match: { kinds: ['Pod'] }, autogen: false, validate: IMAGE_CHECK, ...overrides }
}

function setup(rules: Rule[], policy: Partial<Policy> = {}): { policy: Policy; rulesets: Ruleset[] } {
  return { policy: { name: 'images', rulesets: ['images'], action: 'Deny', ...policy }, rulesets: [{ name: 'images', rules }] }
}

function refusalsOf(rules: Rule[], policy: Partial<Policy> = {}, options: Parameters<typeof generateValidatingAdmissionPolicies>[2] = {}) {
  const { policy: p, rulesets } = setup(rules, policy)
  const generated = generateValidatingAdmissionPolicies(p, rulesets, options)
  if (generated.ok) throw new Error('expected a refusal')
  return generated.refusals
}

function pod(name: string, image: string, metadata: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', ...metadata }, spec: { containers: [{ name: 'c', image }] } }
}

function deployment(name: string, image: string, templateMetadata: Record<string, unknown> | undefined, metadata: Record<string, unknown> = {}): Record<string, unknown> {
  const template: Record<string, unknown> = { spec: { containers: [{ name: 'c', image }] } }
  if (templateMetadata) template.metadata = templateMetadata
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: 'default', ...metadata }, spec: { template } }
}

function cronJob(name: string, image: string): Record<string, unknown> {
  return { apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name, namespace: 'default' }, spec: { jobTemplate: { spec: { template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image }] } } } } } }
}

const create = (object: Record<string, unknown>, extra: Partial<EvaluationInput> = {}): EvaluationInput => ({ object, request: { operation: 'CREATE' }, ...extra })

describe('generateValidatingAdmissionPolicies', () => {
  it('writes one policy and binding per rule, with the action, failurePolicy, variables and messages', () => {
    const { policy, rulesets } = setup(
      [
        rule({ variables: [{ name: 'images', expression: 'object.spec.containers.map(c, c.image)' }], validate: { cel: [{ expression: "variables.images.all(i, i.contains(':'))", messageExpression: "'untagged: ' + variables.images.join(', ')" }] } }),
        rule({ name: 'one\nline', message: 'first line\n  second line', match: { kinds: ['apps/Deployment'], operations: ['CREATE'] }, validate: { cel: [{ expression: 'object.spec.replicas <= 5' }] } }),
      ],
      { action: 'Warn', failurePolicy: 'Ignore' },
    )
    const generated = generateValidatingAdmissionPolicies(policy, rulesets)
    expect(generated).toEqual({
      ok: true,
      omitted: [],
      minimumKubernetesVersion: '1.30',
      policies: [
        {
          source: { policy: 'images', ruleset: 'images', rule: 'no-latest', form: 'object' },
          policy: {
            apiVersion: 'admissionregistration.k8s.io/v1',
            kind: 'ValidatingAdmissionPolicy',
            metadata: {
              name: 'images-no-latest',
              annotations: { 'verdict.dev/policy': 'images', 'verdict.dev/ruleset': 'images', 'verdict.dev/rule': 'no-latest', 'verdict.dev/minimum-kubernetes-version': '1.30' },
            },
            spec: {
              failurePolicy: 'Ignore',
              matchConstraints: { resourceRules: [{ apiGroups: ['*'], apiVersions: ['*'], resources: ['pods'], operations: ['CREATE', 'UPDATE'] }] },
              variables: [{ name: 'images', expression: 'object.spec.containers.map(c, c.image)' }],
              validations: [{ expression: "variables.images.all(i, i.contains(':'))", messageExpression: "'untagged: ' + variables.images.join(', ')" }],
            },
          },
          binding: {
            apiVersion: 'admissionregistration.k8s.io/v1',
            kind: 'ValidatingAdmissionPolicyBinding',
            metadata: { name: 'images-no-latest', annotations: { 'verdict.dev/policy': 'images' } },
            spec: { policyName: 'images-no-latest', validationActions: ['Warn'] },
          },
        },
        {
          source: { policy: 'images', ruleset: 'images', rule: 'one\nline', form: 'object' },
          policy: {
            apiVersion: 'admissionregistration.k8s.io/v1',
            kind: 'ValidatingAdmissionPolicy',
            metadata: {
              name: 'images-one-line',
              annotations: { 'verdict.dev/policy': 'images', 'verdict.dev/ruleset': 'images', 'verdict.dev/rule': 'one\nline', 'verdict.dev/minimum-kubernetes-version': '1.30' },
            },
            spec: {
              failurePolicy: 'Ignore',
              matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['*'], resources: ['deployments'], operations: ['CREATE'] }] },
              validations: [{ expression: 'object.spec.replicas <= 5', message: 'first line second line' }],
            },
          },
          binding: {
            apiVersion: 'admissionregistration.k8s.io/v1',
            kind: 'ValidatingAdmissionPolicyBinding',
            metadata: { name: 'images-one-line', annotations: { 'verdict.dev/policy': 'images' } },
            spec: { policyName: 'images-one-line', validationActions: ['Warn'] },
          },
        },
      ],
    })
  })

  it('names a one-rule policy after itself; leaves switched-off rules out, saying so; defaults to Verdict\'s Audit and Fail', () => {
    const { policy, rulesets } = setup([rule(), rule({ name: 'off', enabled: false, disabledReason: 'noisy' })], { action: undefined })
    const generated = generateValidatingAdmissionPolicies(policy, rulesets)
    if (!generated.ok) throw new Error('refused')
    expect(generated.policies.map((entry) => entry.policy.metadata.name)).toEqual(['images'])
    expect(generated.policies[0]?.policy.spec.failurePolicy).toBe('Fail')
    expect(generated.policies[0]?.binding.spec.validationActions).toEqual(['Audit'])
    expect(generated.omitted).toEqual([{ ruleset: 'images', rule: 'off', field: 'rules[1].enabled', reason: 'switched off (noisy): Verdict judges nothing with it' }])
  })

  it('keeps a rule for every kind off leases and events, which Verdict\'s webhook never judges', () => {
    const { policy, rulesets } = setup([rule({ match: { operations: ['CREATE'] }, validate: { cel: [{ expression: 'has(object.metadata.labels)' }] } })])
    const generated = generateValidatingAdmissionPolicies(policy, rulesets)
    if (!generated.ok) throw new Error('refused')
    expect(generated.policies[0]?.policy.spec.matchConstraints).toEqual({
      resourceRules: [{ apiGroups: ['*'], apiVersions: ['*'], resources: ['*'], operations: ['CREATE'] }],
      excludeResourceRules: [
        { apiGroups: ['coordination.k8s.io'], apiVersions: ['*'], resources: ['leases'], operations: ['*'] },
        { apiGroups: [''], apiVersions: ['*'], resources: ['events'], operations: ['*'] },
        { apiGroups: ['events.k8s.io'], apiVersions: ['*'], resources: ['events'], operations: ['*'] },
      ],
    })
  })

  it('says which Kubernetes a policy needs when it uses newer functions', () => {
    const { policy, rulesets } = setup([rule({ validate: { cel: [{ expression: "isSemver(object.metadata.labels.version) && object.spec.containers.all(i, c, i >= 0)" }] } })])
    const generated = generateValidatingAdmissionPolicies(policy, rulesets)
    if (!generated.ok) throw new Error('refused')
    expect(generated.minimumKubernetesVersion).toBe('1.33')
    expect(generated.policies[0]?.policy.metadata.annotations?.['verdict.dev/minimum-kubernetes-version']).toBe('1.33')
  })

  describe('autogen', () => {
    const autogenRule = rule({
      autogen: true,
      match: { kinds: ['Pod'], labelSelector: { matchLabels: { team: 'a' } } },
      validate: {
        cel: [
          {
            expression:
              "object.kind == 'Pod' && object.apiVersion == 'v1' && has(object.metadata.labels) && object.metadata.name != 'forbidden' && object.spec.containers.all(c, !c.image.endsWith(':latest'))",
          },
        ],
      },
    })

    it('adds a policy for the controllers and one for CronJobs, reading the pod template', () => {
      const { policy, rulesets } = setup([autogenRule])
      const generated = generateValidatingAdmissionPolicies(policy, rulesets)
      if (!generated.ok) throw new Error('refused')
      expect(generated.policies.map((entry) => [entry.policy.metadata.name, entry.source.form])).toEqual([
        ['images', 'object'],
        ['images-autogen', 'controllers'],
        ['images-autogen-cronjob', 'cronjobs'],
      ])
      const controllers = generated.policies[1]?.policy.spec
      expect(controllers?.matchConstraints.resourceRules).toEqual([
        { apiGroups: ['apps'], apiVersions: ['*'], resources: ['deployments', 'replicasets', 'statefulsets', 'daemonsets'], operations: ['CREATE', 'UPDATE'] },
        { apiGroups: ['batch'], apiVersions: ['*'], resources: ['jobs'], operations: ['CREATE', 'UPDATE'] },
        { apiGroups: [''], apiVersions: ['*'], resources: ['replicationcontrollers'], operations: ['CREATE', 'UPDATE'] },
      ])
      expect(controllers?.matchConditions).toEqual([
        { name: 'verdict-pod-template', expression: 'has(object.spec) && has(object.spec.template)' },
        { name: 'verdict-template-labels', expression: "('team' in (has(object.spec.template.metadata) && has(object.spec.template.metadata.labels) ? object.spec.template.metadata.labels : {}) && (has(object.spec.template.metadata) && has(object.spec.template.metadata.labels) ? object.spec.template.metadata.labels : {})['team'] == 'a')" },
      ])
      expect(controllers?.validations[0]?.expression).toBe(
        "'Pod' == 'Pod' && 'v1' == 'v1' && (has(object.spec.template.metadata) && has(object.spec.template.metadata.labels)) && (has(object.metadata.name) ? object.metadata.name : object.spec.template.metadata.name) != 'forbidden' && object.spec.template.spec.containers.all(c, !c.image.endsWith(':latest'))",
      )
      expect(generated.policies[2]?.policy.spec.validations[0]?.expression).toContain('object.spec.jobTemplate.spec.template.spec.containers.all(')
    })

    it('judges Pods, controllers and CronJobs as Verdict does', () => {
      const { policy, rulesets } = setup([autogenRule])
      const inputs = [
        create(pod('good', 'nginx:1', { labels: { team: 'a' } })),
        create(pod('bad', 'nginx:latest', { labels: { team: 'a' } })),
        create(pod('other-team', 'nginx:latest', { labels: { team: 'b' } })),
        create(deployment('good', 'nginx:1', { labels: { team: 'a' } })),
        create(deployment('bad', 'nginx:latest', { labels: { team: 'a' } })),
        create(deployment('unlabelled-template', 'nginx:latest', undefined, { labels: { team: 'a' } })),
        create(deployment('forbidden', 'nginx:1', { labels: { team: 'a' } })),
        create({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'no-template' }, spec: {} }),
        create(cronJob('nightly', 'nginx:latest')),
      ]
      const { original, exported } = judgeBothWays(policy, rulesets, inputs)
      expect(exported).toEqual(original)
      expect(original.map((statuses) => statuses['no-latest'])).toEqual(['pass', 'fail', 'skip', 'pass', 'fail', 'skip', 'fail', 'skip', 'skip'])
    })
  })

  it('judges labels, namespaces, names, annotations, subjects and exclusions as Verdict does', () => {
    const { policy, rulesets } = setup([
      rule({
        name: 'scoped',
        match: {
          kinds: ['Pod'],
          labelSelector: { matchExpressions: [{ key: 'tier', operator: 'In', values: ['web'] }] },
          namespaces: ['prod-*', 'staging'],
          excludeNamespaces: ['prod-legacy'],
          names: ['api-*'],
          annotations: { 'owner/*': '?*' },
          subjects: [{ kind: 'Group', name: 'dev*' }, { kind: 'ServiceAccount', namespace: 'ci', name: 'deployer' }],
          exclude: { any: [{ kinds: ['Pod'], operations: ['UPDATE'] }] },
        },
      }),
    ])
    const labelled = (name: string, namespace: string, image: string, extra: Record<string, unknown> = {}) =>
      pod(name, image, { namespace, labels: { tier: 'web' }, annotations: { 'owner/team': 'a' }, ...extra })
    const dev = { userInfo: { username: 'ann', groups: ['developers'] } }
    const inputs: EvaluationInput[] = [
      { object: labelled('api-1', 'prod-eu', 'x:latest'), request: { operation: 'CREATE', ...dev } },
      { object: labelled('api-1', 'prod-legacy', 'x:latest'), request: { operation: 'CREATE', ...dev } },
      { object: labelled('web-1', 'staging', 'x:latest'), request: { operation: 'CREATE', ...dev } },
      { object: labelled('api-2', 'staging', 'x:latest'), request: { operation: 'CREATE', userInfo: { username: 'system:serviceaccount:ci:deployer', groups: [] } } },
      { object: labelled('api-2', 'staging', 'x:latest'), request: { operation: 'CREATE', userInfo: { username: 'bob', groups: ['ops'] } } },
      { object: labelled('api-3', 'staging', 'x:latest', { annotations: {} }), request: { operation: 'CREATE', ...dev } },
      { object: labelled('api-4', 'staging', 'x:latest', { labels: { tier: 'db' } }), request: { operation: 'CREATE', ...dev } },
      { object: labelled('api-5', 'staging', 'x:latest'), oldObject: labelled('api-5', 'staging', 'x:1'), request: { operation: 'UPDATE', ...dev } },
      { object: labelled('api-6', 'staging', 'x:1'), request: { operation: 'CREATE', ...dev } },
    ]
    const { original, exported } = judgeBothWays(policy, rulesets, inputs)
    expect(exported).toEqual(original)
    expect(original.map((statuses) => statuses.scoped)).toEqual(['fail', 'skip', 'skip', 'fail', 'skip', 'skip', 'skip', 'skip', 'pass'])
  })

  it('judges an UPDATE by the new labels only, as Verdict does, though objectSelector also takes the old ones', () => {
    const { policy, rulesets } = setup([rule({ match: { kinds: ['Pod'], labelSelector: { matchLabels: { enforce: 'yes' } } } })])
    const update = (newLabels: Record<string, string>, oldLabels: Record<string, string>): EvaluationInput => ({
      object: pod('p', 'x:latest', { labels: newLabels }),
      oldObject: pod('p', 'x:latest', { labels: oldLabels }),
      request: { operation: 'UPDATE' },
    })
    const { original, exported, generated } = judgeBothWays(policy, rulesets, [update({}, { enforce: 'yes' }), update({ enforce: 'yes' }, {})])
    expect(generated[0]?.policy.spec.matchConstraints.objectSelector).toEqual({ matchLabels: { enforce: 'yes' } })
    expect(generated[0]?.policy.spec.matchConditions).toEqual([
      { name: 'verdict-object-labels', expression: "request.operation != 'UPDATE' || ('enforce' in (has(object.metadata) && has(object.metadata.labels) ? object.metadata.labels : {}) && (has(object.metadata) && has(object.metadata.labels) ? object.metadata.labels : {})['enforce'] == 'yes')" },
    ])
    expect(exported).toEqual(original)
    expect(original.map((statuses) => statuses['no-latest'])).toEqual(['skip', 'fail'])
  })

  it('keeps a rule\'s own condition whose name a generated one has', () => {
    const { policy, rulesets } = setup([rule({ match: { kinds: ['Pod'], namespaces: ['a'], conditions: [{ name: 'verdict-namespaces', expression: 'true' }] } })])
    const generated = generateValidatingAdmissionPolicies(policy, rulesets)
    if (!generated.ok) throw new Error('refused')
    expect(generated.policies[0]?.policy.spec.matchConditions).toEqual([
      { name: 'verdict-namespaces', expression: "((has(object.metadata.namespace) ? object.metadata.namespace : '') == 'a')" },
      { name: 'verdict-namespaces-2', expression: 'true' },
    ])
  })

  it('narrows the binding by the policy\'s operations without leaving out subresource requests', () => {
    const { policy, rulesets } = setup([rule({ match: { kinds: ['PodExecOptions'], operations: ['CONNECT'] }, validate: { cel: [{ expression: "object.command.all(c, c != 'sh')" }] } })], { match: { operations: ['CONNECT'] } })
    const generated = generateValidatingAdmissionPolicies(policy, rulesets)
    if (!generated.ok) throw new Error('refused')
    expect(generated.policies[0]?.policy.spec.matchConstraints.resourceRules).toEqual([{ apiGroups: [''], apiVersions: ['*'], resources: ['pods/exec'], operations: ['CONNECT'] }])
    expect(generated.policies[0]?.binding.spec.matchResources).toEqual({ resourceRules: [{ apiGroups: ['*'], apiVersions: ['*'], resources: ['*', '*/*'], operations: ['CONNECT'] }] })
  })

  it('narrows the binding by the policy\'s own match', () => {
    const { policy, rulesets } = setup([rule()], { match: { namespaceSelector: { matchLabels: { env: 'prod' } }, exclude: { kinds: ['Pod'], names: ['debug'] } } })
    const generated = generateValidatingAdmissionPolicies(policy, rulesets)
    if (!generated.ok) throw new Error('refused')
    expect(generated.policies[0]?.binding.spec.matchResources).toEqual({
      excludeResourceRules: [{ apiGroups: ['*'], apiVersions: ['*'], resources: ['pods'], operations: ['*'], resourceNames: ['debug'] }],
      namespaceSelector: { matchLabels: { env: 'prod' } },
    })
    const inputs = [
      create(pod('debug', 'x:latest'), { namespaceObject: { metadata: { name: 'default', labels: { env: 'prod' } } } }),
      create(pod('web', 'x:latest'), { namespaceObject: { metadata: { name: 'default', labels: { env: 'prod' } } } }),
      create(pod('web', 'x:latest'), { namespaceObject: { metadata: { name: 'default', labels: { env: 'dev' } } } }),
    ]
    const { original, exported } = judgeBothWays(policy, rulesets, inputs)
    expect(exported).toEqual(original)
    expect(original.map((statuses) => statuses['no-latest'])).toEqual(['skip', 'fail', 'skip'])
  })

  describe('refuses, naming the rule, the field and the reason', () => {
    it.each([
      ['a pattern rule', { validate: { pattern: { spec: {} } } }, 'validate.pattern', 'a pattern rule is judged by Verdict\'s pattern engine, not CEL: the API server runs CEL only'],
      ['an anyPattern rule', { validate: { anyPattern: [{ spec: {} }] } }, 'validate.anyPattern', 'an anyPattern rule is judged by Verdict\'s pattern engine, not CEL: the API server runs CEL only'],
      ['a deny rule', { validate: { deny: { conditions: { any: [{ key: '{{ request.object.metadata.name }}', operator: 'Equals', value: 'x' }] } } } }, 'validate.deny', 'a deny rule holds Kyverno JMESPath conditions, not CEL: the API server runs CEL only'],
      ['a foreach rule', { validate: { foreach: [{ list: 'request.object.spec.containers', pattern: { image: '!*:latest' } }] } }, 'validate.foreach', 'a foreach rule is judged by Verdict\'s Kyverno engine, not CEL: the API server runs CEL only'],
      ['a podSecurity rule', { validate: { podSecurity: { level: 'baseline', version: 'latest' } } }, 'validate.podSecurity', 'a podSecurity rule is judged by Verdict\'s Pod Security engine (with its exemptions), not plain CEL'],
      ['context entries', { context: [{ name: 'cm', configMap: { name: 'x', namespace: 'y' } }] }, 'context', 'Kyverno context entries (API calls, ConfigMaps, image data, JMESPath variables) have no ValidatingAdmissionPolicy equivalent'],
      ['JMESPath preconditions', { preconditions: { any: [{ key: 'a', operator: 'Equals', value: 'a' }] } }, 'preconditions', 'Kyverno preconditions are JMESPath, not CEL: write them as match conditions'],
    ] as [string, Partial<Rule>, string, string][])('%s', (_what, overrides, field, reason) => {
      expect(refusalsOf([rule(overrides)])).toEqual([{ ruleset: 'images', rule: 'no-latest', field, reason }])
    })

    it.each([
      ['a Kyverno function', 'parseServiceAccount(request.userInfo.username).Name != ""', 'calls parseServiceAccount(), which the Kubernetes API server does not have (a Verdict or Kyverno function)'],
      ['a Kyverno library namespace', 'json.decode(object.metadata.annotations.cfg).enabled', 'calls json.decode(), which the Kubernetes API server does not have (a Verdict or Kyverno function)'],
      ['cel.bind', 'cel.bind(c, object.spec.containers, c.size() > 0)', 'calls cel.bind(), which the Kubernetes API server does not have'],
      ['a cel-go list extension', 'object.spec.containers.map(c, c.name).sort() == ["a"]', 'calls .sort(), which the Kubernetes API server does not have (a Verdict or cel-go extension function)'],
      ['lists.range', 'lists.range(2).size() == 2', 'calls lists.range(), which the Kubernetes API server does not have (a Verdict or Kyverno function)'],
      ['an unknown sets function', 'sets.union([1], [2]).size() == 2', 'calls sets.union(), which the Kubernetes API server does not have'],
      ['Kyverno\'s resource library', "resource.Get('v1', 'configmaps', 'ns', 'n').data.x == 'y'", 'calls resource.Get(), which the Kubernetes API server does not have (a Verdict or Kyverno function)'],
      ['Kyverno\'s image variable read as a value', 'image != null', 'uses `image`, Kyverno\'s image library (registry data), which the Kubernetes API server does not have'],
      ['a request field Verdict does not fill', "request.resource.resource == 'pods'", 'reads request.resource, which Verdict does not fill (its expression errors there) while the API server does'],
      ['a mixed list literal', "object.metadata.name in ['a', 1]", 'has a list literal mixing int and string, which the Kubernetes API server refuses (its literals must be of one type)'],
    ])('a function or variable the API server lacks: %s', (_what, expression, reason) => {
      expect(refusalsOf([rule({ validate: { cel: [{ expression }] } })])).toEqual([{ ruleset: 'images', rule: 'no-latest', field: 'validate.cel[0].expression', reason }])
    })

    it('a variable read before the API server binds it', () => {
      const variables = [
        { name: 'first', expression: 'variables.second + 1' },
        { name: 'second', expression: '1' },
      ]
      expect(refusalsOf([rule({ variables })])).toEqual([
        { ruleset: 'images', rule: 'no-latest', field: 'variables[0].expression', reason: 'reads variables.second, listed at or after it: the API server binds only the variables listed before' },
      ])
    })

    it('a variable reading `variables` other than by name', () => {
      const variables = [
        { name: 'first', expression: '1' },
        { name: 'all', expression: "variables['fi' + 'rst'] + 1" },
      ]
      expect(refusalsOf([rule({ variables })])).toEqual([
        { ruleset: 'images', rule: 'no-latest', field: 'variables[1].expression', reason: "reads `variables` other than by name, which the API server's ordered variables cannot bind" },
      ])
    })

    it('an identifier the API server does not define', () => {
      expect(refusalsOf([rule({ validate: { cel: [{ expression: 'object.spec.containers.all(c, c.name != undefinedThing)' }] } })])).toEqual([
        { ruleset: 'images', rule: 'no-latest', field: 'validate.cel[0].expression', reason: 'reads `undefinedThing`, which the Kubernetes API server does not define' },
      ])
    })

    it('several validations under failurePolicy Ignore', () => {
      const validate = { cel: [{ expression: 'true' }, { expression: 'false' }] }
      expect(refusalsOf([rule({ validate })], { failurePolicy: 'Ignore' })).toEqual([
        {
          ruleset: 'images',
          rule: 'no-latest',
          field: 'validate.cel',
          reason: 'with failurePolicy Ignore, Verdict ignores the whole rule at its first validation that errors, while the API server still denies for a later validation that fails: give the rule one validation',
        },
      ])
    })

    it.each([
      ['a custom resource kind', { kinds: ['example.com/Widget'] }, 'match.kinds[0]', 'the resource of kind "example.com/Widget" is not known: a ValidatingAdmissionPolicy matches resources by their plural name, and custom resources are not in the generator\'s table of built-in kinds'],
      ['a kind Verdict\'s webhook never judges', { kinds: ['coordination.k8s.io/Lease'] }, 'match.kinds[0]', 'Verdict\'s webhook never judges leases (leader election and event recording must not wait on it), so a policy for "coordination.k8s.io/Lease" would judge what Verdict never does'],
      ['`all`', { kinds: ['Pod'], all: [{ namespaces: ['a'] }] }, 'match.all', 'a match with `all` (several conjunctive filters) is not generated: write its parts in one filter'],
      ['a selector inside an alternative', { any: [{ kinds: ['Pod'], namespaceSelector: { matchLabels: { a: 'b' } } }] }, 'match.any[0].namespaceSelector', '`namespaceSelector` inside one alternative of `any` has no ValidatingAdmissionPolicy equivalent (resource rules carry kinds, operations and names only)'],
      ['kinds both at the top and in an alternative', { kinds: ['Pod'], any: [{ kinds: ['Service'] }] }, 'match.any[0].kinds', 'is given both at the top of the match and inside `any`; the generator does not intersect them'],
      ['name globs inside an alternative', { any: [{ kinds: ['Pod'], names: ['web-*'] }] }, 'match.any[0].names', 'name globs inside one alternative of `any` have no ValidatingAdmissionPolicy equivalent (resourceNames are exact names)'],
      ['an exclusion by namespace', { kinds: ['Pod'], exclude: { namespaces: ['kube-system'] } }, 'match.exclude.namespaces', 'an exclusion by `namespaces` has no ValidatingAdmissionPolicy equivalent (excludeResourceRules carry kinds, operations and names only)'],
      ['an exclusion by name glob', { kinds: ['Pod'], exclude: { names: ['debug-*'] } }, 'match.exclude.names', 'an exclusion by name globs has no ValidatingAdmissionPolicy equivalent (resourceNames are exact names)'],
      ['an exclusion of one version', { kinds: ['Pod'], exclude: { kinds: ['v1/Pod'] } }, 'match.exclude.kinds', 'an exclusion of one version of a kind is not generated'],
      ['one version of a subresource\'s kind', { kinds: ['policy/v1/Eviction'] }, 'match.kinds[0]', '"policy/v1/Eviction" is carried by a subresource request, whose version is the parent resource\'s: the version cannot be matched'],
    ] as [string, Rule['match'], string, string][])('a match resource rules cannot express: %s', (_what, match, field, reason) => {
      expect(refusalsOf([rule({ match })])).toEqual([{ ruleset: 'images', rule: 'no-latest', field, reason }])
    })

    it('autogen for a rule that also matches the controller itself', () => {
      expect(refusalsOf([rule({ autogen: true, match: { kinds: ['Pod', 'Deployment'] } })])).toEqual([
        {
          ruleset: 'images',
          rule: 'no-latest',
          field: 'match.kinds',
          reason: 'matches Deployment itself and, by autogen, its pod template: Verdict judges the template only when the Deployment does not match, which a ValidatingAdmissionPolicy cannot express (switch autogen off or name Pods only)',
        },
      ])
    })

    it('a policy matching Pods over a rule that judges a controller itself', () => {
      expect(refusalsOf([rule({ match: { kinds: ['apps/Deployment'] } })], { match: { kinds: ['Pod'] } })).toEqual([
        {
          ruleset: 'images',
          rule: 'no-latest',
          field: 'policy.match.kinds',
          reason: 'the policy matches Pods, which Verdict extends to a Deployment whose pod template it matches, and the rule judges the Deployment itself: a binding cannot select a Deployment by its template',
        },
      ])
    })

    it.each([
      ['the whole object', 'object != null && size(object) > 0', 'under autogen reads `object` as a whole, which cannot stand for the pod template of a controller'],
      ['the whole metadata', "object.metadata.exists(k, k == 'labels')", "under autogen reads `object.metadata` as a whole, which under autogen merges the controller's name and namespace into the template's metadata"],
      ['a parenthesised path', "(object).metadata.name == 'x'", 'under autogen reads `object).metadata.name` in a form the generator does not rewrite (write it as a plain path)'],
    ])('autogen of an expression reading %s', (_what, expression, reason) => {
      expect(refusalsOf([rule({ autogen: true, validate: { cel: [{ expression }] } })])).toEqual([{ ruleset: 'images', rule: 'no-latest', field: 'validate.cel[0].expression', reason }])
    })

    it('a PolicyException in force, and not one that has expired', () => {
      const now = new Date('2026-06-01T00:00:00Z')
      const exception = { name: 'legacy', policies: ['imag*'], expiresAt: '2026-07-01T00:00:00Z' }
      expect(refusalsOf([rule()], {}, { exceptions: [exception], now })).toEqual([
        { field: 'exceptions', reason: 'PolicyException "legacy" lets requests through this policy, and the API server knows nothing of Verdict\'s exceptions' },
      ])
      const { policy, rulesets } = setup([rule()])
      expect(generateValidatingAdmissionPolicies(policy, rulesets, { exceptions: [{ ...exception, expiresAt: '2026-05-01T00:00:00Z' }], now }).ok).toBe(true)
      expect(generateValidatingAdmissionPolicies(policy, rulesets, { exceptions: [{ name: 'other', rules: [{ ruleset: 'other', rule: '*' }] }], now }).ok).toBe(true)
    })

    it('a policy switched off, judging in background only, naming a ruleset not given, or with every rule off', () => {
      expect(refusalsOf([rule()], { enabled: false, disabledReason: 'x' })).toEqual([{ field: 'enabled', reason: 'the policy is switched off (enabled: false): it judges nothing, so there is nothing to generate' }])
      expect(refusalsOf([rule()], { admission: false })).toEqual([{ field: 'admission', reason: 'the policy judges in background scans only (admission: false), and a ValidatingAdmissionPolicy judges admission requests only' }])
      expect(refusalsOf([rule()], { rulesets: ['images', 'missing'] })).toEqual([{ field: 'rulesets', reason: 'names ruleset "missing", which was not given (Verdict judges it as an error)' }])
      expect(refusalsOf([rule({ enabled: false, disabledReason: 'x' })])).toEqual([{ field: 'rulesets', reason: 'every rule of the policy is switched off: there is nothing to generate' }])
    })

    it('every rule that cannot be generated, not only the first', () => {
      const refusals = refusalsOf([rule({ name: 'a', validate: { pattern: {} } }), rule({ name: 'b' }), rule({ name: 'c', context: [{ name: 'x', variable: { value: 1 } }] })])
      expect(refusals.map((refusal) => [refusal.rule, refusal.field])).toEqual([
        ['a', 'validate.pattern'],
        ['c', 'context'],
      ])
    })
  })
})
