import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Ajv } from 'ajv'
import * as yaml from 'js-yaml'
import { describe, expect, it } from 'vitest'
import {
  compileRuleset,
  evaluatePolicy,
  evaluateRuleset,
  loadDefinition,
  parseDocuments,
  PreparedInput,
  type Policy,
  type Ruleset,
} from '../../src/engine/index.js'
import { CHART_DIR, ROOT } from './chart-render.js'

const EXAMPLES = join(ROOT, 'manifests', 'examples')

function loadOne(file: string): ReturnType<typeof loadDefinition> {
  const documents = parseDocuments(readFileSync(join(EXAMPLES, file), 'utf8'), file)
  expect(documents).toHaveLength(1)
  return loadDefinition(documents[0]?.value)
}

function loadRuleset(): Ruleset {
  const loaded = loadOne('ruleset-no-privileged.yaml')
  if (!('kind' in loaded) || loaded.kind !== 'Ruleset') throw new Error(`not a ruleset: ${JSON.stringify(loaded)}`)
  return loaded.ruleset
}

function loadPolicy(): Policy {
  const loaded = loadOne('policy-deny-privileged.yaml')
  if (!('kind' in loaded) || loaded.kind !== 'Policy') throw new Error(`not a policy: ${JSON.stringify(loaded)}`)
  return loaded.policy
}

const privileged = { privileged: true }

function pod(spec: Record<string, unknown>): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'demo', namespace: 'verdict-demo' }, spec }
}

const normalPod = pod({
  containers: [{ name: 'app', image: 'busybox:1.36', securityContext: { privileged: false, runAsNonRoot: true } }],
  initContainers: [{ name: 'init', image: 'busybox:1.36' }],
})

describe('manifests/examples', () => {
  it('load with the engine loader as a Ruleset and a Policy that names it', () => {
    const ruleset = loadRuleset()
    const policy = loadPolicy()
    expect(ruleset.name).toBe('no-privileged')
    expect(ruleset.labels).toEqual({ platform: 'kubernetes', resource: 'pod' })
    expect(policy).toMatchObject({ name: 'deny-privileged', action: 'Deny', rulesets: ['no-privileged'] })
    expect(() => compileRuleset(ruleset)).not.toThrow()
  })

  it.each([
    ['a container', pod({ containers: [{ name: 'app', image: 'busybox', securityContext: privileged }] }), 'app'],
    [
      'an init container',
      pod({ containers: [{ name: 'app', image: 'busybox' }], initContainers: [{ name: 'setup', image: 'busybox', securityContext: privileged }] }),
      'setup',
    ],
    [
      'an ephemeral container',
      pod({ containers: [{ name: 'app', image: 'busybox' }], ephemeralContainers: [{ name: 'debugger', image: 'busybox', securityContext: privileged }] }),
      'debugger',
    ],
  ])('deny a Pod with a privileged %s, naming it', (_what, object, container) => {
    const result = evaluateRuleset(compileRuleset(loadRuleset()), new PreparedInput({ object }))
    expect(result.passed).toBe(false)
    expect(result.results).toEqual([
      expect.objectContaining({
        ruleset: 'no-privileged',
        rule: 'no-privileged-containers',
        status: 'fail',
        severity: 'critical',
        message: `privileged containers are not allowed: ${container}`,
      }),
    ])
  })

  it('allow a normal Pod', () => {
    expect(evaluateRuleset(compileRuleset(loadRuleset()), new PreparedInput({ object: normalPod }))).toEqual({
      ruleset: 'no-privileged',
      passed: true,
      results: [],
    })
  })

  it('deny through the policy at admission, Pods and pod controllers alike', () => {
    const rulesets = [compileRuleset(loadRuleset())]
    const judge = (object: unknown) =>
      evaluatePolicy(loadPolicy(), rulesets, new PreparedInput({ object, request: { operation: 'CREATE', namespace: 'verdict-demo' } }))
    const privilegedPod = pod({ containers: [{ name: 'app', image: 'busybox', securityContext: privileged }] })
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'verdict-demo' },
      spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: privilegedPod.spec } },
    }
    expect(judge(privilegedPod)).toMatchObject({ action: 'Deny', applied: true, output: { policy: 'deny-privileged', passed: false } })
    expect(judge(deployment)).toMatchObject({ action: 'Deny', applied: true, output: { passed: false } })
    expect(judge(normalPod)).toMatchObject({ applied: true, output: { passed: true, results: [] } })
  })
})

/** The CRDs come from another generator; when they are present, the examples must pass their schemas too. */
describe.each([
  ['ruleset-no-privileged.yaml', 'rulesets.verdict.dev.yaml'],
  ['policy-deny-privileged.yaml', 'policies.verdict.dev.yaml'],
])('%s against the CRD %s', (example, crdFile) => {
  const crdPath = join(CHART_DIR, 'crds', crdFile)
  it.skipIf(!existsSync(crdPath))('is valid for kubectl apply', () => {
    const crd = yaml.load(readFileSync(crdPath, 'utf8')) as {
      spec: { names: { kind: string }; versions: { name: string; schema: { openAPIV3Schema: object } }[] }
    }
    const manifest = yaml.load(readFileSync(join(EXAMPLES, example), 'utf8')) as { apiVersion: string; kind: string }
    const version = crd.spec.versions.find((entry) => `verdict.dev/${entry.name}` === manifest.apiVersion)
    expect(crd.spec.names.kind).toBe(manifest.kind)
    expect(version, `the CRD serves no ${manifest.apiVersion}`).toBeDefined()
    // The x-kubernetes-* extensions are not JSON Schema keywords (strict mode would refuse them); formats are the API server's.
    const validate = new Ajv({ strict: false, allErrors: true, validateFormats: false }).compile(version?.schema.openAPIV3Schema ?? {})
    expect(validate(manifest), JSON.stringify(validate.errors)).toBe(true)
  })
})
