import { describe, expect, it } from 'vitest'
import { compileRuleset } from '../../../src/engine/compile/compile-ruleset.js'
import { evaluatePolicy } from '../../../src/engine/evaluate/evaluate-policy.js'
import { PreparedInput } from '../../../src/engine/evaluate/prepared-input.js'
import { compileException } from '../../../src/engine/exceptions/compile-exception.js'
import { resultForm } from '../../../src/engine/exceptions/exempting-exception.js'
import { checkExceptionSpec } from '../../../src/engine/model/check-exception.js'
import type { PolicyException } from '../../../src/engine/model/policy-exception.js'

const NOW = new Date('2026-06-01T12:00:00Z')

const podSpec = { hostIPC: true, containers: [{ name: 'a', image: 'busybox:1.35' }] }
const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'important-tool', namespace: 'delta' }, spec: podSpec }
const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'important-tool', namespace: 'delta' },
  spec: { template: { metadata: { labels: { app: 'tool' } }, spec: podSpec } },
}
const statefulSet = { ...deployment, kind: 'StatefulSet' }
const cronJob = {
  apiVersion: 'batch/v1',
  kind: 'CronJob',
  metadata: { name: 'important-tool', namespace: 'delta' },
  spec: { schedule: '* * * * *', jobTemplate: { spec: { template: { spec: podSpec } } } },
}

const rulesets = [
  compileRuleset({
    name: 'disallow-host-namespaces',
    rules: [{ name: 'host-namespaces', match: { kinds: ['Pod'] }, autogen: true, validate: { cel: [{ expression: '!object.spec.?hostIPC.orValue(false)', message: 'no host IPC' }] } }],
  }),
]
const policy = { name: 'disallow-host-namespaces', rulesets: ['disallow-host-namespaces'], action: 'Deny' as const }

function statusOf(object: unknown, exception: PolicyException): string | undefined {
  const evaluation = evaluatePolicy(policy, rulesets, new PreparedInput({ object }), { exemptions: { exceptions: [compileException(exception)], now: NOW } })
  const result = evaluation.output.results[0]
  return result === undefined ? 'pass' : result.exception === undefined ? result.status : `skip by ${result.exception}`
}

describe('exceptions naming the forms of a rule (appliesTo)', () => {
  const base: PolicyException = { name: 'delta', rules: [], match: { kinds: ['Pod'], namespaces: ['delta'] }, reason: 'needs the host IPC namespace' }

  it('lets through only the results judged on the object itself, on controllers or on CronJobs, as asked', () => {
    const only = (appliesTo: NonNullable<PolicyException['rules']>[number]['appliesTo']): PolicyException => ({
      ...base,
      rules: [{ ruleset: 'disallow-host-namespaces', rule: 'host-namespaces', ...(appliesTo ? { appliesTo } : {}) }],
    })
    expect([pod, deployment, cronJob].map((object) => statusOf(object, only(['object'])))).toEqual(['skip by delta', 'fail', 'fail'])
    expect([pod, deployment, cronJob].map((object) => statusOf(object, only(['controllers'])))).toEqual(['fail', 'skip by delta', 'fail'])
    expect([pod, deployment, cronJob].map((object) => statusOf(object, only(['cronJobs'])))).toEqual(['fail', 'fail', 'skip by delta'])
    expect([pod, deployment, cronJob].map((object) => statusOf(object, only(undefined)))).toEqual(['skip by delta', 'skip by delta', 'skip by delta'])
  })

  it('names the form of a result by its autogen controller', () => {
    expect([undefined, 'Deployment', 'ReplicationController', 'CronJob'].map(resultForm)).toEqual(['object', 'controllers', 'controllers', 'cronJobs'])
  })

  it('refuses an unknown form, naming the field', () => {
    const { name: _name, ...spec } = base
    const problems = checkExceptionSpec({ ...spec, rules: [{ ruleset: 'a', rule: 'b', appliesTo: ['pods'] }] }, 'spec')
    expect(problems.map((problem) => problem.path)).toEqual(['spec.rules[0].appliesTo[0]'])
  })
})

describe('matchPodTemplates: false', () => {
  const exception: PolicyException = {
    name: 'delta',
    rules: [{ ruleset: 'disallow-host-namespaces', rule: 'host-namespaces' }],
    match: { kinds: ['Pod', 'Deployment'], namespaces: ['delta'], names: ['important-tool*'] },
    reason: 'needs the host IPC namespace',
  }

  it('by default, a Pod match also takes the template of any pod controller', () => {
    expect([pod, deployment, statefulSet].map((object) => statusOf(object, exception))).toEqual(['skip by delta', 'skip by delta', 'skip by delta'])
  })

  it('compares match and conditions with the object itself only: a StatefulSet is not a Pod nor a Deployment', () => {
    const own = { ...exception, matchPodTemplates: false }
    expect([pod, deployment, statefulSet].map((object) => statusOf(object, own))).toEqual(['skip by delta', 'skip by delta', 'fail'])
    const labelled = { ...own, match: { kinds: ['Deployment'] }, conditions: [{ expression: "object.kind == 'Deployment' && has(object.spec.template)" }] }
    expect(statusOf(deployment, labelled)).toBe('skip by delta')
  })
})
