import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as yaml from 'js-yaml'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FakeKubeApi, type Json } from '../k8s/fake-kube-api.js'
import { fixtures, runCli } from './run-cli.js'

interface JsonScan {
  results: Array<{ kind: string; namespace: string | null; name: string | null; status: string; exception?: string; message?: string }>
  summary: { failed: number; denied: boolean }
}

/** The Kyverno fixture policy, as a background one: a scan judges only those. */
const kyvernoPolicy = readFileSync(join(fixtures, 'kyverno-test-exceptions', 'host-namespaces', 'policy.yaml'), 'utf8').replace('background: false', 'background: true')
const workloads = yaml.loadAll(readFileSync(join(fixtures, 'kyverno-test-exceptions', 'host-namespaces', '.kyverno-test', 'resources.yaml'), 'utf8')) as Json[]
const deltaException = yaml.load(readFileSync(join(fixtures, 'kyverno-exceptions', 'delta-exception.yaml'), 'utf8')) as Json

function ofKind(kind: string): Json[] {
  return workloads.filter((object) => object.kind === kind).map((object) => ({ ...object, metadata: { namespace: 'default', ...(object.metadata as Json) } }))
}

function pod(namespace: string, name: string, image: string): Json {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace }, spec: { containers: [{ name: 'app', image }] } }
}

/** `verdict scan --cluster` applies the cluster's PolicyExceptions, Verdict's and Kyverno's, as the controller's scan would. */
describe('verdict scan --cluster with the cluster\'s PolicyExceptions', () => {
  let api: FakeKubeApi
  let dir: string
  let kubeconfig: string
  const scan = async (args: string[]) => runCli(['scan', '--cluster', '--kubeconfig', kubeconfig, ...args, '-o', 'json'], { env: { HOME: dir, KUBECONFIG: undefined, KUBERNETES_SERVICE_HOST: undefined } })
  const outcome = (report: JsonScan) => report.results.map((result) => `${result.kind} ${result.namespace}/${result.name}: ${result.status}${result.exception ? ` by ${result.exception}` : ''}`)

  beforeAll(async () => {
    api = await FakeKubeApi.start()
    api.createMany('pods', [...ofKind('Pod'), pod('shop', 'web-1', 'nginx:latest'), pod('shop', 'web-2', 'nginx:latest')])
    api.createMany('deployments', ofKind('Deployment'))
    api.createMany('statefulsets', ofKind('StatefulSet'))
    api.createMany('cronjobs', ofKind('CronJob'))
    api.create('rulesets', { apiVersion: 'verdict.dev/v1alpha1', kind: 'Ruleset', metadata: { name: 'hygiene' }, spec: { rules: [{ name: 'no-latest', match: { kinds: ['Pod'] }, validate: { cel: [{ expression: "object.spec.containers.all(c, !c.image.endsWith(':latest'))", message: 'images must be pinned' }] } }] } })
    api.create('policies', { apiVersion: 'verdict.dev/v1alpha1', kind: 'Policy', metadata: { name: 'production' }, spec: { rulesets: ['hygiene'], action: 'Deny' } })
    const verdictException = (name: string, pods: string[], expiresAt: string): Json => ({
      apiVersion: 'verdict.dev/v1alpha1',
      kind: 'PolicyException',
      metadata: { name },
      spec: { policies: ['production'], match: { kinds: ['Pod'], namespaces: ['shop'], names: pods }, reason: 'the shop pins its images next sprint', expiresAt },
    })
    api.create('policyexceptions', verdictException('web-1-latest', ['web-1'], '2999-01-01T00:00:00Z'))
    api.create('policyexceptions', verdictException('web-2-latest', ['web-2'], '2001-01-01T00:00:00Z'))
    api.create('policyexceptions', { apiVersion: 'verdict.dev/v1alpha1', kind: 'PolicyException', metadata: { name: 'no-reason' }, spec: { policies: ['production'], match: { kinds: ['Pod'] } } })
    api.create('kyvernopolicyexceptions', deltaException)
    api.create('kyvernopolicyexceptions', {
      ...deltaException,
      metadata: { name: 'admission-only-exception', namespace: 'delta' },
      spec: { ...(deltaException.spec as Json), background: false },
    })
    dir = mkdtempSync(join(tmpdir(), 'verdict-scan-cluster-exceptions-'))
    kubeconfig = join(dir, 'kubeconfig')
    writeFileSync(kubeconfig, api.kubeConfig('laptop').exportConfig())
  })

  afterAll(async () => {
    await api?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('applies the cluster\'s own Verdict exceptions while they last, and warns of those it leaves out', async () => {
    const run = await scan([])
    expect(run.stderr.split('\n')).toEqual(
      expect.arrayContaining([
        'warning: PolicyException "no-reason" is not applied: spec.reason: is required',
        expect.stringMatching(/^warning: Kyverno PolicyException delta\/admission-only-exception \(kyverno\.io\/v2\) is not applied: spec\.background: is false/),
      ]),
    )
    const report = JSON.parse(run.stdout) as JsonScan
    expect(outcome(report)).toEqual(['Pod shop/web-1: skip by web-1-latest', 'Pod shop/web-2: fail'])
    expect(run.status).toBe(1)
  })

  it('applies the cluster\'s Kyverno exceptions to imported Kyverno policies as Kyverno would, without a reason of their own', async () => {
    const policy = join(dir, 'disallow-host-namespaces.yaml')
    writeFileSync(policy, kyvernoPolicy)
    const run = await scan(['--policies', policy])
    const report = JSON.parse(run.stdout) as JsonScan
    expect(outcome(report).filter((line) => line.includes('delta/'))).toEqual([
      'Deployment delta/important-tool: skip by delta-exception',
      'StatefulSet delta/important-tool-store: fail',
      'CronJob delta/important-tool-cleanup: fail',
      'Pod delta/important-tool-debug: skip by delta-exception',
    ])
    expect(report.summary).toMatchObject({ denied: true })
  })

  it('lets a local exception replace the cluster\'s of the same name', async () => {
    const local = join(dir, 'web-1-latest.yaml')
    writeFileSync(
      local,
      'apiVersion: verdict.dev/v1alpha1\nkind: PolicyException\nmetadata: {name: web-1-latest}\nspec: {policies: [production], match: {kinds: [Pod], names: [web-2]}, reason: trying the other pod}\n',
    )
    const run = await scan(['--policies', join('scan', 'policies', 'verdict-deny.yaml'), '--policies', local])
    expect(run.stderr).toContain('warning: the local PolicyException "web-1-latest" replaces the cluster\'s\n')
    const report = JSON.parse(run.stdout) as JsonScan
    expect(outcome(report).filter((line) => line.includes('shop/'))).toEqual(['Pod shop/web-1: fail', 'Pod shop/web-2: skip by web-1-latest'])
  })
})
