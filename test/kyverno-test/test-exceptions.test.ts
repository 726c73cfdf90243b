import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { judgeTest } from '../../src/kyverno-test/judge-test.js'
import { loadTest } from '../../src/kyverno-test/load-test.js'
import { fixtures } from '../commands/run-cli.js'

const testFile = (name: string) => join(fixtures, 'kyverno-test-exceptions', name, '.kyverno-test', 'kyverno-test.yaml')

function outcomes(file: string, now?: Date) {
  return judgeTest(loadTest(file, now), 'test').map(({ rule, resource, expected, actual, exception }) => ({ rule, resource, expected, actual, exception }))
}

describe('verdict test honours the PolicyExceptions a Kyverno test lists', () => {
  it('kyverno.io/v2: the rule and its autogen rule, for the kinds and names matched; a StatefulSet or a CronJob is not', () => {
    expect(outcomes(testFile('host-namespaces'))).toEqual([
      { rule: 'autogen-host-namespaces', resource: 'important-tool', expected: 'skip', actual: 'skip', exception: 'delta-exception' },
      { rule: 'host-namespaces', resource: 'important-tool-debug', expected: 'skip', actual: 'skip', exception: 'delta-exception' },
      { rule: 'autogen-host-namespaces', resource: 'important-tool-store', expected: 'fail', actual: 'fail', exception: undefined },
      { rule: 'autogen-cronjob-host-namespaces', resource: 'important-tool-cleanup', expected: 'fail', actual: 'fail', exception: undefined },
      { rule: 'autogen-host-namespaces', resource: 'bad-deployment', expected: 'fail', actual: 'fail', exception: undefined },
      { rule: 'autogen-host-namespaces', resource: 'good-deployment', expected: 'pass', actual: 'pass', exception: undefined },
    ])
  })

  it('kyverno.io/v2 conditions: only the objects whose label holds', () => {
    expect(outcomes(testFile('conditions')).map(({ resource, actual, exception }) => [resource, actual, exception])).toEqual([
      ['excluded-deployment', 'skip', 'container-exception'],
      ['bad-deployment', 'fail', undefined],
      ['good-deployment', 'pass', undefined],
      ['blue-pod', 'skip', 'container-exception'],
      ['green-pod', 'fail', undefined],
    ])
  })

  it('policies.kyverno.io/v1: policyRefs and matchConditions', () => {
    expect(outcomes(testFile('validating-policy')).map(({ resource, actual, exception }) => [resource, actual, exception])).toEqual([
      ['prod-web', 'pass', undefined],
      ['staging-web', 'fail', undefined],
      ['skipped-deployment', 'skip', 'check-name'],
    ])
  })

  it('says why the exempted result is a skip', () => {
    const [exempted] = judgeTest(loadTest(testFile('host-namespaces')), 'test')
    expect(exempted).toMatchObject({ actual: 'skip', detail: 'exempted by exception "delta-exception"', exception: 'delta-exception' })
  })

  it('loads an exception exempting single Pod Security controls as the same entries', () => {
    expect(loadTest(testFile('pod-security')).exceptions.map(({ name, podSecurity }) => ({ name, podSecurity }))).toEqual([
      { name: 'pod-security-exception', podSecurity: [{ controlName: 'HostPath Volumes', restrictedField: 'spec.volumes[*].hostPath', values: ['/var/lib1'] }] },
    ])
  })
})

describe('an exception of a test with an end', () => {
  const dir = mkdtempSync(join(tmpdir(), 'verdict-test-exceptions-'))
  mkdirSync(join(dir, '.kyverno-test'))
  const file = join(dir, '.kyverno-test', 'kyverno-test.yaml')
  writeFileSync(
    join(dir, 'policy.yaml'),
    `apiVersion: policies.kyverno.io/v1
kind: ValidatingPolicy
metadata: {name: named}
spec:
  validationActions: [Deny]
  matchConstraints:
    resourceRules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}]
  validations:
  - expression: object.metadata.name.startsWith('app-')
`,
  )
  writeFileSync(join(dir, '.kyverno-test', 'resources.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: legacy}\n')
  writeFileSync(
    join(dir, '.kyverno-test', 'exception.yaml'),
    `apiVersion: policies.kyverno.io/v1
kind: PolicyException
metadata: {name: legacy-name}
spec:
  policyRefs: [{kind: ValidatingPolicy, name: named}]
  expiresAt: "2026-07-01T00:00:00Z"
`,
  )
  writeFileSync(
    file,
    `apiVersion: cli.kyverno.io/v1alpha1
kind: Test
metadata: {name: ends}
policies: [../policy.yaml]
resources: [resources.yaml]
exceptions: [exception.yaml]
results:
- {isValidatingPolicy: true, policy: named, kind: ConfigMap, resources: [legacy], result: skip}
`,
  )

  it('applies before expiresAt and no longer from that instant on', () => {
    expect(outcomes(file, new Date('2026-06-30T23:59:59.999Z'))[0]).toMatchObject({ actual: 'skip', exception: 'legacy-name' })
    expect(outcomes(file, new Date('2026-07-01T00:00:00.000Z'))[0]).toMatchObject({ actual: 'fail', exception: undefined })
  })

  it('fails to load when an exceptions file holds something else', () => {
    writeFileSync(join(dir, '.kyverno-test', 'not-exception.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n')
    writeFileSync(join(dir, '.kyverno-test', 'other.yaml'), `apiVersion: cli.kyverno.io/v1alpha1\nkind: Test\nmetadata: {name: other}\npolicies: [../policy.yaml]\nresources: [resources.yaml]\nexceptions: [not-exception.yaml]\n`)
    expect(() => loadTest(join(dir, '.kyverno-test', 'other.yaml'))).toThrow(
      `${join(dir, '.kyverno-test', 'not-exception.yaml')}: document 1 is not a Kyverno PolicyException (kyverno.io/v2, v2beta1 or policies.kyverno.io)`,
    )
  })
})
