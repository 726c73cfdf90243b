import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { judgeTest } from '../../src/kyverno-test/judge-test.js'
import { loadTest, TestLoadError } from '../../src/kyverno-test/load-test.js'
import { fixtures } from '../commands/run-cli.js'

const testFile = (name: string) => join(fixtures, 'kyverno-test-context', name, '.kyverno-test', 'kyverno-test.yaml')

describe('a test with a context file', () => {
  it('hands its objects and image metadata to the CEL policies it judges', () => {
    const test = loadTest(testFile('cluster-lookups'))
    expect(test.cluster?.resource?.('v1', 'configmaps', 'platform', 'registries')?.data).toEqual({ allowed: 'ghcr.io/,quay.io/' })
    const outcomes = judgeTest(test, 'cluster-lookups').map(({ resource, expected, actual, detail }) => ({ resource, expected, actual, detail }))
    expect(outcomes).toEqual([
      { resource: 'default/scaled', expected: 'pass', actual: 'pass', detail: undefined },
      { resource: 'untrusted', expected: 'fail', actual: 'fail', detail: 'untrusted registry in untrusted' },
      { resource: 'unscaled', expected: 'fail', actual: 'fail', detail: 'no HorizontalPodAutoscaler scales this Deployment' },
      { resource: 'as-root', expected: 'fail', actual: 'fail', detail: 'images must not run as root' },
      { resource: 'team-b/scaled', expected: 'fail', actual: 'fail', detail: 'no HorizontalPodAutoscaler scales this Deployment' },
      {
        resource: 'unknown-image',
        expected: 'error',
        actual: 'error',
        detail:
          'expression "variables.containers.all(c, has(image.GetMetadata(c.image).config.User) && image.GetMetadata(c.image).config.User != \'root\')" failed: failed to get image data: image data for ghcr.io/acme/other:2.0 not found (at 1:76)',
      },
    ])
  })

  it('without one, the same policy errs saying there is no cluster data', () => {
    const test = loadTest(testFile('no-context'))
    expect(test.cluster).toBeUndefined()
    const [outcome] = judgeTest(test, 'no-context')
    expect(outcome).toMatchObject({
      actual: 'error',
      detail:
        'expression "resource.Get(\\"v1\\", \\"configmaps\\", \\"platform\\", \\"registries\\").data[?\'allowed\'].orValue(\\"\\").split(\\",\\")" failed: resource.Get("v1", "configmaps", "platform", "registries"): no cluster data is available to this evaluation (at 1:1)',
    })
  })

  it('fails to load when the context file is missing or malformed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'verdict-context-'))
    mkdirSync(join(dir, '.kyverno-test'))
    const file = join(dir, '.kyverno-test', 'kyverno-test.yaml')
    writeFileSync(file, 'apiVersion: cli.kyverno.io/v1alpha1\nkind: Test\nmetadata: {name: t}\npolicies: []\nresources: []\ncontext: context.yaml\n')
    expect(() => loadTest(file)).toThrow(TestLoadError)
    expect(() => loadTest(file)).toThrow(`${join(dir, '.kyverno-test', 'context.yaml')}: cannot read: ENOENT`)
    writeFileSync(join(dir, '.kyverno-test', 'context.yaml'), 'kind: Context\nspec:\n  resources:\n  - {kind: Pod, metadata: {name: p}}\n')
    expect(() => loadTest(file)).toThrow(`${join(dir, '.kyverno-test', 'context.yaml')}: spec.resources[0] needs an apiVersion and a kind`)
  })
})
