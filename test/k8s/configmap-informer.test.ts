import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.js'
import type { ControllerLogger } from '../../src/k8s/controller-logger.js'
import { ConfigMapInformer, DEFAULT_CONFIGMAP_CACHE, type ConfigMapCacheSettings } from '../../src/k8s/configmap-informer.js'
import { FakeKubeApi, type Json } from './fake-kube-api.js'
import { waitFor } from './wait-for.js'

interface Line {
  level: string
  message: string
  fields: Record<string, unknown>
}

function recorder(): ControllerLogger & { lines: Line[] } {
  const lines: Line[] = []
  const log = (level: string) => (fields: Record<string, unknown>, message: string) => void lines.push({ level, message, fields })
  return { lines, debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') }
}

const LABEL = { 'verdict.dev/context': 'true' }

function configMap(namespace: string, name: string, data: Record<string, string>, labels: Record<string, string> = LABEL, extra: Json = {}): Json {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, labels }, data, ...extra }
}

describe('ConfigMapInformer', () => {
  let api: FakeKubeApi
  let informer: ConfigMapInformer | undefined
  let logger: ReturnType<typeof recorder>

  beforeEach(async () => {
    api = await FakeKubeApi.start()
    informer = undefined
    logger = recorder()
  })
  afterEach(async () => {
    await informer?.stop()
    await api.close()
  })

  async function start(settings: Partial<ConfigMapCacheSettings> = {}): Promise<ConfigMapInformer> {
    informer = new ConfigMapInformer({ kubeConfig: api.kubeConfig(), logger, backoff: { initialMs: 20, maxMs: 100 }, settings })
    informer.start()
    await informer.whenSynced()
    return informer
  }

  const dataOf = (namespace: string, name: string): unknown => informer?.configMap(namespace, name)?.data

  it('lists and watches only the labelled ConfigMaps, in every namespace, asking the API server to filter', async () => {
    api.create('configmaps', configMap('platform', 'registries', { allowed: 'ghcr.io' }))
    api.create('configmaps', configMap('platform', 'dashboards', { big: 'x' }, {}))
    api.create('configmaps', configMap('team-a', 'registries', { allowed: 'quay.io' }))
    const cache = await start()
    expect(dataOf('platform', 'registries')).toEqual({ allowed: 'ghcr.io' })
    expect(dataOf('team-a', 'registries')).toEqual({ allowed: 'quay.io' })
    expect(cache.configMap('platform', 'dashboards')).toBeUndefined()
    expect(cache.configMap('team-b', 'registries')).toBeUndefined()
    await waitFor('the watch', () => api.watchCount('configmaps') === 1)
    const calls = api.requests.filter((request) => request.path.includes('configmaps'))
    expect(calls.length).toBeGreaterThanOrEqual(2)
    for (const call of calls) {
      expect(call.path).toBe('/api/v1/configmaps')
      expect(new URLSearchParams(call.query).get('labelSelector')).toBe('verdict.dev/context=true')
    }
    expect(calls.map((call) => new URLSearchParams(call.query).get('watch'))).toContain('true')
  })

  it('keeps plain JSON without managedFields and binaryData, and shares it frozen', async () => {
    api.create(
      'configmaps',
      configMap('platform', 'registries', { allowed: 'ghcr.io' }, { ...LABEL, team: 'platform' }, {
        binaryData: { blob: 'AAAA' },
        immutable: true,
      }),
    )
    const stored = api.get('configmaps', 'registries', 'platform') as Json
    api.update('configmaps', { ...stored, metadata: { ...(stored.metadata as Json), managedFields: [{ manager: 'kubectl', operation: 'Apply' }] } })
    const cache = await start()
    const kept = cache.configMap('platform', 'registries') as Json
    expect(kept).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', immutable: true, data: { allowed: 'ghcr.io' } })
    expect(kept.metadata).toMatchObject({ name: 'registries', namespace: 'platform', labels: { ...LABEL, team: 'platform' } })
    expect(typeof (kept.metadata as Json).creationTimestamp).toBe('string')
    expect(kept.metadata).not.toHaveProperty('managedFields')
    expect(kept).not.toHaveProperty('binaryData')
    expect(Object.isFrozen(kept) && Object.isFrozen(kept.data) && Object.isFrozen(kept.metadata)).toBe(true)
    expect(cache.configMap('platform', 'registries')).toBe(kept)
  })

  it('follows ADDED, MODIFIED and DELETED events, and labels put on or taken off', async () => {
    const cache = await start()
    await waitFor('the watch', () => api.watchCount('configmaps') === 1)
    api.create('configmaps', configMap('platform', 'registries', { allowed: 'ghcr.io' }))
    await waitFor('ADDED', () => dataOf('platform', 'registries'))
    api.update('configmaps', configMap('platform', 'registries', { allowed: 'ghcr.io,quay.io' }))
    await waitFor('MODIFIED', () => (dataOf('platform', 'registries') as Json).allowed === 'ghcr.io,quay.io')
    api.update('configmaps', configMap('platform', 'registries', { allowed: 'ghcr.io,quay.io' }, { other: 'x' }))
    await waitFor('the label taken off', () => cache.configMap('platform', 'registries') === undefined)
    api.update('configmaps', configMap('platform', 'registries', { allowed: 'docker.io' }))
    await waitFor('the label put back', () => (dataOf('platform', 'registries') as Json | undefined)?.allowed === 'docker.io')
    api.delete('configmaps', 'registries', { namespace: 'platform' })
    await waitFor('DELETED', () => cache.configMap('platform', 'registries') === undefined)
    expect(cache.stats()).toEqual({ bytes: 0, kept: 0, leftOut: 0 })
  })

  it('catches up with what happened while it was not watching (410 Gone, then a new list)', async () => {
    api.create('configmaps', configMap('platform', 'gone', { a: '1' }))
    api.create('configmaps', configMap('platform', 'changed', { a: '1' }))
    const cache = await start()
    await waitFor('the watch', () => api.watchCount('configmaps') === 1)
    api.delete('configmaps', 'gone', { namespace: 'platform', silent: true })
    api.update('configmaps', configMap('platform', 'changed', { a: '2' }), { silent: true })
    api.create('configmaps', configMap('platform', 'new', { a: '3' }), { silent: true })
    api.compact()
    api.closeWatches()
    await waitFor('the new list applied', () => cache.configMap('platform', 'new'))
    expect(cache.configMap('platform', 'gone')).toBeUndefined()
    expect(dataOf('platform', 'changed')).toEqual({ a: '2' })
  })

  it('watches what another selector names, such as Kyverno’s own label', async () => {
    api.create('configmaps', configMap('platform', 'kyverno', { a: '1' }, { 'cache.kyverno.io/enabled': 'true' }))
    api.create('configmaps', configMap('platform', 'verdict', { a: '1' }))
    const cache = await start({ selector: 'cache.kyverno.io/enabled' })
    expect(dataOf('platform', 'kyverno')).toEqual({ a: '1' })
    expect(cache.configMap('platform', 'verdict')).toBeUndefined()
  })

  it('leaves out a ConfigMap larger than maxBytes, logs why, and takes it once it shrinks', async () => {
    const cache = await start({ maxBytes: 2_000 })
    await waitFor('the watch', () => api.watchCount('configmaps') === 1)
    api.create('configmaps', configMap('platform', 'huge', { list: 'x'.repeat(3_000) }))
    await waitFor('the warning', () => logger.lines.find((line) => line.level === 'warn' && line.fields.configMap === 'platform/huge'))
    expect(cache.configMap('platform', 'huge')).toBeUndefined()
    expect(cache.stats()).toEqual({ bytes: 0, kept: 0, leftOut: 1 })
    const warning = logger.lines.find((line) => line.fields.configMap === 'platform/huge')
    expect(warning?.message).toContain('VERDICT_CONTEXT_CONFIGMAP_MAX_BYTES')
    expect(warning?.fields).toMatchObject({ maxBytes: 2_000 })
    expect(warning?.fields.bytes).toBeGreaterThan(3_000)
    api.update('configmaps', configMap('platform', 'huge', { list: 'x'.repeat(100) }))
    await waitFor('the smaller version', () => dataOf('platform', 'huge'))
    expect(cache.stats()).toMatchObject({ kept: 1, leftOut: 0 })
  })

  it('counts a ConfigMap larger than the whole cache as too large, whatever maxBytes says', async () => {
    const cache = await start({ cacheBytes: 1_000 })
    await waitFor('the watch', () => api.watchCount('configmaps') === 1)
    api.create('configmaps', configMap('platform', 'big', { list: 'x'.repeat(1_500) }))
    const warning = await waitFor('the warning', () => logger.lines.find((line) => line.level === 'warn' && line.fields.configMap === 'platform/big'))
    expect(warning.message).toContain('larger than the whole cache, VERDICT_CONTEXT_CONFIGMAP_CACHE_BYTES')
    expect(warning.fields).toMatchObject({ maxBytes: 1_000 })
    expect(cache.stats()).toEqual({ bytes: 0, kept: 0, leftOut: 1 })
  })

  it('keeps the total within cacheBytes: a new ConfigMap waits for room, an older one is never pushed out', async () => {
    // Each ConfigMap here is about 1.6 kB of JSON: one fits in 2.5 kB, two do not.
    const cache = await start({ maxBytes: 2_400, cacheBytes: 2_500 })
    await waitFor('the watch', () => api.watchCount('configmaps') === 1)
    api.create('configmaps', configMap('platform', 'a', { list: 'a'.repeat(1_400) }))
    await waitFor('a', () => dataOf('platform', 'a'))
    api.create('configmaps', configMap('platform', 'b', { list: 'b'.repeat(1_400) }))
    await waitFor('b left out', () => logger.lines.find((line) => line.fields.configMap === 'platform/b' && line.level === 'warn'))
    expect(cache.configMap('platform', 'b')).toBeUndefined()
    expect(dataOf('platform', 'a')).toEqual({ list: 'a'.repeat(1_400) })
    const stats = cache.stats()
    expect(stats).toMatchObject({ kept: 1, leftOut: 1 })
    expect(stats.bytes).toBeLessThanOrEqual(2_500)
    expect(logger.lines.find((line) => line.fields.configMap === 'platform/b')?.message).toContain('VERDICT_CONTEXT_CONFIGMAP_CACHE_BYTES')

    // Room frees up: b, unchanged since, is listed again and taken in.
    api.delete('configmaps', 'a', { namespace: 'platform' })
    await waitFor('b taken in', () => dataOf('platform', 'b'))
    expect(cache.stats()).toMatchObject({ kept: 1, leftOut: 0 })
    expect(logger.lines.some((line) => line.level === 'info' && line.fields.configMap === 'platform/b' && line.message.includes('now cached'))).toBe(true)
  })

  it('drops a cached ConfigMap whose new version does not fit, rather than serve the old one', async () => {
    const cache = await start({ maxBytes: 2_400, cacheBytes: 2_500 })
    await waitFor('the watch', () => api.watchCount('configmaps') === 1)
    api.create('configmaps', configMap('platform', 'a', { list: 'a'.repeat(1_400) }))
    api.create('configmaps', configMap('platform', 'small', { list: 'short' }))
    await waitFor('both', () => dataOf('platform', 'a') && dataOf('platform', 'small'))
    api.update('configmaps', configMap('platform', 'small', { list: 's'.repeat(1_400) }))
    await waitFor('small dropped', () => cache.configMap('platform', 'small') === undefined)
    expect(dataOf('platform', 'a')).toEqual({ list: 'a'.repeat(1_400) })
    const warning = logger.lines.find((line) => line.fields.configMap === 'platform/small' && line.level === 'warn')
    expect(warning?.message).toContain('the old one is dropped')
  })

  it('logs once per ConfigMap why a lookup found nothing, naming the selector', async () => {
    const cache = await start()
    expect(cache.configMap('platform', 'missing')).toBeUndefined()
    expect(cache.configMap('platform', 'missing')).toBeUndefined()
    const misses = logger.lines.filter((line) => line.fields.configMap === 'platform/missing')
    expect(misses).toHaveLength(1)
    expect(misses[0]?.fields).toMatchObject({ selector: 'verdict.dev/context=true' })
  })

  it('with cacheBytes 0 watches nothing and finds nothing', async () => {
    api.create('configmaps', configMap('platform', 'registries', { allowed: 'ghcr.io' }))
    const cache = await start({ cacheBytes: 0 })
    expect(cache.synced()).toBe(true)
    expect(cache.configMap('platform', 'registries')).toBeUndefined()
    expect(api.requests.filter((request) => request.path.includes('configmaps'))).toEqual([])
    expect(logger.lines.at(-1)?.message).toContain('VERDICT_CONTEXT_CONFIGMAP_CACHE_BYTES=0')
  })

  it('uses the defaults of the configuration', () => {
    const config = loadConfig({}, [])
    expect({ selector: config.contextConfigMapSelector, maxBytes: config.contextConfigMapMaxBytes, cacheBytes: config.contextConfigMapCacheBytes }).toEqual(DEFAULT_CONFIGMAP_CACHE)
  })
})
