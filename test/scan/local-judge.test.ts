import { describe, expect, it } from 'vitest'
import { readDefinitionFiles } from '../../src/commands/read-definitions.js'
import type { Definitions } from '../../src/engine/index.js'
import { LocalJudge } from '../../src/scan/judge/local-judge.js'
import { manifestFiles } from '../../src/scan/manifests/manifest-files.js'
import type { ManifestObject } from '../../src/scan/manifests/manifest-object.js'
import { ScanInputError } from '../../src/scan/scan-error.js'
import { scanFixture } from './scan-fixtures.js'

function object(value: Record<string, unknown>): ManifestObject {
  const metadata = value.metadata as { name?: string; namespace?: string }
  return { file: 'x.yaml', line: 1, apiVersion: String(value.apiVersion), kind: String(value.kind), namespace: metadata.namespace ?? null, name: metadata.name ?? null, value }
}

const badPod = object({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'bad', namespace: 'shop' }, spec: { containers: [{ name: 'web', image: 'nginx:latest' }] } })
const goodPod = object({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'good', namespace: 'shop', labels: { team: 'shop' } },
  spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] },
})

describe('LocalJudge', () => {
  const judge = new LocalJudge(readDefinitionFiles(manifestFiles([scanFixture('policies')])))

  it('takes the action of each policy: Kyverno Enforce is Deny, Audit stays Audit, Verdict policies keep theirs', () => {
    expect(judge.policies.map((policy) => [policy.name, policy.action])).toEqual([
      ['no-nodeport', 'Audit'],
      ['require-team', 'Deny'],
      ['production', 'Deny'],
      ['availability', 'Warn'],
    ])
    expect(judge.policies.find((policy) => policy.name === 'production')?.rules).toEqual([
      { ruleset: 'hygiene', rule: 'no-latest', severity: 'high', description: 'Images are pinned to a version or a digest.', remediation: 'Pin every image to a version or digest.' },
    ])
  })

  it('answers for the policies that judged the object, with every rule that judged it', () => {
    expect(judge.judge(badPod)).toEqual([
      {
        policy: 'require-team',
        action: 'Deny',
        passed: false,
        results: [{ ruleset: 'require-team', rule: 'check-team', status: 'fail', severity: 'medium', message: 'the label team is required', remediation: 'Add the label team.' }],
      },
      {
        policy: 'production',
        action: 'Deny',
        passed: false,
        results: [{ ruleset: 'hygiene', rule: 'no-latest', status: 'fail', severity: 'high', message: 'images must be pinned', remediation: 'Pin every image to a version or digest.' }],
      },
    ])
    expect(judge.judge(goodPod).map((judgement) => [judgement.policy, judgement.passed, judgement.results.map((result) => result.status)])).toEqual([
      ['require-team', true, ['pass']],
      ['production', true, ['pass']],
    ])
  })

  it('judges by a ValidatingAdmissionPolicy with the action of its binding (Warn and Audit: Warn)', () => {
    const vap = new LocalJudge(readDefinitionFiles(manifestFiles([scanFixture('vap')])))
    expect(vap.policies.map((policy) => [policy.name, policy.action])).toEqual([['min-replicas-binding', 'Warn']])
    const deployment = (replicas: number) => object({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas } })
    expect(vap.judge(deployment(1))).toEqual([
      {
        policy: 'min-replicas-binding',
        action: 'Warn',
        passed: false,
        results: [expect.objectContaining({ ruleset: 'min-replicas', rule: 'min-replicas', status: 'fail', message: 'at least two replicas' })],
      },
    ])
    expect(vap.judge(deployment(3)).map((judgement) => judgement.passed)).toEqual([true])
    expect(vap.judge(badPod)).toEqual([])
  })

  it('leaves out policies that do not match the object', () => {
    expect(judge.judge(object({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: {} }))).toEqual([])
  })

  it('judges as a CREATE: a rule limited to UPDATE is skipped, so its policy does not judge the object', () => {
    const definitions: Definitions = {
      rulesets: [{ name: 'updates', rules: [{ name: 'only-update', match: { kinds: ['Pod'], operations: ['UPDATE'] }, validate: { cel: [{ expression: 'false' }] } }] }],
      policies: [{ name: 'on-update', rulesets: ['updates'], action: 'Deny' }],
    }
    expect(new LocalJudge(definitions).judge(badPod)).toEqual([])
  })

  it('lets an erring rule through a Deny policy whose failurePolicy is Ignore, and not through one that fails closed', () => {
    const rulesets = [{ name: 'broken', rules: [{ name: 'reads-missing', validate: { cel: [{ expression: 'object.spec.missing.field == 1' }] } }] }]
    const verdictOf = (failurePolicy: 'Fail' | 'Ignore') =>
      new LocalJudge({ rulesets, policies: [{ name: 'strict', rulesets: ['broken'], action: 'Deny', failurePolicy }] })
        .judge(badPod)
        .map((judgement) => [judgement.passed, judgement.results.map((result) => result.status)])
    expect(verdictOf('Ignore')).toEqual([[true, ['error']]])
    expect(verdictOf('Fail')).toEqual([[false, ['error']]])
  })

  it('gives namespaceSelector the labels of the object\'s Namespace when it is told the namespaces, as a cluster scan is', () => {
    const definitions: Definitions = {
      rulesets: [{ name: 'labelled', rules: [{ name: 'team', match: { kinds: ['Pod'] }, validate: { cel: [{ expression: "has(object.metadata.labels) && 'team' in object.metadata.labels" }] } }] }],
      policies: [{ name: 'prod', rulesets: ['labelled'], action: 'Deny', match: { namespaceSelector: { matchLabels: { env: 'prod' } } } }],
    }
    const shop = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop', labels: { env: 'prod' } } }
    expect(new LocalJudge(definitions).judge(badPod)).toEqual([])
    const judged = new LocalJudge(definitions, { namespaces: { get: (name) => (name === 'shop' ? shop : undefined) } }).judge(badPod)
    expect(judged.map((judgement) => [judgement.policy, judgement.passed])).toEqual([['prod', false]])
  })

  it('refuses definitions without a policy, and a policy naming a ruleset that is not there', () => {
    expect(() => new LocalJudge({ rulesets: [{ name: 'alone', rules: [{ name: 'r', validate: { cel: [{ expression: 'true' }] } }] }], policies: [] })).toThrow(
      new ScanInputError('the --policies files hold no policy (a Verdict Ruleset judges only through a Policy that names it)'),
    )
    expect(() => new LocalJudge({ rulesets: [], policies: [{ name: 'orphan', rulesets: ['gone', 'lost'] }] })).toThrow(
      new ScanInputError('policy "orphan" names unknown rulesets: gone, lost'),
    )
  })
})
