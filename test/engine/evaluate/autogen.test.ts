import { describe, expect, it } from 'vitest'
import { compileRuleset } from '../../../src/engine/compile/compile-ruleset.js'
import { evaluateRuleset } from '../../../src/engine/evaluate/evaluate-ruleset.js'
import { PreparedInput } from '../../../src/engine/evaluate/prepared-input.js'
import type { Rule } from '../../../src/engine/model/rule.js'

const podSpec = { containers: [{ name: 'app', image: 'nginx:latest' }] }
const template = { metadata: { labels: { app: 'web' } }, spec: podSpec }
const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'shop' }, spec: { template } }
const cronJob = {
  apiVersion: 'batch/v1',
  kind: 'CronJob',
  metadata: { name: 'nightly', namespace: 'ops' },
  spec: { schedule: '0 1 * * *', jobTemplate: { spec: { template } } },
}

const identity: Rule = {
  name: 'identity',
  match: { kinds: ['Pod'], labelSelector: { matchLabels: { app: 'web' } } },
  validate: {
    cel: [
      {
        expression: "object.kind == 'Pod' && object.spec.containers.all(c, !c.image.endsWith(':latest'))",
        messageExpression: "object.metadata.namespace + '/' + object.metadata.name + ' uses latest'",
      },
    ],
  },
}

function judge(rule: Rule, object: unknown) {
  return evaluateRuleset(compileRuleset({ name: 'rs', rules: [rule] }), new PreparedInput({ object }), { verbose: true }).results
}

describe('autogen', () => {
  it('judges a Deployment template as a Pod with the Deployment name and namespace', () => {
    expect(judge(identity, deployment)).toEqual([
      { ruleset: 'rs', rule: 'identity', status: 'fail', severity: 'medium', message: 'shop/web uses latest', autogen: 'Deployment' },
    ])
  })

  it('finds the CronJob template under jobTemplate', () => {
    expect(judge(identity, cronJob)[0]).toMatchObject({ status: 'fail', message: 'ops/nightly uses latest', autogen: 'CronJob' })
  })

  it('is off with autogen: false and narrowed by controllers', () => {
    expect(judge({ ...identity, autogen: false }, deployment)[0]?.status).toBe('skip')
    expect(judge({ ...identity, autogen: { controllers: ['CronJob'] } }, deployment)[0]?.status).toBe('skip')
    expect(judge({ ...identity, autogen: { controllers: ['CronJob'] } }, cronJob)[0]?.status).toBe('fail')
  })

  it('does not apply to rules that do not name Pods, nor to kinds in other groups', () => {
    expect(judge({ ...identity, match: { kinds: ['Service'] } }, deployment)[0]?.status).toBe('skip')
    expect(judge(identity, { ...deployment, apiVersion: 'example.com/v1' })[0]?.status).toBe('skip')
  })

  it('prefers a direct match over the template', () => {
    const both: Rule = { ...identity, match: { kinds: ['Pod', 'Deployment'] }, validate: { cel: [{ expression: "object.kind == 'Deployment'" }] } }
    expect(judge(both, deployment)).toEqual([{ ruleset: 'rs', rule: 'identity', status: 'pass', severity: 'medium' }])
  })

  it('skips a controller without a template', () => {
    expect(judge(identity, { ...deployment, spec: {} })[0]?.status).toBe('skip')
  })
})
