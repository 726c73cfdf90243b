import {
  AdmissionregistrationV1Api,
  ApiException,
  AppsV1Api,
  BatchV1Api,
  CoordinationV1Api,
  CoreV1Api,
  CustomObjectsApi,
  EventsV1Api,
  makeInformer,
  PatchStrategy,
  setHeaderOptions,
  V1MicroTime,
  VersionApi,
  Watch,
  type KubernetesListObject,
  type KubernetesObject,
} from '@kubernetes/client-node'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { FakeKubeApi, type Json, type ResourceName } from './fake-kube-api.js'
import { waitFor } from './wait-for.js'

/** The fake API server behaves as the real client expects: checked with the client itself. */
describe('the fake Kubernetes API server', () => {
  let api: FakeKubeApi

  beforeEach(async () => {
    api = await FakeKubeApi.start()
  })
  afterEach(async () => {
    await api.close()
  })

  const ruleset = (name: string, spec: Json = { rules: [] }): Json => ({ apiVersion: 'verdict.dev/v1alpha1', kind: 'Ruleset', metadata: { name }, spec })

  it('feeds an informer: list, then ADDED, MODIFIED and DELETED over a chunked watch', async () => {
    api.create('rulesets', ruleset('a'))
    const custom = api.kubeConfig().makeApiClient(CustomObjectsApi)
    const informer = makeInformer<KubernetesObject>(
      api.kubeConfig(),
      '/apis/verdict.dev/v1alpha1/rulesets',
      () => custom.listClusterCustomObject({ group: 'verdict.dev', version: 'v1alpha1', plural: 'rulesets' }) as Promise<KubernetesListObject<KubernetesObject>>,
    )
    const seen: string[] = []
    informer.on('add', (object) => seen.push(`add ${object.metadata?.name}`))
    informer.on('update', (object) => seen.push(`update ${object.metadata?.name}`))
    informer.on('delete', (object) => seen.push(`delete ${object.metadata?.name}`))
    await informer.start()
    try {
      await waitFor('the watch', () => api.watchCount('rulesets') === 1)
      api.create('rulesets', ruleset('b'))
      api.update('rulesets', ruleset('b', { rules: [{ name: 'x' }] }))
      api.delete('rulesets', 'a')
      await waitFor('four events', () => seen.length === 4)
      expect(seen).toEqual(['add a', 'add b', 'update b', 'delete a'])
      expect(informer.list().map((object) => object.metadata?.name)).toEqual(['b'])
    } finally {
      await informer.stop()
    }
  })

  it('answers a watch from a compacted resourceVersion with ERROR 410, and sends BOOKMARKs when asked', async () => {
    const first = api.create('rulesets', ruleset('a'))
    api.create('rulesets', ruleset('b'))
    api.compact()
    const events: { type: string; code?: unknown }[] = []
    const watch = new Watch(api.kubeConfig())
    const ended = new Promise<void>((resolve) => {
      void watch.watch(
        '/apis/verdict.dev/v1alpha1/rulesets',
        { resourceVersion: (first.metadata as Json).resourceVersion as string },
        (type, object: Json) => events.push({ type, code: object.code }),
        () => resolve(),
      )
    })
    await ended
    expect(events).toEqual([{ type: 'ERROR', code: 410 }])

    const bookmarks: string[] = []
    const controller = await watch.watch('/apis/verdict.dev/v1alpha1/rulesets', { allowWatchBookmarks: true, resourceVersion: '0' }, (type) => bookmarks.push(type), () => {})
    await waitFor('the ADDED events', () => bookmarks.length === 2)
    api.sendBookmarks()
    await waitFor('a bookmark', () => bookmarks.includes('BOOKMARK'))
    controller.abort()
  })

  it('filters lists and watches by label selector; a watch sees objects start and stop matching as ADDED and DELETED', async () => {
    const cm = (name: string, namespace: string, labels: Record<string, string>): Json => ({ metadata: { name, namespace, labels }, data: { name } })
    api.create('configmaps', cm('a', 'one', { cache: 'yes' }))
    api.create('configmaps', cm('b', 'two', { cache: 'yes', tier: 'dev' }))
    api.create('configmaps', cm('c', 'one', {}))
    const core = api.kubeConfig().makeApiClient(CoreV1Api)
    const names = async (labelSelector?: string) =>
      (await core.listConfigMapForAllNamespaces(labelSelector === undefined ? {} : { labelSelector })).items.map((item) => `${item.metadata?.namespace}/${item.metadata?.name}`)
    expect(await names()).toEqual(['one/a', 'two/b', 'one/c'])
    expect(await names('cache=yes')).toEqual(['one/a', 'two/b'])
    expect(await names('cache,tier notin (dev)')).toEqual(['one/a'])
    expect(await names('!cache')).toEqual(['one/c'])
    expect((await core.listNamespacedConfigMap({ namespace: 'one', labelSelector: 'cache' })).items.map((item) => item.metadata?.name)).toEqual(['a'])
    await expect(names('cache in (yes')).rejects.toMatchObject({ code: 400 })

    const events: string[] = []
    const controller = await new Watch(api.kubeConfig()).watch('/api/v1/configmaps', { labelSelector: 'cache=yes' }, (type, object: Json) => events.push(`${type} ${String((object.metadata as Json).name)}`), () => {})
    await waitFor('the initial ADDED events', () => events.length === 2)
    api.update('configmaps', cm('c', 'one', { cache: 'yes' }))
    api.update('configmaps', cm('a', 'one', {}))
    api.update('configmaps', cm('a', 'one', { other: 'x' }))
    api.update('configmaps', cm('b', 'two', { cache: 'yes', tier: 'prod' }))
    api.delete('configmaps', 'c', { namespace: 'one' })
    await waitFor('the events', () => events.length === 6)
    expect(events).toEqual(['ADDED a', 'ADDED b', 'ADDED c', 'DELETED a', 'MODIFIED b', 'DELETED c'])
    controller.abort()
  })

  it('keeps status and spec apart and counts generations', async () => {
    api.create('rulesets', ruleset('a'))
    const custom = api.kubeConfig().makeApiClient(CustomObjectsApi)
    const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch)
    const afterStatus = (await custom.patchClusterCustomObjectStatus(
      { group: 'verdict.dev', version: 'v1alpha1', plural: 'rulesets', name: 'a', body: { status: { rules: 3 }, spec: { rules: ['ignored'] } } },
      merge,
    )) as Json
    expect(afterStatus.status).toEqual({ rules: 3 })
    expect(afterStatus.spec).toEqual({ rules: [] })
    expect((afterStatus.metadata as Json).generation).toBe(1)
    const afterSpec = (await custom.patchClusterCustomObject(
      { group: 'verdict.dev', version: 'v1alpha1', plural: 'rulesets', name: 'a', body: { spec: { rules: [{ name: 'x' }] }, status: { rules: 9 } } },
      merge,
    )) as Json
    expect(afterSpec.status).toEqual({ rules: 3 })
    expect((afterSpec.metadata as Json).generation).toBe(2)
    const jsonPatched = (await custom.patchClusterCustomObjectStatus({
      group: 'verdict.dev',
      version: 'v1alpha1',
      plural: 'rulesets',
      name: 'a',
      body: [{ op: 'replace', path: '/status/rules', value: 4 }],
    })) as Json
    expect(jsonPatched.status).toEqual({ rules: 4 })
    expect(api.requests.at(-1)?.contentType).toBe('application/json-patch+json')
    const replaced = (await custom.replaceClusterCustomObjectStatus({
      group: 'verdict.dev',
      version: 'v1alpha1',
      plural: 'rulesets',
      name: 'a',
      body: { ...jsonPatched, status: { rules: 5 } },
    })) as Json
    expect(replaced.status).toEqual({ rules: 5 })
    const stale = custom.replaceClusterCustomObjectStatus({ group: 'verdict.dev', version: 'v1alpha1', plural: 'rulesets', name: 'a', body: { ...jsonPatched, status: { rules: 6 } } })
    await expect(stale).rejects.toMatchObject({ code: 409 })
  })

  it('refuses a stale resourceVersion and an existing name with 409', async () => {
    const leases = api.kubeConfig().makeApiClient(CoordinationV1Api)
    const body = { metadata: { name: 'l', namespace: 'ns' }, spec: { holderIdentity: 'a', renewTime: new V1MicroTime() } }
    const created = await leases.createNamespacedLease({ namespace: 'ns', body })
    expect(created.spec?.renewTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/)
    await expect(leases.createNamespacedLease({ namespace: 'ns', body })).rejects.toMatchObject({ code: 409 })
    await leases.replaceNamespacedLease({ name: 'l', namespace: 'ns', body: { ...created, spec: { holderIdentity: 'b' } } })
    const stale = leases.replaceNamespacedLease({ name: 'l', namespace: 'ns', body: { ...created, spec: { holderIdentity: 'c' } } })
    await expect(stale).rejects.toBeInstanceOf(ApiException)
    await expect(stale).rejects.toMatchObject({ code: 409 })
    expect((await leases.readNamespacedLease({ name: 'l', namespace: 'ns' })).spec?.holderIdentity).toBe('b')
    await expect(leases.readNamespacedLease({ name: 'missing', namespace: 'ns' })).rejects.toMatchObject({ code: 404 })
  })

  it('applies JSON patches with tests to a ValidatingWebhookConfiguration', async () => {
    api.create('validatingwebhookconfigurations', { metadata: { name: 'verdict' }, webhooks: [{ name: 'validate.verdict.dev', rules: [] }] })
    const admission = api.kubeConfig().makeApiClient(AdmissionregistrationV1Api)
    const rule = { apiGroups: [''], apiVersions: ['*'], operations: ['CREATE'], resources: ['pods'], scope: '*' }
    await admission.patchValidatingWebhookConfiguration({
      name: 'verdict',
      body: [
        { op: 'test', path: '/webhooks/0/name', value: 'validate.verdict.dev' },
        { op: 'add', path: '/webhooks/0/rules', value: [rule] },
      ],
    })
    expect((api.get('validatingwebhookconfigurations', 'verdict')?.webhooks as Json[])[0]?.rules).toEqual([rule])
    const failing = admission.patchValidatingWebhookConfiguration({ name: 'verdict', body: [{ op: 'test', path: '/webhooks/0/name', value: 'other' }] })
    await expect(failing).rejects.toMatchObject({ code: 422 })
  })

  it('serves ValidatingAdmissionPolicies, type-checked generation by generation as the status controller does, their bindings, and /version', async () => {
    const admission = api.kubeConfig().makeApiClient(AdmissionregistrationV1Api)
    const spec = { failurePolicy: 'Fail', matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], operations: ['CREATE'] }] }, validations: [{ expression: 'true' }] }
    await admission.createValidatingAdmissionPolicy({ body: { metadata: { name: 'p', labels: { a: 'b' } }, spec } as never })
    expect(api.get('validatingadmissionpolicies', 'p')).toMatchObject({ metadata: { generation: 1 }, status: { observedGeneration: 1, typeChecking: {} } })
    api.update('validatingadmissionpolicies', { metadata: { name: 'p' }, spec: { ...spec, failurePolicy: 'Ignore' } })
    expect(api.get('validatingadmissionpolicies', 'p')).toMatchObject({ metadata: { generation: 2 }, status: { observedGeneration: 2 } })
    api.typeChecksVaps = false
    api.update('validatingadmissionpolicies', { metadata: { name: 'p' }, spec })
    expect(api.get('validatingadmissionpolicies', 'p')).toMatchObject({ metadata: { generation: 3 }, status: { observedGeneration: 2 } })
    await admission.createValidatingAdmissionPolicyBinding({ body: { metadata: { name: 'p' }, spec: { policyName: 'p', validationActions: ['Deny'] } } })
    expect((await admission.listValidatingAdmissionPolicyBinding({ labelSelector: '' })).items.map((binding) => binding.spec?.policyName)).toEqual(['p'])
    api.version = { major: '1', minor: '29+' }
    expect(await api.kubeConfig().makeApiClient(VersionApi).getCode()).toMatchObject({ major: '1', minor: '29+', gitVersion: 'v1.29.0' })
  })
})

/** Paged lists, the workload kinds a Pod Security scan reads, PolicyReports and bulk loading. */
describe('the fake Kubernetes API server for a background scan', () => {
  let api: FakeKubeApi

  beforeEach(async () => {
    api = await FakeKubeApi.start()
  })
  afterEach(async () => {
    await api.close()
  })

  const EXPIRED_MESSAGE =
    'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.'

  const pod = (namespace: string, name: string, labels: Record<string, string> = {}): Json => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, labels },
    spec: { containers: [{ name: 'app', image: 'registry.example/app:1.0', securityContext: { runAsNonRoot: true } }] },
  })
  const metaOf = (object: Json): Json => object.metadata as Json
  const where = (object: { metadata?: { namespace?: string; name?: string } } | Json): string => {
    const metadata = (object.metadata ?? {}) as Json
    return `${String(metadata.namespace)}/${String(metadata.name)}`
  }
  /** Namespace, then name: how the server orders a paged list. */
  const byNamespaceThenName = (a: Json, b: Json): number => {
    const compare = (x: unknown, y: unknown): number => (String(x) < String(y) ? -1 : String(x) > String(y) ? 1 : 0)
    return compare(metaOf(a).namespace, metaOf(b).namespace) || compare(metaOf(a).name, metaOf(b).name)
  }
  const getJson = async (path: string, query: Record<string, string> = {}): Promise<{ status: number; body: Json }> => {
    const response = await fetch(`${api.url}${path}?${new URLSearchParams(query).toString()}`, { headers: { authorization: 'Bearer raw' } })
    return { status: response.status, body: (await response.json()) as Json }
  }
  const listMeta = (body: Json): Json => body.metadata as Json
  const itemNames = (body: Json): string[] => (body.items as Json[]).map(where)

  it('pages 2,500 pods 500 at a time for the real client, in namespace then name order, all from the first page\'s snapshot', async () => {
    const namespaces = ['team-b', 'team', 'zeta', 'apps', 'a-team']
    // Created out of order: name i*7919 mod 2500 is a permutation.
    const pods = Array.from({ length: 2_500 }, (_, index) => pod(namespaces[index % 5] as string, `pod-${String((index * 7_919) % 2_500).padStart(4, '0')}`, { index: String(index) }))
    api.createMany('pods', pods)
    const expected = [...pods].sort(byNamespaceThenName).map(where)
    expect(expected.slice(0, 2)).toEqual(['a-team/pod-0001', 'a-team/pod-0006'])
    expect(expected.findIndex((name) => name.startsWith('team/'))).toBeLessThan(expected.findIndex((name) => name.startsWith('team-b/')))

    const core = api.kubeConfig('scanner').makeApiClient(CoreV1Api)
    const seen: string[] = []
    const tokens: (string | undefined)[] = []
    const versions: (string | undefined)[] = []
    const remaining: (number | undefined)[] = []
    const changedIndex = 1_700
    const [changedNamespace, changedName] = (expected[changedIndex] as string).split('/') as [string, string]
    const [deletedNamespace, deletedName] = (expected[2_400] as string).split('/') as [string, string]
    let token: string | undefined
    let changedLabel: string | undefined
    do {
      const page = await core.listPodForAllNamespaces({ limit: 500, ...(token === undefined ? {} : { _continue: token }) })
      for (const item of page.items) {
        seen.push(where(item))
        if (item.metadata?.name === changedName && item.metadata.namespace === changedNamespace) changedLabel = item.metadata.labels?.index
      }
      token = page.metadata?._continue
      tokens.push(token)
      versions.push(page.metadata?.resourceVersion)
      remaining.push(page.metadata?.remainingItemCount)
      if (tokens.length === 2) {
        // Between pages 2 and 3: a change to a pod on page 4, a deletion from page 5, a pod that would sort last.
        const current = api.get('pods', changedName, changedNamespace) as Json
        api.update('pods', { ...current, metadata: { ...metaOf(current), labels: { index: 'changed' } } })
        api.delete('pods', deletedName, { namespace: deletedNamespace })
        api.create('pods', pod('zeta', 'pod-zzzz'))
      }
    } while (token !== undefined)

    expect(seen).toEqual(expected)
    expect(changedLabel).not.toBe('changed')
    expect(seen).toContain(`${deletedNamespace}/${deletedName}`)
    expect(tokens).toHaveLength(5)
    expect(tokens.at(-1)).toBeUndefined()
    expect(new Set(tokens.slice(0, 4)).size).toBe(4)
    expect(new Set(versions).size).toBe(1)
    expect(remaining).toEqual([2_000, 1_500, 1_000, 500, undefined])

    // What the scanner asked for and got, page by page.
    const lists = api.requests.filter((request) => request.token === 'scanner' && request.path === '/api/v1/pods')
    expect(lists.map((request) => new URLSearchParams(request.query).get('limit'))).toEqual(['500', '500', '500', '500', '500'])
    expect(lists.map((request) => new URLSearchParams(request.query).get('continue'))).toEqual([null, ...tokens.slice(0, 4)])
    expect(lists.map((request) => request.page)).toEqual(
      tokens.map((next, index) => ({ resourceVersion: versions[0], items: 500, continue: next, remainingItemCount: remaining[index] })),
    )

    // A new list sees the changes.
    const latest = await core.listPodForAllNamespaces({ limit: 5_000 })
    expect(latest.metadata?._continue).toBeUndefined()
    expect(Number(latest.metadata?.resourceVersion)).toBeGreaterThan(Number(versions[0]))
    expect(latest.items).toHaveLength(2_500)
    expect(latest.items.at(-1)?.metadata?.name).toBe('pod-zzzz')
    expect(latest.items.find((item) => item.metadata?.name === changedName && item.metadata.namespace === changedNamespace)?.metadata?.labels).toEqual({ index: 'changed' })
  })

  it('answers a continue token whose snapshot is gone with 410 Expired and a token that goes on from the latest state', async () => {
    api.createMany('pods', Array.from({ length: 10 }, (_, index) => pod('ns', `p-${String(index).padStart(2, '0')}`)))
    const first = await getJson('/api/v1/namespaces/ns/pods', { limit: '4' })
    expect(itemNames(first.body)).toEqual(['ns/p-00', 'ns/p-01', 'ns/p-02', 'ns/p-03'])
    api.compact()
    const expired = await getJson('/api/v1/namespaces/ns/pods', { limit: '4', continue: listMeta(first.body).continue as string })
    expect(expired).toEqual({
      status: 410,
      body: { kind: 'Status', apiVersion: 'v1', metadata: { continue: expect.any(String) }, status: 'Failure', message: EXPIRED_MESSAGE, reason: 'Expired', code: 410 },
    })
    // The token in the answer continues after p-03, from the state now: p-05 is gone, p-99 is new.
    api.delete('pods', 'p-05', { namespace: 'ns' })
    api.create('pods', pod('ns', 'p-99'))
    const resumed = await getJson('/api/v1/namespaces/ns/pods', { limit: '4', continue: listMeta(expired.body).continue as string })
    expect(itemNames(resumed.body)).toEqual(['ns/p-04', 'ns/p-06', 'ns/p-07', 'ns/p-08'])
    expect(listMeta(resumed.body).resourceVersion).toBe(String(Number(listMeta(first.body).resourceVersion) + 2))
    const last = await getJson('/api/v1/namespaces/ns/pods', { limit: '4', continue: listMeta(resumed.body).continue as string })
    expect(itemNames(last.body)).toEqual(['ns/p-09', 'ns/p-99'])
    expect(listMeta(last.body)).toEqual({ resourceVersion: listMeta(resumed.body).resourceVersion })

    // expireContinueTokens, seen by the real client.
    const core = api.kubeConfig().makeApiClient(CoreV1Api)
    const page = await core.listNamespacedPod({ namespace: 'ns', limit: 3 })
    expect(page.metadata?.remainingItemCount).toBe(7)
    api.expireContinueTokens()
    const failed = await core.listNamespacedPod({ namespace: 'ns', limit: 3, _continue: page.metadata?._continue as string }).catch((error: unknown) => error)
    expect(failed).toBeInstanceOf(ApiException)
    expect(failed).toMatchObject({ code: 410 })
    const body = (failed as ApiException<unknown>).body
    expect(typeof body === 'string' ? (JSON.parse(body) as Json) : body).toMatchObject({ reason: 'Expired', message: EXPIRED_MESSAGE })

    // Only so many snapshots are kept: the least recently used goes first.
    api.maxListSnapshots = 1
    const older = await core.listNamespacedPod({ namespace: 'ns', limit: 3 })
    api.create('pods', pod('ns', 'p-100'))
    const newer = await core.listNamespacedPod({ namespace: 'ns', limit: 3 })
    expect(newer.metadata?.resourceVersion).not.toBe(older.metadata?.resourceVersion)
    await expect(core.listNamespacedPod({ namespace: 'ns', limit: 3, _continue: older.metadata?._continue as string })).rejects.toMatchObject({ code: 410 })
    expect((await core.listNamespacedPod({ namespace: 'ns', limit: 3, _continue: newer.metadata?._continue as string })).items.map((item) => item.metadata?.name)).toEqual([
      'p-03',
      'p-04',
      'p-06',
    ])
  })

  it('answers 400 to a continue token that does not decode, or that comes with a resourceVersion', async () => {
    api.createMany('pods', Array.from({ length: 3 }, (_, index) => pod('ns', `p-${index}`)))
    const badRequest = (message: string) => ({ status: 400, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'BadRequest', code: 400 } })
    expect(await getJson('/api/v1/pods', { limit: '1', continue: 'garbage!' })).toEqual(badRequest(expect.stringMatching(/^invalid continue token: continue key is not valid: /) as unknown as string))
    const token = (content: unknown) => Buffer.from(JSON.stringify(content)).toString('base64url')
    expect(await getJson('/api/v1/pods', { limit: '1', continue: token({ v: 'meta.k8s.io/v1', rv: 0, start: 'x' }) })).toEqual(
      badRequest('invalid continue token: continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)'),
    )
    expect(await getJson('/api/v1/pods', { limit: '1', continue: token({ v: 'other/v9', rv: 5, start: 'x' }) })).toEqual(
      badRequest('invalid continue token: continue key is not valid: server does not recognize this encoded version'),
    )
    const first = await getJson('/api/v1/pods', { limit: '1' })
    const next = listMeta(first.body).continue as string
    expect(await getJson('/api/v1/pods', { limit: '1', continue: next, resourceVersion: '1' })).toEqual(badRequest('specifying resource version is not allowed when using continue'))
    expect((await getJson('/api/v1/pods', { limit: 'many' })).status).toBe(400)
    // resourceVersion=0 is allowed with continue, and a continue without limit reads the rest.
    expect(itemNames((await getJson('/api/v1/pods', { continue: next, resourceVersion: '0' })).body)).toEqual(['ns/p-1', 'ns/p-2'])
    await expect(api.kubeConfig().makeApiClient(CoreV1Api).listPodForAllNamespaces({ limit: 1, _continue: 'garbage' })).rejects.toMatchObject({ code: 400 })
  })

  it('lists every namespace on cluster-wide paths and one on namespaced paths, for pods and the workload kinds', async () => {
    const kinds: [ResourceName, string, string][] = [
      ['pods', '/api/v1', 'Pod'],
      ['replicationcontrollers', '/api/v1', 'ReplicationController'],
      ['deployments', '/apis/apps/v1', 'Deployment'],
      ['replicasets', '/apis/apps/v1', 'ReplicaSet'],
      ['statefulsets', '/apis/apps/v1', 'StatefulSet'],
      ['daemonsets', '/apis/apps/v1', 'DaemonSet'],
      ['jobs', '/apis/batch/v1', 'Job'],
      ['cronjobs', '/apis/batch/v1', 'CronJob'],
    ]
    for (const [resource] of kinds) {
      api.createMany(
        resource,
        ['a', 'a-b', 'b'].flatMap((namespace) => [1, 2, 3].map((index) => ({ metadata: { name: `${resource}-${index}`, namespace, labels: { tier: index === 2 ? 'two' : 'other' } }, spec: {} }))),
      )
    }
    for (const [resource, prefix, kind] of kinds) {
      const all = await getJson(`${prefix}/${resource}`)
      expect(all.status).toBe(200)
      expect(all.body.kind).toBe(`${kind}List`)
      expect((all.body.items as Json[]).map((item) => `${String(item.kind)} ${where(item)}`)).toHaveLength(9)
      const one = await getJson(`${prefix}/namespaces/a-b/${resource}`)
      expect(itemNames(one.body)).toEqual([`a-b/${resource}-1`, `a-b/${resource}-2`, `a-b/${resource}-3`])
      const single = await getJson(`${prefix}/namespaces/a/${resource}/${resource}-2`)
      expect(single.body).toMatchObject({ apiVersion: prefix === '/api/v1' ? 'v1' : prefix.slice('/apis/'.length), kind, metadata: { name: `${resource}-2`, namespace: 'a' } })
    }
    // Not a Namespace subresource, and no Namespace a exists.
    expect((await getJson('/api/v1/namespaces/a')).status).toBe(404)

    const apps = api.kubeConfig().makeApiClient(AppsV1Api)
    expect((await apps.listDeploymentForAllNamespaces({ limit: 4 })).items.map(where)).toEqual(['a/deployments-1', 'a/deployments-2', 'a/deployments-3', 'a-b/deployments-1'])
    const inA = await apps.listNamespacedDeployment({ namespace: 'a', limit: 2 })
    expect(inA.items.map(where)).toEqual(['a/deployments-1', 'a/deployments-2'])
    expect(inA.metadata?.remainingItemCount).toBe(1)
    const restOfA = await apps.listNamespacedDeployment({ namespace: 'a', limit: 2, _continue: inA.metadata?._continue as string })
    expect(restOfA.items.map(where)).toEqual(['a/deployments-3'])
    expect(restOfA.metadata?._continue).toBeUndefined()

    // A label selector with a limit: pages fill with matches; no remainingItemCount, as the real server.
    const batch = api.kubeConfig().makeApiClient(BatchV1Api)
    const matching = await batch.listCronJobForAllNamespaces({ labelSelector: 'tier=two', limit: 2 })
    expect(matching.items.map(where)).toEqual(['a/cronjobs-2', 'a-b/cronjobs-2'])
    expect(matching.metadata?.remainingItemCount).toBeUndefined()
    const rest = await batch.listCronJobForAllNamespaces({ labelSelector: 'tier=two', limit: 2, _continue: matching.metadata?._continue as string })
    expect(rest.items.map(where)).toEqual(['b/cronjobs-2'])

    // The client creates a pod on its namespaced path; the status is the server's to write.
    const core = api.kubeConfig().makeApiClient(CoreV1Api)
    const created = await core.createNamespacedPod({ namespace: 'c', body: { metadata: { name: 'new' }, spec: { containers: [{ name: 'app', image: 'app:1' }] }, status: { phase: 'Running' } } })
    expect(created).toMatchObject({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'new', namespace: 'c', generation: 1 } })
    expect(created.status).toBeUndefined()
    expect((await core.listNamespacedPod({ namespace: 'c' })).items.map(where)).toEqual(['c/new'])
  })

  it('creates, patches, replaces and deletes PolicyReports and ClusterPolicyReports, keeping ownerReferences as given', async () => {
    const custom = api.kubeConfig('scanner').makeApiClient(CustomObjectsApi)
    const group = { group: 'wgpolicyk8s.io', version: 'v1alpha2' }
    const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch)
    const owner = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: '8d1bd5a4-0000-4000-8000-000000000001', controller: true, blockOwnerDeletion: true }
    const result = (rule: string, outcome: string) => ({
      policy: 'pod-security',
      rule,
      result: outcome,
      severity: 'high',
      source: 'verdict',
      scored: true,
      timestamp: { seconds: 1_700_000_000, nanos: 0 },
      resources: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', namespace: 'shop', uid: owner.uid }],
    })
    const report = {
      apiVersion: 'wgpolicyk8s.io/v1alpha2',
      kind: 'PolicyReport',
      metadata: { name: `verdict-${owner.uid}`, labels: { 'app.kubernetes.io/managed-by': 'verdict' }, ownerReferences: [owner] },
      scope: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', namespace: 'shop', uid: owner.uid },
      summary: { pass: 1, fail: 1, warn: 0, error: 0, skip: 0 },
      results: [result('run-as-non-root', 'fail'), result('no-privileged', 'pass')],
    }
    const stored = (metadata: Json) => ({
      ...metadata,
      namespace: 'shop',
      uid: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
      creationTimestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      resourceVersion: expect.stringMatching(/^\d+$/),
    })

    const created = (await custom.createNamespacedCustomObject({ ...group, namespace: 'shop', plural: 'policyreports', body: report })) as Json
    expect(created).toEqual({ ...report, metadata: { ...stored(report.metadata), generation: 1 } })
    expect(api.requests.at(-1)).toMatchObject({ method: 'POST', path: '/apis/wgpolicyk8s.io/v1alpha2/namespaces/shop/policyreports', token: 'scanner', status: 201 })
    await expect(custom.createNamespacedCustomObject({ ...group, namespace: 'shop', plural: 'policyreports', body: report })).rejects.toMatchObject({ code: 409 })

    const patched = (await custom.patchNamespacedCustomObject(
      { ...group, namespace: 'shop', plural: 'policyreports', name: report.metadata.name, body: { summary: { pass: 2, fail: 0 }, results: [result('run-as-non-root', 'pass'), result('no-privileged', 'pass')] } },
      merge,
    )) as Json
    expect(patched).toEqual({
      ...report,
      metadata: { ...stored(report.metadata), uid: metaOf(created).uid, generation: 2 },
      summary: { pass: 2, fail: 0, warn: 0, error: 0, skip: 0 },
      results: [result('run-as-non-root', 'pass'), result('no-privileged', 'pass')],
    })

    const replaced = (await custom.replaceNamespacedCustomObject({ ...group, namespace: 'shop', plural: 'policyreports', name: report.metadata.name, body: { ...patched, results: [] } })) as Json
    expect(replaced).toEqual({ ...patched, results: [], metadata: { ...metaOf(patched), generation: 3, resourceVersion: expect.stringMatching(/^\d+$/) } })
    await expect(custom.replaceNamespacedCustomObject({ ...group, namespace: 'shop', plural: 'policyreports', name: report.metadata.name, body: patched })).rejects.toMatchObject({
      code: 409,
    })
    expect(api.list('policyreports')).toEqual([replaced])
    expect(api.list('policyreports', { namespace: 'shop' })).toEqual([replaced])
    expect(api.list('policyreports', { namespace: 'other' })).toEqual([])
    expect(metaOf(api.get('policyreports', report.metadata.name, 'shop') as Json).ownerReferences).toEqual([owner])
    const listed = (await custom.listNamespacedCustomObject({ ...group, namespace: 'shop', plural: 'policyreports', limit: 10 })) as Json
    expect(listed).toEqual({ apiVersion: 'wgpolicyk8s.io/v1alpha2', kind: 'PolicyReportList', metadata: { resourceVersion: expect.any(String) }, items: [replaced] })

    await custom.deleteNamespacedCustomObject({ ...group, namespace: 'shop', plural: 'policyreports', name: report.metadata.name })
    expect(api.list('policyreports')).toEqual([])
    await expect(custom.deleteNamespacedCustomObject({ ...group, namespace: 'shop', plural: 'policyreports', name: report.metadata.name })).rejects.toMatchObject({ code: 404 })

    const namespaceOwner = { apiVersion: 'v1', kind: 'Namespace', name: 'shop', uid: '8d1bd5a4-0000-4000-8000-000000000002' }
    const clusterReport = {
      apiVersion: 'wgpolicyk8s.io/v1alpha2',
      kind: 'ClusterPolicyReport',
      metadata: { name: 'verdict-namespace-shop', ownerReferences: [namespaceOwner] },
      scope: { apiVersion: 'v1', kind: 'Namespace', name: 'shop', uid: namespaceOwner.uid },
      summary: { pass: 0, fail: 1, warn: 0, error: 0, skip: 0 },
      results: [{ ...result('namespace-labels', 'fail'), resources: undefined }],
    }
    const { resources: _resources, ...clusterResult } = clusterReport.results[0] as Json
    const clusterCreated = (await custom.createClusterCustomObject({ ...group, plural: 'clusterpolicyreports', body: { ...clusterReport, results: [clusterResult] } })) as Json
    const { namespace: _namespace, ...clusterMetadata } = stored(clusterReport.metadata)
    expect(clusterCreated).toEqual({ ...clusterReport, results: [clusterResult], metadata: { ...clusterMetadata, generation: 1 } })
    const clusterPatched = (await custom.patchClusterCustomObject({
      ...group,
      plural: 'clusterpolicyreports',
      name: 'verdict-namespace-shop',
      body: [{ op: 'replace', path: '/summary/fail', value: 0 }],
    })) as Json
    expect(clusterPatched.summary).toEqual({ pass: 0, fail: 0, warn: 0, error: 0, skip: 0 })
    expect(metaOf(clusterPatched)).toMatchObject({ generation: 2, ownerReferences: [namespaceOwner] })
    expect(api.list('clusterpolicyreports')).toEqual([clusterPatched])
    await custom.deleteClusterCustomObject({ ...group, plural: 'clusterpolicyreports', name: 'verdict-namespace-shop' })
    expect(api.list('clusterpolicyreports')).toEqual([])
  })

  it('serves discovery of a group version and OpenReports, and answers 404 under a group whose CRDs were removed', async () => {
    const custom = api.kubeConfig('scanner').makeApiClient(CustomObjectsApi)
    const openreports = { group: 'openreports.io', version: 'v1alpha1' }
    const discovered = await custom.getAPIResources(openreports)
    expect(discovered).toMatchObject({ kind: 'APIResourceList', groupVersion: 'openreports.io/v1alpha1' })
    expect(discovered.resources.map((resource) => [resource.name, resource.kind, resource.namespaced])).toEqual([
      ['reports', 'Report', true],
      ['clusterreports', 'ClusterReport', false],
    ])
    expect((await custom.getAPIResources({ group: 'verdict.dev', version: 'v1alpha1' })).resources.map((resource) => resource.name)).toEqual([
      'rulesets',
      'rulesets/status',
      'policies',
      'policies/status',
      'policyexceptions',
      'policyexceptions/status',
    ])
    await expect(custom.getAPIResources({ group: 'example.com', version: 'v1' })).rejects.toMatchObject({ code: 404 })

    const report = { apiVersion: 'openreports.io/v1alpha1', kind: 'Report', metadata: { name: 'verdict-pss' }, source: 'verdict', summary: { pass: 1, fail: 0, warn: 0, error: 0, skip: 0 }, results: [] }
    await custom.createNamespacedCustomObject({ ...openreports, namespace: 'shop', plural: 'reports', body: report })
    await custom.createClusterCustomObject({ ...openreports, plural: 'clusterreports', body: { ...report, kind: 'ClusterReport' } })
    expect(api.list('reports', { namespace: 'shop' })).toEqual([expect.objectContaining({ kind: 'Report', source: 'verdict', metadata: expect.objectContaining({ name: 'verdict-pss', namespace: 'shop' }) })])
    expect(api.list('clusterreports')).toEqual([expect.objectContaining({ kind: 'ClusterReport', metadata: expect.not.objectContaining({ namespace: expect.anything() }) })])

    api.removeGroup('openreports.io')
    expect([api.count('reports'), api.count('clusterreports')]).toEqual([0, 0])
    await expect(custom.getAPIResources(openreports)).rejects.toMatchObject({ code: 404 })
    await expect(custom.listClusterCustomObject({ ...openreports, plural: 'reports' })).rejects.toMatchObject({ code: 404 })
    await expect(custom.createNamespacedCustomObject({ ...openreports, namespace: 'shop', plural: 'reports', body: report })).rejects.toMatchObject({ code: 404 })
    // Other groups are still served.
    expect((await custom.getAPIResources({ group: 'wgpolicyk8s.io', version: 'v1alpha2' })).resources.map((resource) => resource.name)).toEqual(['policyreports', 'clusterpolicyreports'])
    api.restoreGroup('openreports.io')
    expect(await custom.listClusterCustomObject({ ...openreports, plural: 'reports' })).toMatchObject({ kind: 'ReportList', items: [] })
  })

  it('loads objects in bulk: one history entry, watches told unless silent, all or nothing', async () => {
    const events: string[] = []
    const watch = new Watch(api.kubeConfig())
    const controller = await watch.watch('/api/v1/namespaces/a/pods', { labelSelector: 'app=web' }, (type, object: Json) => events.push(`${type} ${where(object)}`), () => {})
    await waitFor('the watch', () => api.watchCount('pods') === 1)
    const before = api.create('pods', pod('a', 'first', { app: 'web' }))
    await waitFor('the first event', () => events.length === 1)
    const loaded = api.createMany('pods', [pod('a', 'x', { app: 'web' }), pod('a', 'y', { app: 'db' }), pod('b', 'x', { app: 'web' }), { ...pod('a', 'z', { app: 'web' }), status: { phase: 'Running' } }])
    expect(loaded).toEqual({ created: 4, resourceVersion: String(Number(metaOf(before).resourceVersion) + 4) })
    await waitFor('the bulk events', () => events.length === 3)
    expect(events).toEqual(['ADDED a/first', 'ADDED a/x', 'ADDED a/z'])
    expect(api.get('pods', 'z', 'a')).toEqual({
      ...pod('a', 'z', { app: 'web' }),
      metadata: { ...metaOf(pod('a', 'z', { app: 'web' })), uid: expect.any(String), creationTimestamp: expect.any(String), generation: 1, resourceVersion: loaded.resourceVersion },
    })

    api.createMany('pods', [pod('a', 'quiet', { app: 'web' })], { silent: true })
    expect(() => api.createMany('pods', [pod('a', 'new'), pod('a', 'x')])).toThrow('pods "x" already exists')
    expect(() => api.createMany('pods', [pod('c', 'twice'), pod('c', 'twice')])).toThrow('pods "twice" already exists')
    expect(() => api.createMany('pods', [{ metadata: { namespace: 'c' } }])).toThrow('metadata.name: Required value')
    expect(api.get('pods', 'new', 'a')).toBeUndefined()
    expect(api.count('pods')).toBe(6)
    api.create('pods', pod('a', 'last', { app: 'web' }))
    await waitFor('the last event', () => events.length === 4)
    expect(events.at(-1)).toBe('ADDED a/last')
    controller.abort()

    // A watch resuming from before the bulk loads still sees each object, silent or not.
    const resumed: string[] = []
    const again = await watch.watch(
      '/api/v1/namespaces/a/pods',
      { labelSelector: 'app=web', resourceVersion: metaOf(before).resourceVersion as string },
      (type, object: Json) => resumed.push(`${type} ${where(object)}`),
      () => {},
    )
    await waitFor('the replayed events', () => resumed.length === 4)
    expect(resumed).toEqual(['ADDED a/x', 'ADDED a/z', 'ADDED a/quiet', 'ADDED a/last'])
    again.abort()
  })

  it('loads 100,000 pods at once and serves them all, page by page, in order', async () => {
    const total = 100_000
    const pods = Array.from({ length: total }, (_, index) => pod(`ns-${String(index % 97).padStart(2, '0')}`, `pod-${String(index).padStart(6, '0')}`, { shard: String(index % 10) }))
    const loaded = api.createMany('pods', pods, { silent: true })
    expect(loaded.created).toBe(total)
    expect(api.count('pods')).toBe(total)

    let token: string | undefined
    let previous = ''
    let count = 0
    const versions = new Set<unknown>()
    let pages = 0
    do {
      const page = await getJson('/api/v1/pods', token === undefined ? { limit: '1000' } : { limit: '1000', continue: token })
      expect(page.status).toBe(200)
      pages += 1
      const meta = listMeta(page.body)
      versions.add(meta.resourceVersion)
      for (const item of page.body.items as Json[]) {
        const key = `${String(metaOf(item).namespace)}\u0000${String(metaOf(item).name)}`
        expect(key > previous).toBe(true)
        previous = key
        count += 1
      }
      token = meta.continue as string | undefined
      expect(meta.remainingItemCount).toBe(token === undefined ? undefined : total - count)
      if (pages === 50) api.createMany('pods', [pod('ns-00', 'late')])
    } while (token !== undefined)
    expect(count).toBe(total)
    expect(pages).toBe(100)
    expect([...versions]).toEqual([loaded.resourceVersion])
    expect(api.requests.filter((request) => request.path === '/api/v1/pods').every((request) => request.page?.items === 1_000)).toBe(true)

    // One namespace of the 100,000: a binary search away.
    const one = await getJson('/api/v1/namespaces/ns-42/pods', { limit: '2000' })
    expect((one.body.items as Json[]).length).toBe(1_031)
    expect(listMeta(one.body).continue).toBeUndefined()
  })

  it('validates events.k8s.io/v1 Events as the real server does: required fields and limits on create, only series changes on update', async () => {
    const events = api.kubeConfig().makeApiClient(EventsV1Api)
    const valid = {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'web.1', namespace: 'team-a' },
      eventTime: new V1MicroTime('2026-11-24T10:00:00.000000Z'),
      reportingController: 'verdict.dev/admission',
      reportingInstance: 'verdict-0',
      action: 'Admission',
      reason: 'PolicyViolation',
      regarding: { apiVersion: 'v1', kind: 'Pod', name: 'web', namespace: 'team-a', uid: 'u1' },
      note: 'denied',
      type: 'Warning',
    }
    const created = await events.createNamespacedEvent({ namespace: 'team-a', body: valid })
    expect(created.metadata?.name).toBe('web.1')
    const refused = (body: object) =>
      events.createNamespacedEvent({ namespace: 'team-a', body: body as typeof valid }).then(
        () => undefined,
        (error: unknown) => error as ApiException<string>,
      )
    const invalid = await refused({
      ...valid,
      metadata: { name: 'Web_1', namespace: 'team-a' },
      eventTime: undefined,
      reportingController: 'verdict admission',
      action: '',
      note: 'x'.repeat(1025),
      deprecatedCount: 2,
      regarding: { apiVersion: 'v1', kind: 'Namespace', name: 'team-a' },
    })
    expect(invalid?.code).toBe(422)
    const message = String(JSON.parse(invalid?.body ?? '{}').message)
    for (const field of ['metadata.name', 'eventTime: Required', 'reportingController: Invalid', 'action: Required', 'note: can have at most 1024', 'deprecatedCount', 'regarding.namespace']) {
      expect(message).toContain(field)
    }
    expect((await refused({ ...valid, metadata: { name: 'web.2' }, series: { count: 1, lastObservedTime: '2026-11-24T10:00:00Z' } }))?.code).toBe(422)

    const patch = (body: object) =>
      events.patchNamespacedEvent({ namespace: 'team-a', name: 'web.1', body }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch)).then(
        (event) => event.series?.count,
        (error: unknown) => (error as ApiException<string>).code,
      )
    expect(await patch({ series: { count: 3, lastObservedTime: '2026-11-24T10:00:01.000000Z' } })).toBe(3)
    expect(await patch({ note: 'changed' })).toBe(422)
    expect(await patch({ series: { count: 1, lastObservedTime: '2026-11-24T10:00:01.000000Z' } })).toBe(422)
  })
})
