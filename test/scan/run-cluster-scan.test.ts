import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ScanTarget } from '../../src/scan/background/scan-targets.js'
import { runClusterScan, type ClusterScanOptions } from '../../src/scan/cluster/run-cluster-scan.js'
import type { Judge } from '../../src/scan/judge/judge.js'
import { ScanInputError } from '../../src/scan/scan-error.js'
import type { PolicyJudgement } from '../../src/scan/scan-result.js'
import { FakeKubeApi, type Json } from '../k8s/fake-kube-api.js'

const PODS: ScanTarget = { group: '', version: 'v1', resource: 'pods' }
const DEPLOYMENTS: ScanTarget = { group: 'apps', version: 'v1', resource: 'deployments' }

function pod(namespace: string, name: string): Json {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace }, spec: { containers: [{ name: 'app', image: name.endsWith('0') ? 'app:latest' : 'app:1' }] } }
}

/** Fails every object whose image is :latest; `onJudge` hears each object, to act between pages. */
function latestJudge(onJudge: (name: string) => void = () => {}): Judge {
  return {
    policies: [{ name: 'pinned', action: 'Deny', rules: [{ ruleset: 'images', rule: 'pinned', severity: 'high' }] }],
    judge(object): PolicyJudgement[] {
      onJudge(String(object.name))
      const latest = JSON.stringify(object.value.spec).includes(':latest')
      return [{ policy: 'pinned', action: 'Deny', passed: !latest, results: [{ ruleset: 'images', rule: 'pinned', status: latest ? 'fail' : 'pass', severity: 'high' }] }]
    },
  }
}

describe('runClusterScan', () => {
  let api: FakeKubeApi

  beforeEach(async () => {
    api = await FakeKubeApi.start()
    api.createMany('pods', [...Array.from({ length: 12 }, (_, index) => pod('shop', `web-${String(index).padStart(2, '0')}`)), pod('kube-system', 'proxy-0')])
    api.createMany('deployments', [{ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'api', namespace: 'shop' }, spec: { template: { spec: { containers: [{ image: 'api:latest' }] } } } }])
  })

  afterEach(async () => {
    await api.close()
  })

  function options(overrides: Partial<ClusterScanOptions> = {}): ClusterScanOptions {
    return {
      kubeConfig: api.kubeConfig('laptop'),
      server: api.url,
      file: 'cluster:fake',
      targets: [DEPLOYMENTS, PODS],
      judge: latestJudge(),
      pageSize: 5,
      excludedNamespaces: new Set(['kube-system']),
      listRestarts: 3,
      ...overrides,
    }
  }

  it('judges each kind page by page in target order, passing over excluded namespaces, and counts progress across pages', async () => {
    const progress: number[] = []
    const report = await runClusterScan(options({ onProgress: (done) => progress.push(done) }))
    expect(report.objects.map((object) => `${object.kind}/${object.name}`)).toEqual(['Deployment/api', ...Array.from({ length: 12 }, (_, index) => `Pod/web-${String(index).padStart(2, '0')}`)])
    expect(report.objects[0]).toEqual({ source: 'cluster', file: 'cluster:fake', apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'api' })
    expect(report.summary).toEqual({ objects: 13, judged: 13, passed: 10, failed: 3, errors: 0, failuresByAction: { Deny: 3, Warn: 0, Audit: 0 }, denied: true })
    expect(progress).toEqual(Array.from({ length: 13 }, (_, index) => index + 1))
    // 13 Pods (kube-system's among them) in pages of 5.
    expect(api.requests.filter((request) => request.path === '/api/v1/pods').map((request) => request.page?.items)).toEqual([5, 5, 3])
  })

  it('lists a kind again from the start when its continue token expires, taking back what its earlier pages added', async () => {
    let expired = false
    const judge = latestJudge((name) => {
      if (!expired && name === 'web-04') {
        expired = true
        api.expireContinueTokens()
      }
    })
    const report = await runClusterScan(options({ judge }))
    expect(report.objects.map((object) => object.name)).toEqual(['api', ...Array.from({ length: 12 }, (_, index) => `web-${String(index).padStart(2, '0')}`)])
    expect(report.judgements.map((judgement) => judgement.object.name)).toEqual(report.objects.map((object) => object.name))
    expect(report.summary.failed).toBe(3)
    // Pages of 5 in namespace order (kube-system's Pod first): web-04 opens the second page, so the third request finds the token gone.
    expect(api.requests.filter((request) => request.path === '/api/v1/pods').map((request) => request.status)).toEqual([200, 200, 410, 200, 200, 200])
  })

  it('gives up after listRestarts restarts, naming the server', async () => {
    // No list snapshot is kept: every continue token has expired by the time it is used.
    api.maxListSnapshots = 0
    const failure = await runClusterScan(options({ listRestarts: 2 })).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(ScanInputError)
    const message = (failure as Error).message
    expect(message.startsWith(`cannot read the cluster at ${api.url}: listing /api/v1/pods: The provided continue parameter is too old`)).toBe(true)
    expect(message.endsWith('; the list expired 3 times, the cluster changes faster than it can be listed')).toBe(true)
    expect(api.requests.filter((request) => request.path === '/api/v1/pods' && request.status === 410)).toHaveLength(3)
  })

  it('reports a kind the cluster does not serve (404) and scans the others', async () => {
    const notServed: string[] = []
    const widgets: ScanTarget = { group: 'example.com', version: 'v1', resource: 'widgets' }
    const report = await runClusterScan(options({ targets: [widgets, DEPLOYMENTS, PODS], onNotServed: (message) => notServed.push(message) }))
    expect(notServed).toEqual(['/apis/example.com/v1/widgets is not served by the API server (404)'])
    expect(report.summary).toMatchObject({ objects: 13, judged: 13, failed: 3 })
  })

  it('stops at a refused list with the server, the status and the message', async () => {
    api.failRequests({ pathIncludes: '/api/v1/pods', status: 403 })
    await expect(runClusterScan(options())).rejects.toThrow(new ScanInputError(`cannot read the cluster at ${api.url}: listing /api/v1/pods: HTTP 403: injected failure`))
  })
})
