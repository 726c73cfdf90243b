import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { FakeKubeApi, type Json } from '../k8s/fake-kube-api.js'
import { sarifValidator } from '../scan/sarif-schema.js'
import { runCli } from './run-cli.js'

const DENY_POLICY = ['--policies', 'scan/policies/verdict-deny.yaml']

function pod(namespace: string, name: string, image: string): Json {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace, managedFields: [{ manager: 'kubectl' }] }, spec: { containers: [{ name: 'app', image }] } }
}

/** web-000, web-050, ... web-250 run :latest: 6 of the 300 shop Pods fail the Deny policy. */
function shopPods(): Json[] {
  return Array.from({ length: 300 }, (_, index) => pod('shop', `web-${String(index).padStart(3, '0')}`, index % 50 === 0 ? 'nginx:latest' : 'nginx:1.27'))
}

const deployment: Json = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'api', namespace: 'shop' },
  spec: { selector: { matchLabels: { app: 'api' } }, template: { metadata: { labels: { app: 'api' } }, spec: { containers: [{ name: 'api', image: 'api:latest' }] } } },
}

const NO_LATEST = {
  name: 'no-latest',
  severity: 'high',
  match: { kinds: ['Pod'] },
  validate: { cel: [{ expression: "object.spec.containers.all(c, !c.image.endsWith(':latest'))", message: 'images must be pinned' }] },
}

function ruleset(name: string, spec: Json): Json {
  return { apiVersion: 'verdict.dev/v1alpha1', kind: 'Ruleset', metadata: { name }, spec }
}

function policy(name: string, spec: Json): Json {
  return { apiVersion: 'verdict.dev/v1alpha1', kind: 'Policy', metadata: { name }, spec }
}

interface JsonScan {
  objects: Array<{ file: string; line?: number; kind: string; namespace: string | null; name: string | null; source?: string }>
  results: Array<Record<string, unknown>>
  summary: Record<string, unknown>
}

/** Pods, Deployment: 550 objects outside kube-system, 7 of them failing no-latest (6 Pods, the Deployment's template). */
const SUMMARY = { objects: 551, judged: 551, passed: 544, failed: 7, errors: 0, failuresByAction: { Deny: 7, Warn: 0, Audit: 0 }, denied: true }

/**
 * In front of the fake API server: the first request that continues a Pod list finds every
 * continue token expired (410), as when etcd compacts between two pages of a real list.
 */
async function expiringProxy(api: FakeKubeApi): Promise<{ url: string; close(): Promise<void> }> {
  let expired = false
  const target = new URL(api.url)
  const server: Server = createServer((incoming, outgoing) => {
    if (!expired && incoming.url?.startsWith('/api/v1/pods?') && incoming.url.includes('continue=')) {
      expired = true
      api.expireContinueTokens()
    }
    const forwarded = httpRequest({ host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(outgoing)
    })
    incoming.pipe(forwarded)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

describe('verdict scan --cluster', () => {
  let api: FakeKubeApi
  let dir: string
  let kubeconfig: string
  /** No ~/.kube/config and no $KUBECONFIG unless a test sets one: nothing of the machine running the tests is read. */
  let env: Record<string, string | undefined>

  const scan = (args: string[], extraEnv: Record<string, string | undefined> = {}) => runCli(['scan', '--cluster', ...args], { env: { ...env, ...extraEnv } })
  const podLists = () => api.requests.filter((request) => request.path === '/api/v1/pods')

  beforeAll(async () => {
    api = await FakeKubeApi.start()
    api.createMany('pods', [
      ...shopPods(),
      ...Array.from({ length: 250 }, (_, index) => pod('blog', `db-${String(index).padStart(3, '0')}`, 'postgres:16')),
      ...Array.from({ length: 20 }, (_, index) => pod('kube-system', `proxy-${String(index).padStart(2, '0')}`, 'proxy:latest')),
    ])
    api.createMany('deployments', [deployment])
    api.createMany('namespaces', [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop', labels: { env: 'dev' } } },
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'blog', labels: { env: 'prod' } } },
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kube-system' } },
    ])
    api.create('rulesets', ruleset('hygiene', { rules: [NO_LATEST] }))
    api.create('policies', policy('production', { rulesets: ['hygiene'], action: 'Deny' }))
    // Judges ConfigMaps at admission only: the scan neither lists nor judges them.
    api.create('rulesets', ruleset('settings', { rules: [{ name: 'labelled', match: { kinds: ['ConfigMap'] }, validate: { cel: [{ expression: 'false' }] } }] }))
    api.create('policies', policy('admission-only', { rulesets: ['settings'], action: 'Deny', background: false }))
    // A kind the scan cannot list: its version is not named.
    api.create('rulesets', ruleset('gadgets', { rules: [{ name: 'any', match: { kinds: ['example.com/Gadget'] }, validate: { cel: [{ expression: 'true' }] } }] }))
    api.create('policies', policy('gadgets', { rulesets: ['gadgets'], action: 'Audit' }))
    // What the controller would leave out of effect too.
    api.create('rulesets', ruleset('broken', { rules: [{ ...NO_LATEST, name: 'typo', validate: { cel: [{ expression: 'object.spec.(' }] } }] }))
    api.create('policies', policy('orphan', { rulesets: ['missing'], action: 'Warn' }))
    dir = mkdtempSync(join(tmpdir(), 'verdict-scan-cluster-'))
    kubeconfig = join(dir, 'kubeconfig')
    writeFileSync(kubeconfig, api.kubeConfig('laptop').exportConfig())
    env = { HOME: dir, KUBECONFIG: undefined, KUBERNETES_SERVICE_HOST: undefined }
  })

  afterAll(async () => {
    await api?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  beforeEach(() => {
    api.requests.length = 0
  })

  it('judges every object of the kinds the --policies match, page by page, skipping kube-system, and exits 1 on a Deny failure', async () => {
    const run = await scan(['--kubeconfig', kubeconfig, ...DENY_POLICY, '-o', 'json'])
    expect(run.stderr).toBe('')
    expect(run.status).toBe(1)
    const report = JSON.parse(run.stdout) as JsonScan
    expect(report.summary).toEqual(SUMMARY)
    const at = { file: 'cluster:fake', source: 'cluster' }
    const failure = { policy: 'production', action: 'Deny', ruleset: 'hygiene', rule: 'no-latest', status: 'fail', severity: 'high', message: 'images must be pinned' }
    // Kinds in the order scanTargets gives them (workloads, then Pods), each in namespace and name order.
    expect(report.results.slice(0, 3)).toEqual([
      { ...at, apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'api', ...failure },
      { ...at, apiVersion: 'v1', kind: 'Pod', namespace: 'shop', name: 'web-000', ...failure },
      { ...at, apiVersion: 'v1', kind: 'Pod', namespace: 'shop', name: 'web-050', ...failure },
    ])
    expect(report.results.at(-1)).toMatchObject({ kind: 'Pod', name: 'web-250' })
    expect(report.objects.slice(0, 2)).toEqual([
      { ...at, apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'api' },
      { ...at, apiVersion: 'v1', kind: 'Pod', namespace: 'blog', name: 'db-000' },
    ])
    expect(report.objects.filter((object) => object.namespace === 'kube-system')).toEqual([])
    expect(new Set(report.objects.map((object) => `${object.kind}/${object.namespace}/${object.name}`)).size).toBe(551)

    // 570 Pods in pages of 100: each page asked for with the one before's continue token.
    const pages = podLists()
    expect(pages.map((request) => new URLSearchParams(request.query).get('limit'))).toEqual(Array(6).fill('100'))
    expect(new URLSearchParams(pages[0]?.query).get('continue')).toBeNull()
    for (let index = 1; index < pages.length; index++) expect(new URLSearchParams(pages[index]?.query).get('continue')).toBe(pages[index - 1]?.page?.continue)
    expect(pages.map((request) => request.page?.items)).toEqual([100, 100, 100, 100, 100, 70])
    // Every kind the policy matches, autogen controllers included; the cluster's own definitions are not read.
    expect(new Set(api.requests.map((request) => request.path))).toEqual(
      new Set([
        '/api/v1/namespaces',
        '/api/v1/configmaps',
        '/api/v1/pods',
        '/api/v1/replicationcontrollers',
        '/apis/apps/v1/deployments',
        '/apis/apps/v1/replicasets',
        '/apis/apps/v1/statefulsets',
        '/apis/apps/v1/daemonsets',
        '/apis/batch/v1/jobs',
        '/apis/batch/v1/cronjobs',
        // The cluster's PolicyExceptions apply with local definitions too (kyverno.io/v2 is served, so v2beta1 is not asked).
        '/apis/verdict.dev/v1alpha1/policyexceptions',
        '/apis/kyverno.io/v2/policyexceptions',
        '/apis/policies.kyverno.io/v1/policyexceptions',
        '/apis/policies.kyverno.io/v1beta1/policyexceptions',
        '/apis/policies.kyverno.io/v1alpha1/policyexceptions',
      ]),
    )
    expect(api.requests.filter((request) => request.method !== 'GET')).toEqual([])
  })

  it('judges by the cluster\'s own Rulesets and Policies without --policies, leaving out what the controller would, warning of kinds it cannot list', async () => {
    const run = await scan(['--kubeconfig', kubeconfig])
    expect(run.stderr).toBe(
      [
        'warning: Ruleset "broken" is not applied: spec.rules[0].validate.cel[0].expression: Expected IDENTIFIER, got LPAREN',
        'warning: Policy "orphan" is not applied: it names rulesets the cluster does not hold as valid Rulesets: missing',
        'warning: example.com/gadgets is not scanned: a custom resource whose API version the policy does not name (write group/version/Kind)',
        '',
      ].join('\n'),
    )
    expect(run.stdout).toBe(
      [
        'OBJECT               LOCATION      POLICY      ACTION  RULE               SEVERITY  MESSAGE',
        'Deployment shop/api  cluster:fake  production  Deny    hygiene/no-latest  high      images must be pinned',
        'Pod shop/web-000     cluster:fake  production  Deny    hygiene/no-latest  high      images must be pinned',
        'Pod shop/web-050     cluster:fake  production  Deny    hygiene/no-latest  high      images must be pinned',
        'Pod shop/web-100     cluster:fake  production  Deny    hygiene/no-latest  high      images must be pinned',
        'Pod shop/web-150     cluster:fake  production  Deny    hygiene/no-latest  high      images must be pinned',
        'Pod shop/web-200     cluster:fake  production  Deny    hygiene/no-latest  high      images must be pinned',
        'Pod shop/web-250     cluster:fake  production  Deny    hygiene/no-latest  high      images must be pinned',
        '551 objects, 551 judged by a policy; 7 failures: Deny 7, Warn 0, Audit 0',
        '',
      ].join('\n'),
    )
    expect(run.status).toBe(1)
    expect(api.requests.filter((request) => request.path.startsWith('/apis/verdict.dev/')).map((request) => request.path)).toEqual([
      '/apis/verdict.dev/v1alpha1/rulesets',
      '/apis/verdict.dev/v1alpha1/policies',
      '/apis/verdict.dev/v1alpha1/policyexceptions',
    ])
    // The background: false policy's ConfigMaps are never listed as objects to judge; only the labelled context ConfigMaps are read.
    expect(api.requests.filter((request) => request.path.includes('configmaps')).map((request) => new URLSearchParams(request.query).get('labelSelector'))).toEqual(['verdict.dev/context=true'])
    expect(api.requests.filter((request) => request.method !== 'GET')).toEqual([])
  })

  it('starts a kind\'s list over when its continue token expires between pages, counting no object twice', async () => {
    const proxy = await expiringProxy(api)
    try {
      const proxied = join(dir, 'proxied-kubeconfig')
      writeFileSync(proxied, api.kubeConfig('laptop').exportConfig().replaceAll(api.url, proxy.url))
      const run = await scan(['--kubeconfig', proxied, ...DENY_POLICY, '-o', 'json'])
      expect(run.stderr).toBe('')
      expect(run.status).toBe(1)
      const report = JSON.parse(run.stdout) as JsonScan
      expect(report.summary).toEqual(SUMMARY)
      expect(new Set(report.objects.map((object) => `${object.kind}/${object.namespace}/${object.name}`)).size).toBe(551)
      expect(report.results.filter((result) => result.name === 'web-000')).toHaveLength(1)
      const pages = podLists()
      expect(pages.map((request) => [new URLSearchParams(request.query).has('continue'), request.status])).toEqual([
        [false, 200],
        [true, 410],
        [false, 200],
        ...Array(5).fill([true, 200]),
      ])
      expect(api.requests.filter((request) => request.method !== 'GET')).toEqual([])
    } finally {
      await proxy.close()
    }
  })

  it('reads the Namespace objects for namespaceSelector, as the controller does', async () => {
    const run = await scan(['--kubeconfig', kubeconfig, '--policies', 'scan/cluster/prod-namespaces.yaml', '-o', 'json'])
    const report = JSON.parse(run.stdout) as JsonScan
    // Only blog is env=prod, and its Pods are pinned: shop's :latest Pods are not the policy's business.
    expect(report.summary).toEqual({ objects: 551, judged: 250, passed: 250, failed: 0, errors: 0, failuresByAction: { Deny: 0, Warn: 0, Audit: 0 }, denied: false })
    expect(run.status).toBe(0)
  })

  it('reads the context ConfigMaps that --configmap-selector picks for Kyverno configMap entries, as the controller\'s cache does', async () => {
    api.create('configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'registries', namespace: 'shop', labels: { 'verdict.dev/context': 'true' } }, data: { allowed: 'nginx:1.27' } })
    api.create('configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'registries', namespace: 'blog', labels: { team: 'blog' } }, data: { allowed: 'postgres:16' } })
    try {
      const policies = ['--policies', 'scan/cluster/allowed-images-configmap.yaml']
      // shop's ConfigMap carries the default label: its 294 nginx:1.27 Pods pass, the 6 :latest ones and the Deployment fail;
      // blog's does not, so its entry finds no ConfigMap and each of blog's Pods is an error.
      const run = await scan(['--kubeconfig', kubeconfig, ...policies, '-o', 'json'])
      expect(run.stderr).toBe('')
      expect((JSON.parse(run.stdout) as JsonScan).summary).toMatchObject({ judged: 551, passed: 294, failed: 7, errors: 250 })
      // Past the controller cache's bound for one ConfigMap: left out, and said so.
      api.create('configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'huge', namespace: 'blog', labels: { 'verdict.dev/context': 'true' } }, data: { blob: 'x'.repeat(300_000) } })
      const bounded = await scan(['--kubeconfig', kubeconfig, ...policies, '-o', 'json'])
      expect(bounded.stderr).toMatch(/^warning: ConfigMap blog\/huge: 300\d{3} bytes, over the 262144 a ConfigMap may take; configMap context entries will not find it\n$/)
      api.delete('configmaps', 'huge', { namespace: 'blog' })
      const chosen = await scan(['--kubeconfig', kubeconfig, ...policies, '--configmap-selector', 'team=blog', '-o', 'json'])
      expect((JSON.parse(chosen.stdout) as JsonScan).summary).toMatchObject({ judged: 551, passed: 250, errors: 301 })
      const configMapLists = api.requests.filter((request) => request.path === '/api/v1/configmaps').map((request) => new URLSearchParams(request.query).get('labelSelector'))
      expect(configMapLists).toEqual(['verdict.dev/context=true', 'verdict.dev/context=true', 'team=blog'])
    } finally {
      api.delete('configmaps', 'registries', { namespace: 'shop' })
      api.delete('configmaps', 'registries', { namespace: 'blog' })
    }
  })

  it('passes over the namespaces of --exclude-namespaces instead of kube-system', async () => {
    const run = await scan(['--kubeconfig', kubeconfig, ...DENY_POLICY, '--exclude-namespaces', 'blog, shop', '-o', 'json'])
    const report = JSON.parse(run.stdout) as JsonScan
    expect(new Set(report.objects.map((object) => object.namespace))).toEqual(new Set(['kube-system']))
    expect(report.summary).toEqual({ objects: 20, judged: 20, passed: 0, failed: 20, errors: 0, failuresByAction: { Deny: 20, Warn: 0, Audit: 0 }, denied: true })
    expect(run.status).toBe(1)
    const none = await scan(['--kubeconfig', kubeconfig, ...DENY_POLICY, '--exclude-namespaces', '', '-o', 'json'])
    expect((JSON.parse(none.stdout) as JsonScan).summary.objects).toBe(571)
  })

  it('prints SARIF that the official schema accepts, each result located by its resource', async () => {
    const run = await scan(['--kubeconfig', kubeconfig, ...DENY_POLICY, '-o', 'sarif'])
    const log = JSON.parse(run.stdout) as { runs: Array<{ results: Array<{ ruleId: string; level: string; locations: unknown[] }> }> }
    const validate = sarifValidator()
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true)
    const results = log.runs[0]?.results ?? []
    expect(results).toHaveLength(7)
    expect(results[0]).toMatchObject({
      ruleId: 'production/hygiene/no-latest',
      level: 'error',
      locations: [{ logicalLocations: [{ name: 'api', fullyQualifiedName: 'apps/v1/Deployment/shop/api', kind: 'resource' }] }],
    })
    expect(results[1]?.locations).toEqual([{ logicalLocations: [{ name: 'web-000', fullyQualifiedName: 'v1/Pod/shop/web-000', kind: 'resource' }] }])
    expect(run.status).toBe(1)
  })

  it('reads $KUBECONFIG when no --kubeconfig is given, and --context picks the context', async () => {
    // A kubeconfig (JSON is YAML) whose current context is a second name for the same cluster.
    const config = JSON.parse(api.kubeConfig('laptop').exportConfig()) as { contexts: Array<{ name: string; context: Json }>; 'current-context': string }
    config.contexts.unshift({ name: 'elsewhere', context: { ...config.contexts[0]?.context } })
    config['current-context'] = 'elsewhere'
    const twoContexts = join(dir, 'two-contexts')
    writeFileSync(twoContexts, JSON.stringify(config))
    const files = async (args: string[]) => (JSON.parse((await scan([...DENY_POLICY, ...args, '-o', 'json'], { KUBECONFIG: twoContexts })).stdout) as JsonScan).objects[0]?.file
    expect(await files([])).toBe('cluster:elsewhere')
    expect(await files(['--context', 'fake'])).toBe('cluster:fake')
    const unknown = await scan([...DENY_POLICY, '--context', 'nope'], { KUBECONFIG: twoContexts })
    expect(unknown).toEqual({ status: 2, stdout: '', stderr: `verdict scan: $KUBECONFIG (${twoContexts}) has no context "nope" (it has elsewhere, fake)\n` })
  })

  it('exits 2 naming the server and the network error when the cluster cannot be reached', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    const unreachable = join(dir, 'unreachable')
    writeFileSync(unreachable, api.kubeConfig('laptop').exportConfig().replaceAll(api.url, `http://127.0.0.1:${port}`))
    expect(await scan(['--kubeconfig', unreachable, ...DENY_POLICY])).toEqual({
      status: 2,
      stdout: '',
      stderr: `verdict scan: cannot reach the cluster at http://127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}\n`,
    })
    expect(await scan(['--kubeconfig', unreachable])).toMatchObject({ status: 2, stderr: `verdict scan: cannot reach the cluster at http://127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}\n` })
  })

  it('exits 2 naming the server and the HTTP status when a list is refused, and prints no partial result', async () => {
    api.failRequests({ pathIncludes: '/apis/apps/v1/deployments', status: 403 })
    expect(await scan(['--kubeconfig', kubeconfig, ...DENY_POLICY])).toEqual({
      status: 2,
      stdout: '',
      stderr: `verdict scan: cannot read the cluster at ${api.url}: listing /apis/apps/v1/deployments: HTTP 403: injected failure\n`,
    })
  })

  it('exits 2 naming what is missing when the cluster has no Verdict CRDs and no --policies are given', async () => {
    api.failRequests({ pathIncludes: '/apis/verdict.dev/', status: 404, times: 2 })
    expect(await scan(['--kubeconfig', kubeconfig])).toEqual({
      status: 2,
      stdout: '',
      stderr: `verdict scan: the cluster at ${api.url} serves no rulesets.verdict.dev and policies.verdict.dev (the Verdict CRDs are not installed): install Verdict there, or give --policies <files|dirs> to judge by local definitions\n`,
    })
  })

  it('refuses manifest paths, --server, and cluster flags without --cluster', async () => {
    const refused = async (args: string[], stderr: string) => expect(await runCli(['scan', ...args], { env })).toEqual({ status: 2, stdout: '', stderr })
    await refused(['--cluster', ...DENY_POLICY, 'scan/manifests'], "verdict scan: scan: --cluster reads the cluster's objects, not manifests (scan/manifests)\n")
    await refused(['--cluster', '--server', 'http://localhost:8080'], "verdict scan: scan: give --server or --cluster, not both (--cluster judges with --policies or the cluster's own definitions)\n")
    await refused([...DENY_POLICY, '--kubeconfig', kubeconfig, 'scan/manifests'], 'verdict scan: scan: --kubeconfig goes with --cluster\n')
    await refused(['--cluster', ...DENY_POLICY], 'verdict scan: no kubeconfig: give --kubeconfig <file>, set $KUBECONFIG or write ~/.kube/config\n')
    await refused(['--cluster', '--kubeconfig', join(dir, 'nope')], `verdict scan: ${join(dir, 'nope')}: cannot read: ENOENT\n`)
  })
})
