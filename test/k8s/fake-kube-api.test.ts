import {
  AdmissionregistrationV1Api,
  ApiException,
  CoordinationV1Api,
  CoreV1Api,
  CustomObjectsApi,
  makeInformer,
  PatchStrategy,
  setHeaderOptions,
  V1MicroTime,
  Watch,
  type KubernetesListObject,
  type KubernetesObject,
} from '@kubernetes/client-node'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { FakeKubeApi, type Json } from './fake-kube-api.js'
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
})
