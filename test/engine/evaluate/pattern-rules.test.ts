import { describe, expect, it } from 'vitest'
import { compileRuleset } from '../../../src/engine/compile/compile-ruleset.js'
import { RulesetCompileError } from '../../../src/engine/compile/compile-problem.js'
import { evaluateRuleset } from '../../../src/engine/evaluate/evaluate-ruleset.js'
import type { EvaluationInput } from '../../../src/engine/evaluate/evaluation-input.js'
import { PreparedInput } from '../../../src/engine/evaluate/prepared-input.js'
import type { Rule } from '../../../src/engine/model/rule.js'

const privileged: Rule = {
  name: 'privileged-containers',
  severity: 'high',
  match: { kinds: ['Pod'] },
  message: 'Privileged mode is disallowed',
  validate: {
    pattern: {
      spec: {
        '=(initContainers)': [{ '=(securityContext)': { '=(privileged)': 'false' } }],
        containers: [{ '=(securityContext)': { '=(privileged)': 'false' } }],
      },
    },
  },
}

const container = (securityContext: Record<string, unknown>) => ({ name: 'app', image: 'nginx:1.27', securityContext })
const pod = (spec: Record<string, unknown>) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'shop' }, spec })

function judge(rules: Rule[], input: EvaluationInput, verbose = false) {
  return evaluateRuleset(compileRuleset({ name: 'rs', rules }), new PreparedInput(input), { verbose })
}

describe('pattern rules in rulesets', () => {
  it('fail with Kyverno\'s message and name the failing field', () => {
    const result = judge([privileged], { object: pod({ containers: [container({ privileged: false }), container({ privileged: true })] }) })
    expect(result).toEqual({
      ruleset: 'rs',
      passed: false,
      results: [
        {
          ruleset: 'rs',
          rule: 'privileged-containers',
          status: 'fail',
          severity: 'high',
          message: 'validation error: Privileged mode is disallowed. rule privileged-containers failed at path /spec/containers/1/securityContext/privileged/',
          path: 'spec.containers[1].securityContext.privileged',
        },
      ],
    })
  })

  it('pass, and are skipped (verbose) when a conditional anchor does not hold', () => {
    expect(judge([privileged], { object: pod({ containers: [container({})] }) }).passed).toBe(true)
    const latest: Rule = { name: 'latest', match: { kinds: ['Pod'] }, validate: { pattern: { spec: { containers: [{ '(image)': '*:latest', imagePullPolicy: 'Always' }] } } } }
    expect(judge([latest], { object: pod({ containers: [container({})] }) }, true).results).toEqual([
      {
        ruleset: 'rs',
        rule: 'latest',
        status: 'skip',
        severity: 'medium',
        message: "conditional anchor mismatch: resource value 'nginx:1.27' does not match '*:latest' at path /spec/containers/0/image/",
      },
    ])
  })

  it('judge a controller\'s pod template under autogen, with paths in the controller', () => {
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'shop' },
      spec: { template: { metadata: { labels: { app: 'web' } }, spec: { containers: [container({ privileged: true })] } } },
    }
    expect(judge([privileged], { object: deployment }).results[0]).toMatchObject({
      status: 'fail',
      autogen: 'Deployment',
      message: 'validation error: Privileged mode is disallowed. rule privileged-containers failed at path /spec/template/spec/containers/0/securityContext/privileged/',
      path: 'spec.template.spec.containers[0].securityContext.privileged',
    })
    const cronJob = {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'nightly', namespace: 'shop' },
      spec: { schedule: '@daily', jobTemplate: { spec: { template: { spec: { containers: [container({ privileged: true })] } } } } },
    }
    expect(judge([privileged], { object: cronJob }).results[0]).toMatchObject({
      autogen: 'CronJob',
      path: 'spec.jobTemplate.spec.template.spec.containers[0].securityContext.privileged',
    })
  })

  it('anyPattern passes when one alternative matches and fails with each alternative\'s path', () => {
    const nonRoot: Rule = {
      name: 'run-as-non-root',
      match: { kinds: ['Pod'] },
      validate: { anyPattern: [{ spec: { securityContext: { runAsNonRoot: true } } }, { spec: { containers: [{ securityContext: { runAsNonRoot: true } }] } }] },
    }
    expect(judge([nonRoot], { object: pod({ securityContext: { runAsNonRoot: true }, containers: [container({})] }) }).passed).toBe(true)
    expect(judge([nonRoot], { object: pod({ containers: [container({})] }) }).results[0]).toMatchObject({
      status: 'fail',
      message: 'validation error: rule run-as-non-root[0] failed at path /spec/securityContext/ rule run-as-non-root[1] failed at path /spec/containers/0/securityContext/runAsNonRoot/',
      path: 'spec.securityContext',
    })
  })

  it('do not judge deletions, which carry no object', () => {
    const input: EvaluationInput = { object: null, oldObject: pod({ containers: [container({ privileged: true })] }), request: { operation: 'DELETE' } }
    expect(judge([privileged], input, true).results[0]).toMatchObject({ status: 'skip' })
  })

  it('report malformed patterns when the ruleset compiles, naming each place', () => {
    const broken: Rule[] = [
      { name: 'a', validate: { pattern: { spec: { replicas: '=>2' } } } },
      { name: 'b', validate: { anyPattern: [{ spec: {} }, { metadata: { labels: { '+(team)': 'x' } } }] } },
    ]
    let error: unknown
    try {
      compileRuleset({ name: 'bad', rules: broken })
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(RulesetCompileError)
    expect((error as RulesetCompileError).problems.map((problem) => [problem.rule, problem.path])).toEqual([
      ['a', 'rules[0].validate.pattern.spec.replicas'],
      ['b', 'rules[1].validate.anyPattern[1].metadata.labels["+(team)"]'],
    ])
  })

  it('resolve $(...) references to other fields of the pattern before matching, as Kyverno does', () => {
    const rule: Rule = {
      name: 'requests-within-limits',
      validate: { pattern: { spec: { containers: [{ resources: { requests: { memory: '$(<=./../../limits/memory)' }, limits: { memory: '2048Mi' } } }] } } },
    }
    const withMemory = (requests: string, limits: string) =>
      pod({ containers: [{ name: 'app', image: 'nginx:1.27', resources: { requests: { memory: requests }, limits: { memory: limits } } }] })
    const judgeOne = (object: unknown) => evaluateRuleset(compileRuleset({ name: 'r', rules: [rule] }), new PreparedInput({ object }), { verbose: true }).results.map((r) => r.status)
    expect(judgeOne(withMemory('1Gi', '2Gi'))).toEqual(['pass'])
    expect(judgeOne(withMemory('3Gi', '2Gi'))).toEqual(['fail'])
    expect(judgeOne(withMemory('1Gi', '4Gi'))).toEqual(['fail'])
  })
})
