import { describe, expect, it } from 'vitest'
import { compileRuleset } from '../../../src/engine/compile/compile-ruleset.js'
import { RulesetCompileError } from '../../../src/engine/compile/compile-problem.js'
import { evaluatePolicy } from '../../../src/engine/evaluate/evaluate-policy.js'
import { PreparedInput } from '../../../src/engine/evaluate/prepared-input.js'
import { compileException } from '../../../src/engine/exceptions/compile-exception.js'
import type { PolicyException } from '../../../src/engine/model/policy-exception.js'
import type { RuleResult } from '../../../src/engine/results/rule-result.js'

const NOW = new Date('2026-06-01T12:00:00Z')

type Json = Record<string, unknown>

function pod(spec: Json = {}): Json {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'log-reader', namespace: 'delta' },
    spec: { containers: [{ name: 'reader', image: 'registry.example.com/tools/reader:1.0' }], ...spec },
  }
}

const hostPath = { volumes: [{ name: 'logs', hostPath: { path: '/var/log' } }] }
const hostNetwork = { hostNetwork: true }

const rulesets = [
  compileRuleset({
    name: 'psa',
    rules: [
      { name: 'baseline', match: { kinds: ['Pod'] }, validate: { podSecurity: { level: 'baseline', version: 'latest' } } },
      { name: 'no-host-network', match: { kinds: ['Pod'] }, validate: { cel: [{ expression: '!object.spec.?hostNetwork.orValue(false)', message: 'no host network' }] } },
    ],
  }),
]
const policy = { name: 'psa', rulesets: ['psa'], action: 'Deny' as const }

const hostPathException: PolicyException = {
  name: 'delta-logs',
  rules: [{ ruleset: 'psa', rule: '*' }],
  match: { kinds: ['Pod'], namespaces: ['delta'] },
  podSecurity: [{ controlName: 'HostPath Volumes' }],
  reason: 'reads the node logs',
}

function results(object: Json, exceptions: PolicyException[]): Pick<RuleResult, 'rule' | 'status' | 'message' | 'exception'>[] {
  const evaluation = evaluatePolicy(policy, rulesets, new PreparedInput({ object }), {
    exemptions: { exceptions: exceptions.map(compileException), now: NOW },
    verbose: true,
  })
  return evaluation.output.results.map(({ rule, status, message, exception }) => ({ rule, status, ...(message === undefined ? {} : { message }), ...(exception === undefined ? {} : { exception }) }))
}

describe('exceptions with podSecurity', () => {
  it('let a pod failing only an excluded control through, naming the exception', () => {
    expect(results(pod(hostPath), [])[0]).toMatchObject({ rule: 'baseline', status: 'fail' })
    expect(results(pod(hostPath), [hostPathException])[0]).toEqual({
      rule: 'baseline',
      status: 'skip',
      message: 'Pod Security controls exempted by exception "delta-logs"',
      exception: 'delta-logs',
    })
  })

  it('leave the rule failing on a control they do not exclude, reporting what is left', () => {
    // Host Ports comes after HostPath Volumes in the library's order: the message names the first failing control.
    const hostPort = { containers: [{ name: 'reader', image: 'registry.example.com/tools/reader:1.0', ports: [{ containerPort: 80, hostPort: 8080 }] }] }
    expect(results(pod({ ...hostPath, ...hostPort }), [])[0]?.message).toMatch(/^It violates PodSecurity "baseline:latest": HostPath Volumes /)
    expect(results(pod({ ...hostPath, ...hostPort }), [hostPathException])[0]).toEqual({
      rule: 'baseline',
      status: 'fail',
      message: expect.stringMatching(/^It violates PodSecurity "baseline:latest": Host Ports /) as unknown as string,
    })
  })

  it('judge the pod template of a controller the same way, as autogen judges it', () => {
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'log-reader', namespace: 'delta' },
      spec: { template: { metadata: { labels: { app: 'reader' } }, spec: (pod(hostPath) as { spec: Json }).spec } },
    }
    const evaluation = evaluatePolicy(policy, rulesets, new PreparedInput({ object: deployment }), { exemptions: { exceptions: [compileException(hostPathException)], now: NOW }, verbose: true })
    expect(evaluation.output.results[0]).toEqual({
      ruleset: 'psa',
      rule: 'baseline',
      status: 'skip',
      severity: 'medium',
      message: 'Pod Security controls exempted by exception "delta-logs"',
      exception: 'delta-logs',
      autogen: 'Deployment',
    })
  })

  it('do nothing for a rule that is not a podSecurity rule', () => {
    expect(results(pod(hostNetwork), [{ ...hostPathException, podSecurity: [{ controlName: 'Host Namespaces' }] }])).toEqual([
      { rule: 'baseline', status: 'skip', message: 'Pod Security controls exempted by exception "delta-logs"', exception: 'delta-logs' },
      { rule: 'no-host-network', status: 'fail', message: 'no host network' },
    ])
  })

  it('combine the controls of every exception naming the rule, as Kyverno does', () => {
    const hostNamespaces: PolicyException = { ...hostPathException, name: 'delta-network', podSecurity: [{ controlName: 'Host Namespaces' }] }
    expect(results(pod({ ...hostPath, ...hostNetwork }), [hostPathException, hostNamespaces])[0]).toEqual({
      rule: 'baseline',
      status: 'skip',
      message: 'Pod Security controls exempted by exceptions "delta-logs", "delta-network"',
      exception: 'delta-logs',
    })
  })

  it('give way to an exception without podSecurity, which lets the whole rule through', () => {
    const whole: PolicyException = { name: 'delta-all', rules: [{ ruleset: 'psa', rule: 'baseline' }], match: { kinds: ['Pod'], namespaces: ['delta'] }, reason: 'legacy' }
    expect(results(pod({ ...hostPath, ...hostNetwork }), [hostPathException, whole])[0]).toEqual({
      rule: 'baseline',
      status: 'skip',
      message: 'exempted by exception "delta-all"',
      exception: 'delta-all',
    })
  })

  it('leave the rule as it is when their control cannot be excluded at its level', () => {
    const restrictedOnly: PolicyException = { ...hostPathException, podSecurity: [{ controlName: 'Running as Non-root' }] }
    expect(results(pod(hostPath), [restrictedOnly])[0]).toMatchObject({ rule: 'baseline', status: 'fail' })
  })
})

describe('validate.podSecurity rules', () => {
  it('pass a pod meeting the level', () => {
    expect(results(pod(), []).map(({ status }) => status)).toEqual(['pass', 'pass'])
  })

  it('refuse an exclude Kyverno refuses, naming the field', () => {
    const compile = (): unknown =>
      compileRuleset({
        name: 'psa',
        rules: [{ name: 'r', match: { kinds: ['Pod'] }, validate: { podSecurity: { level: 'baseline', exclude: [{ controlName: 'Capabilities' }] } } }],
      })
    expect(compile).toThrow(RulesetCompileError)
    try {
      compile()
    } catch (error) {
      expect((error as RulesetCompileError).problems).toEqual([
        { rule: 'r', path: 'rules[0].validate.podSecurity.exclude[0].controlName', message: 'Capabilities is a container-level control: exclude.images must be specified' },
      ])
    }
  })
})
