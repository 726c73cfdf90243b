import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CATALOG } from '../../../src/authoring/catalog/index.js'
import { compileInstruction, compileWithCatalog } from '../../../src/authoring/compile-instruction.js'
import { instructionSamples } from '../../../src/authoring/samples/instruction-samples.js'
import { compileRuleset, evaluateRule, explainRule, PreparedInput, type FieldFinding, type Rule } from '../../../src/engine/index.js'
import { loadTest } from '../../../src/kyverno-test/load-test.js'
import { CONFORMANCE_DIR, conformanceIndex, HAS_CONFORMANCE, WITHOUT_CONFORMANCE } from '../../support/shared-conformance.js'

function explain(rule: Rule, object: unknown) {
  const [compiled] = compileRuleset({ name: 'test', rules: [rule] }).rules
  if (!compiled) throw new Error('no rule')
  return explainRule(compiled, new PreparedInput({ object }))
}

function fieldsOf(expression: string, object: unknown, variables?: Rule['variables']): FieldFinding[] {
  const explanation = explain({ name: 'r', ...(variables ? { variables } : {}), validate: { cel: [{ expression }] } }, object)
  expect(explanation.status).toBe('fail')
  return explanation.fields
}

const pod = (spec: Record<string, unknown>, metadata: Record<string, unknown> = { name: 'web' }) => ({ apiVersion: 'v1', kind: 'Pod', metadata, spec })

describe('explainRule', () => {
  it('names the field, the value found and the compliant value for a catalog rule', () => {
    const { spec } = compileInstruction('containers must not be privileged', { platform: 'kubernetes' })
    const [rule] = spec.rules
    if (!rule) throw new Error('no rule')
    const privileged = pod({ containers: [{ name: 'ok', image: 'a' }, { name: 'web', image: 'b', securityContext: { privileged: true } }], initContainers: [{ name: 'init', image: 'c', securityContext: { privileged: true } }] })
    expect(explain(rule, privileged)).toEqual({
      status: 'fail',
      fields: [
        { path: 'spec.containers[1].securityContext.privileged', actual: true, expected: false, requirement: 'must not be true' },
        { path: 'spec.initContainers[0].securityContext.privileged', actual: true, expected: false, requirement: 'must not be true' },
      ],
    })
  })

  it('gives paths in the submitted controller when the rule judged its pod template', () => {
    const rule: Rule = { name: 'no-host-network', match: { kinds: ['Pod'] }, validate: { cel: [{ expression: 'object.spec.?hostNetwork.orValue(false) != true' }] } }
    const template = { metadata: { labels: { app: 'web' } }, spec: { hostNetwork: true, containers: [] } }
    expect(explain(rule, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { template } }).fields).toEqual([
      { path: 'spec.template.spec.hostNetwork', actual: true, expected: false, requirement: 'must not be true' },
    ])
    const cronJob = { apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'nightly' }, spec: { jobTemplate: { spec: { template } } } }
    expect(explain(rule, cronJob).fields).toEqual([{ path: 'spec.jobTemplate.spec.template.spec.hostNetwork', actual: true, expected: false, requirement: 'must not be true' }])
  })

  it.each([
    [
      'a comprehension over containers',
      "object.spec.containers.all(c, !c.image.endsWith(':latest'))",
      pod({ containers: [{ image: 'nginx:1.27' }, { image: 'nginx:latest' }] }),
      [{ path: 'spec.containers[1].image', actual: 'nginx:latest', requirement: 'must not end with ":latest"' }],
    ],
    [
      'a missing map key',
      "has(object.metadata.labels) && 'team' in object.metadata.labels",
      pod({}, { name: 'web', labels: { app: 'web' } }),
      [{ path: 'metadata.labels.team', requirement: 'must be set' }],
    ],
    ['an ordering', 'object.spec.replicas <= 5', { spec: { replicas: 7 } }, [{ path: 'spec.replicas', actual: 7, requirement: 'must be at most 5' }]],
    [
      'membership with a default',
      "object.metadata.?labels.?env.orValue('') in ['dev', 'prod']",
      { metadata: {} },
      [{ path: 'metadata.labels.env', requirement: 'must be one of "dev", "prod"' }],
    ],
    [
      'a field that must be set, checked as not empty',
      "object.spec.?priorityClassName.orValue('') != ''",
      { spec: {} },
      [{ path: 'spec.priorityClassName', requirement: 'must be set' }],
    ],
    [
      'alternatives about one field, merged',
      '!has(object.spec.hostNetwork) || object.spec.hostNetwork == false',
      { spec: { hostNetwork: true } },
      [{ path: 'spec.hostNetwork', actual: true, requirement: 'must not be set or be false' }],
    ],
    ['a regular expression', "object.metadata.name.matches('^[a-z]+$')", { metadata: { name: 'Web' } }, [{ path: 'metadata.name', actual: 'Web', requirement: 'must match "^[a-z]+$"' }]],
    ['a size', 'size(object.spec.containers) <= 1', pod({ containers: [{}, {}] }), [{ path: 'spec.containers', requirement: 'must have at most 1 item' }]],
    [
      'a count of filtered items',
      "object.spec.constraints.filter(t, t.key == 'zone').size() == 1",
      { spec: { constraints: [{ key: 'host' }] } },
      [{ path: 'spec.constraints', requirement: 'must have exactly 1 item that satisfies `t.key == "zone"`' }],
    ],
    [
      'map keys',
      "object.metadata.labels.all(k, k.startsWith('acme.io/'))",
      { metadata: { labels: { 'acme.io/team': 'a', env: 'prod' } } },
      [{ path: 'metadata.labels.env', requirement: 'its key must start with "acme.io/"' }],
    ],
    [
      'a filter that must come out empty',
      "object.spec.containers.filter(c, c.image.startsWith('docker.io/')).size() == 0",
      pod({ containers: [{ image: 'docker.io/nginx' }, { image: 'registry.acme.io/web' }] }),
      [{ path: 'spec.containers[0].image', actual: 'docker.io/nginx', requirement: 'must not start with "docker.io/"' }],
    ],
    [
      'alternatives the expression lists itself',
      '[object.metadata.?labels.?team, object.metadata.?labels.?owner].exists(v, v.hasValue())',
      { metadata: { labels: {} } },
      [{ path: 'metadata.labels.team', requirement: 'must be set' }],
    ],
    [
      'a type test on a missing field',
      "type(object.?version.orValue(null)) == string && object.version.matches('^v')",
      {},
      [{ path: 'version', requirement: 'must be set to a string' }],
    ],
    [
      'a check computed by a library function, named with its source',
      "quantity(object.spec.limit).compareTo(quantity('1Gi')) <= 0",
      { spec: { limit: '2Gi' } },
      [{ path: 'spec.limit', actual: '2Gi', requirement: 'must satisfy `quantity(object.spec.limit).compareTo(quantity("1Gi")) <= 0`' }],
    ],
  ])('finds %s', (_what, expression, object, fields) => {
    expect(fieldsOf(expression, object)).toEqual(fields)
  })

  it('follows rule variables to the fields they read', () => {
    const variables = [{ name: 'containers', expression: 'object.spec.?containers.orValue([]) + object.spec.?initContainers.orValue([])' }]
    const object = pod({ containers: [{ name: 'a' }], initContainers: [{ name: 'b', securityContext: { runAsUser: 0 } }] })
    expect(fieldsOf('variables.containers.all(c, c.?securityContext.?runAsUser.orValue(1) != 0)', object, variables)).toEqual([
      { path: 'spec.initContainers[0].securityContext.runAsUser', actual: 0, requirement: 'must not be 0' },
    ])
  })

  it('explains every validation that fails, not only the first', () => {
    const rule: Rule = { name: 'r', validate: { cel: [{ expression: 'has(object.spec.a)' }, { expression: 'true' }, { expression: 'object.spec.b == 1' }] } }
    expect(explain(rule, { spec: { b: 2 } }).fields).toEqual([
      { path: 'spec.a', requirement: 'must be set' },
      { path: 'spec.b', actual: 2, expected: 1, requirement: 'must be 1' },
    ])
  })

  it('knows no fields when the check reads none of the document', () => {
    expect(fieldsOf("request.userInfo.username == 'admin'", { kind: 'Pod' })).toEqual([])
    expect(fieldsOf('false', { kind: 'Pod' })).toEqual([])
  })

  it('reports the status without fields for a rule that passes, is skipped or errs', () => {
    const rule = (expression: string): Rule => ({ name: 'r', match: { kinds: ['Pod'] }, validate: { cel: [{ expression }] } })
    expect(explain(rule('true'), pod({}))).toEqual({ status: 'pass', fields: [] })
    expect(explain(rule('false'), { apiVersion: 'v1', kind: 'Secret' })).toEqual({ status: 'skip', fields: [] })
    expect(explain(rule('object.spec.missing == 1'), pod({}))).toEqual({ status: 'error', fields: [] })
  })
})

describe('fields for the catalog templates', () => {
  // Where the template's check reads a value the document does not hold (a namespace given by the request).
  const UNKNOWN = new Set(['no-default-namespace: the object without metadata.namespace'])

  // The catalog's templates, read by the catalog reader: each template's own phrasing and samples.
  it.each(CATALOG.map((template) => [template.id, template] as const))('%s names a field for each of its non-compliant samples', (id, template) => {
    const { spec, rules } = compileWithCatalog(template.phrasings[0] as string, { platform: template.platform })
    const compiled = compileRuleset({ ...spec, name: 'catalog' })
    const { samples } = instructionSamples('catalog', spec, rules)
    const unexplained: string[] = []
    for (const sample of samples.filter((candidate) => candidate.label === 'non-compliant')) {
      const input = new PreparedInput({ object: sample.document })
      for (const rule of compiled.rules) {
        const explanation = explainRule(rule, input)
        expect(explanation.status).toBe(evaluateRule(rule, input).status)
        if (explanation.status === 'fail' && explanation.fields.length === 0) unexplained.push(`${id}: ${sample.description}`)
      }
    }
    expect(unexplained.filter((entry) => !UNKNOWN.has(entry))).toEqual([])
  })
})

describe.skipIf(!HAS_CONFORMANCE)(`fields for the Kyverno library (Tier A)${WITHOUT_CONFORMANCE}`, () => {
  const conformance = CONFORMANCE_DIR
  const index = { tests: conformanceIndex() }

  it('agrees with the engine on every rule and resource, and names fields for all but the checks that read none', () => {
    const unexplained = new Set<string>()
    let failures = 0
    for (const entry of index.tests.filter((test) => test.tier === 'A')) {
      const test = loadTest(resolve(conformance, 'policies', entry.dir, '.kyverno-test', 'kyverno-test.yaml'))
      for (const policy of test.policies.values()) {
        if (!policy.ruleset) continue
        const compiled = compileRuleset(policy.ruleset)
        for (const resource of test.resources) {
          const input = new PreparedInput({ object: resource.object })
          for (const rule of compiled.rules) {
            const explanation = explainRule(rule, input)
            expect(explanation.status).toBe(evaluateRule(rule, input).status)
            if (explanation.status !== 'fail') continue
            failures++
            if (explanation.fields.length === 0) unexplained.add(`${entry.dir} ${rule.name}`)
          }
        }
      }
    }
    expect(failures).toBe(1515)
    // Policies whose match (an apiVersion, an owner) decides and whose validation is just `false`.
    expect([...unexplained].sort()).toEqual([
      'best-practices-cel/check-deprecated-apis validate-v1-25-removals',
      'best-practices-cel/check-deprecated-apis validate-v1-29-removals',
      'best-practices-cel/check-deprecated-apis validate-v1-32-removals',
      'best-practices-vpol/check-deprecated-apis check-deprecated-apis',
      'other-cel/restrict-jobs restrict-job-from-cronjob',
      'other-vpol/restrict-jobs restrict-jobs',
    ])
  })
})
