import { describe, expect, it } from 'vitest'
import { compileRuleset } from '../../../src/engine/compile/compile-ruleset.js'
import { RulesetCompileError } from '../../../src/engine/compile/compile-problem.js'
import { evaluateRuleset } from '../../../src/engine/evaluate/evaluate-ruleset.js'
import type { EvaluationInput } from '../../../src/engine/evaluate/evaluation-input.js'
import type { PrepareOptions } from '../../../src/engine/evaluate/prepare-options.js'
import { PreparedInput } from '../../../src/engine/evaluate/prepared-input.js'
import type { Rule } from '../../../src/engine/model/rule.js'

// Expectations follow Kyverno's documentation of validate.deny, foreach, preconditions and context
// (kyverno.io/docs/writing-policies/validate, /preconditions, /external-data-sources) and its engine's messages.

const container = (name: string, image: string, extra: Record<string, unknown> = {}) => ({ name, image, ...extra })
const pod = (containers: unknown[], metadata: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', namespace: 'shop', ...metadata },
  spec: { containers },
})

function judge(rule: Rule, input: EvaluationInput, options: PrepareOptions = {}): [string, string | undefined] {
  const result = evaluateRuleset(compileRuleset({ name: 'rs', rules: [rule] }), new PreparedInput(input, options), { verbose: true })
  const only = result.results[0]
  if (!only) throw new Error('no result')
  return [only.status, only.message]
}

const pods: Rule['match'] = { kinds: ['Pod'] }

describe('validate.deny', () => {
  const noLatest: Rule = {
    name: 'no-latest',
    match: pods,
    message: 'image {{ request.object.spec.containers[0].image }} is not pinned',
    validate: { deny: { conditions: { any: [{ key: "{{ request.object.spec.containers[].image | [?ends_with(@, ':latest')] | length(@) }}", operator: 'GreaterThan', value: 0 }] } } },
  }

  it('fails when the conditions hold, with the message substituted', () => {
    expect(judge(noLatest, { object: pod([container('a', 'nginx:latest')]) })).toEqual(['fail', 'image nginx:latest is not pinned'])
    expect(judge(noLatest, { object: pod([container('a', 'nginx:1.27')]) })).toEqual(['pass', undefined])
  })

  it('appends the messages of the conditions that held and, without any message, names the rule', () => {
    const rule: Rule = {
      name: 'named',
      match: pods,
      validate: { deny: { conditions: { all: [{ key: '{{ request.object.metadata.name }}', operator: 'Equals', value: 'web', message: 'web is reserved' }] } } },
    }
    expect(judge(rule, { object: pod([]) })).toEqual(['fail', 'web is reserved'])
    const bare: Rule = { name: 'bare', match: pods, validate: { deny: {} } }
    expect(judge(bare, { object: pod([]) })).toEqual(['fail', 'validation error: rule bare failed'])
  })

  it('is an error when a variable cannot be resolved, naming the expression', () => {
    const rule: Rule = { name: 'label', match: pods, validate: { deny: { conditions: { any: [{ key: '{{ request.object.metadata.labels.app }}', operator: 'Equals', value: 'x' }] } } } }
    expect(judge(rule, { object: pod([]) })).toEqual([
      'error',
      'failed to check deny conditions: failed to substitute variables in condition key: failed to resolve request.object.metadata.labels.app at path : JMESPath query failed: Unknown key "labels" in path',
    ])
  })
})

describe('preconditions', () => {
  const rule: Rule = {
    name: 'only-updates',
    match: pods,
    preconditions: { all: [{ key: "{{ request.operation || 'BACKGROUND' }}", operator: 'Equals', value: 'UPDATE', message: 'not an update' }] },
    validate: { deny: {} },
  }

  it('skip the rule when they do not hold, saying why', () => {
    expect(judge(rule, { object: pod([]), request: { operation: 'CREATE' } })).toEqual(['skip', 'preconditions not met; not an update'])
    expect(judge(rule, { object: pod([]), oldObject: pod([]), request: { operation: 'UPDATE' } })[0]).toBe('fail')
  })

  it('gate CEL rules too', () => {
    const cel: Rule = { name: 'cel', match: pods, preconditions: rule.preconditions, validate: { cel: [{ expression: 'false', message: 'no' }] } }
    expect(judge(cel, { object: pod([]), request: { operation: 'CREATE' } })).toEqual(['skip', 'preconditions not met; not an update'])
    expect(judge(cel, { object: pod([]), oldObject: pod([]), request: { operation: 'UPDATE' } })).toEqual(['fail', 'no'])
  })
})

describe('validate.foreach', () => {
  const registries: Rule = {
    name: 'registries',
    match: pods,
    message: 'use the company registry',
    validate: {
      foreach: [
        {
          list: 'request.object.spec.containers',
          preconditions: { all: [{ key: '{{ element.name }}', operator: 'NotEquals', value: 'sidecar' }] },
          deny: { conditions: { all: [{ key: '{{ element.image }}', operator: 'NotEquals', value: 'registry.example.com/*' }] } },
        },
      ],
    },
  }

  it('judges each element, the first failure deciding with "validation failure:"', () => {
    expect(judge(registries, { object: pod([container('app', 'registry.example.com/app:1'), container('sidecar', 'docker.io/envoy:1')]) })).toEqual(['pass', undefined])
    expect(judge(registries, { object: pod([container('app', 'docker.io/app:1')]) })).toEqual(['fail', 'validation failure: use the company registry'])
  })

  it('gives no response (a skip) when no element was judged, and skips a list naming a missing field', () => {
    const [status, message] = judge(registries, { object: pod([container('sidecar', 'docker.io/envoy:1')]) })
    expect([status, message]).toEqual(['skip', 'the rule found nothing to judge (no foreach element, or no object in the request)'])
    const missing: Rule = { ...registries, validate: { foreach: [{ list: 'request.object.spec.initContainers', deny: {} }] } }
    expect(judge(missing, { object: pod([container('app', 'x')]) })[0]).toBe('skip')
  })

  it('matches patterns against each element, and nests loops with element0/element1', () => {
    const patterns: Rule = {
      name: 'no-privileged',
      match: pods,
      validate: { foreach: [{ list: 'request.object.spec.containers', pattern: { '=(securityContext)': { '=(privileged)': false } } }] },
    }
    expect(judge(patterns, { object: pod([container('a', 'x', { securityContext: { privileged: true } })]) })).toEqual([
      'fail',
      'validation failure: validation error: rule no-privileged failed at path /securityContext/privileged/',
    ])
    const nested: Rule = {
      name: 'ports',
      match: pods,
      validate: {
        foreach: [
          {
            list: 'request.object.spec.containers',
            foreach: [{ list: 'element.ports', deny: { conditions: { any: [{ key: '{{ element1.containerPort }}', operator: 'LessThan', value: 1024 }] } } }],
          },
        ],
      },
    }
    expect(judge(nested, { object: pod([container('a', 'x', { ports: [{ containerPort: 8080 }, { containerPort: 80 }] })]) })).toEqual([
      'fail',
      'validation failure: validation failure: validation error: rule ports failed',
    ])
    expect(judge(nested, { object: pod([container('a', 'x', { ports: [{ containerPort: 8080 }] })]) })).toEqual(['pass', undefined])
  })
})

describe('context entries', () => {
  it('compute variables with jmesPath and default, and read ConfigMaps from the cluster data', () => {
    const rule: Rule = {
      name: 'allowed',
      match: pods,
      context: [
        { name: 'team', variable: { jmesPath: 'request.object.metadata.labels.team', default: 'none' } },
        { name: 'allowed', configMap: { name: 'teams', namespace: 'platform' } },
      ],
      validate: { deny: { conditions: { any: [{ key: '{{ team }}', operator: 'AnyNotIn', value: "{{ parse_json(allowed.data.teams) }}" }] } } },
      message: 'team {{ team }} may not run Pods',
    }
    const cluster = {
      configMap: (namespace: string, name: string) =>
        namespace === 'platform' && name === 'teams' ? { metadata: { name, namespace }, data: { teams: '["pay","shop"]' } } : undefined,
    }
    expect(judge(rule, { object: pod([], { labels: { team: 'pay' } }), cluster })).toEqual(['pass', undefined])
    expect(judge(rule, { object: pod([], { labels: { team: 'ads' } }), cluster })).toEqual(['fail', 'team ads may not run Pods'])
    expect(judge(rule, { object: pod([]), cluster })).toEqual(['fail', 'team none may not run Pods'])
    expect(judge(rule, { object: pod([]) })[1]).toMatch(/failed to get configmap platform\/teams : configmaps "teams" not found/)
  })

  it('name the entry when it needs an API call, unless a value stands in for it', () => {
    const rule: Rule = {
      name: 'count',
      match: pods,
      context: [{ name: 'pods', apiCall: { urlPath: '/api/v1/pods' } }],
      validate: { deny: { conditions: { any: [{ key: '{{ pods }}', operator: 'GreaterThan', value: 10 }] } } },
    }
    expect(judge(rule, { object: pod([]) })[1]).toMatch(/context entry "pods": apiCall is not supported by Verdict/)
    expect(judge(rule, { object: pod([]) }, { ruleValues: () => ({ pods: 11 }) })[0]).toBe('fail')
  })
})

describe('patterns of a rule that reads variables', () => {
  it('see whole numbers of the resource as Kyverno does (int64), like patterns without variables', () => {
    const rule = (message: string): Rule => ({
      name: 'ports',
      match: pods,
      message,
      validate: { pattern: { spec: { containers: [{ ports: [{ containerPort: '80*' }] }] } } },
    })
    const input = { object: pod([container('web', 'nginx', { ports: [{ containerPort: 8080 }] })]) }
    // Kyverno prints an int64 8080 as "8080", which the wildcard matches; a float64 would print as 8.08e+03.
    expect(judge(rule('port of {{ request.object.metadata.name }}'), input)).toEqual(judge(rule('port'), input))
    expect(judge(rule('port of {{ request.object.metadata.name }}'), input)[0]).toBe('pass')
  })
})

describe('autogen', () => {
  it('judges a controller with variables rewritten to its pod template, as Kyverno autogen does', () => {
    const rule: Rule = {
      name: 'team-label',
      match: pods,
      validate: { deny: { conditions: { any: [{ key: "{{ request.object.metadata.labels.team || '' }}", operator: 'Equals', value: '' }] } } },
    }
    const deployment = (templateLabels: Record<string, string>) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'shop', labels: { team: 'pay' } },
      spec: { template: { metadata: { labels: templateLabels }, spec: { containers: [] } } },
    })
    expect(judge(rule, { object: deployment({ team: 'pay' }) })[0]).toBe('pass')
    expect(judge(rule, { object: deployment({}) })[0]).toBe('fail')
  })
})

describe('compiling classic rules', () => {
  it('names every malformed part', () => {
    const rule: Rule = {
      name: 'broken',
      context: [{ name: 'x', variable: {} }],
      preconditions: { all: [{ key: 'a', operator: 'equals', value: 'b' }] },
      validate: { foreach: [{ list: 'request.object.spec.[', deny: {} }, { list: 'x', foreach: [{ list: 'y' }] }] },
    }
    let error: unknown
    try {
      compileRuleset({ name: 'bad', rules: [rule] })
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(RulesetCompileError)
    expect((error as RulesetCompileError).problems.map((problem) => problem.path)).toEqual([
      'rules[0].context[0].variable',
      'rules[0].preconditions.all[0].operator',
      'rules[0].validate.foreach[0].list',
      'rules[0].validate.foreach[1].foreach[0]',
    ])
  })
})
