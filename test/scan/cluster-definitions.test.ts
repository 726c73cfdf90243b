import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { backgroundPolicies } from '../../src/scan/cluster/background-policies.js'
import { readClusterDefinitions } from '../../src/scan/cluster/cluster-definitions.js'
import { ScanInputError } from '../../src/scan/scan-error.js'
import { FakeKubeApi, type Json } from '../k8s/fake-kube-api.js'

const PINNED = { name: 'pinned', match: { kinds: ['Pod'] }, validate: { cel: [{ expression: "object.spec.containers.all(c, !c.image.endsWith(':latest'))" }] } }

function resource(kind: 'Ruleset' | 'Policy', metadata: Json, spec: Json): Json {
  return { apiVersion: 'verdict.dev/v1alpha1', kind, metadata, spec }
}

describe('readClusterDefinitions', () => {
  let api: FakeKubeApi

  beforeEach(async () => {
    api = await FakeKubeApi.start()
  })

  afterEach(async () => {
    await api.close()
  })

  it('takes each resource\'s spec as the definition and metadata.name (and labels) as its name, leaving out what the controller would not apply', async () => {
    api.create('rulesets', resource('Ruleset', { name: 'images', labels: { tier: 'prod' } }, { rules: [PINNED] }))
    api.create('rulesets', resource('Ruleset', { name: 'bad-spec' }, { rules: 'not a list' }))
    api.create('policies', resource('Policy', { name: 'by-label' }, { rulesetSelector: { matchLabels: { tier: 'prod' } }, action: 'Warn' }))
    api.create('policies', resource('Policy', { name: 'admission-only' }, { rulesets: ['images'], action: 'Deny', background: false }))
    api.create('policies', resource('Policy', { name: 'needs-bad' }, { rulesets: ['bad-spec'] }))
    const read = await readClusterDefinitions(api.kubeConfig('laptop'), api.url)
    expect(read.rulesets.map((ruleset) => [ruleset.name, ruleset.labels])).toEqual([['images', { tier: 'prod' }]])
    expect(read.policies.map((policy) => [policy.name, policy.action])).toEqual([
      ['by-label', 'Warn'],
      ['admission-only', 'Deny'],
    ])
    expect(read.warnings).toEqual([
      expect.stringMatching(/^Ruleset "bad-spec" is not applied: spec\.rules: /),
      'Policy "needs-bad" is not applied: it names rulesets the cluster does not hold as valid Rulesets: bad-spec',
    ])
    expect(backgroundPolicies(read).policies.map((policy) => policy.name)).toEqual(['by-label'])
    expect(api.requests.map((request) => `${request.method} ${request.path}`)).toEqual(['GET /apis/verdict.dev/v1alpha1/rulesets', 'GET /apis/verdict.dev/v1alpha1/policies'])
  })

  it('refuses a cluster that does not serve the CRDs, naming which', async () => {
    api.failRequests({ pathIncludes: '/policies', status: 404 })
    await expect(readClusterDefinitions(api.kubeConfig('laptop'), api.url)).rejects.toThrow(
      new ScanInputError(
        `the cluster at ${api.url} serves no policies.verdict.dev (the Verdict CRDs are not installed): install Verdict there, or give --policies <files|dirs> to judge by local definitions`,
      ),
    )
  })

  it('names the server and the status when a list is refused', async () => {
    api.failRequests({ pathIncludes: '/rulesets', status: 401 })
    await expect(readClusterDefinitions(api.kubeConfig('laptop'), api.url)).rejects.toThrow(
      new ScanInputError(`cannot read the cluster at ${api.url}: listing /apis/verdict.dev/v1alpha1/rulesets: HTTP 401: injected failure`),
    )
  })
})
