import { describe, expect, it } from 'vitest'
import { ContextClusterData, pluralOf } from '../../src/kyverno-test/context-cluster-data.js'

const configMap = (name: string, namespace: string | undefined, data: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: namespace === undefined ? { name } : { name, namespace },
  data,
})
const ingress = (name: string, namespace: string) => ({ apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name, namespace }, spec: {} })

const context = new ContextClusterData({
  apiVersion: 'cli.kyverno.io/v1alpha1',
  kind: 'Context',
  spec: {
    resources: [
      configMap('registries', 'default', { allowed: 'ghcr.io' }),
      configMap('global', undefined, { a: 'b' }),
      ingress('web', 'shop'),
      ingress('api', 'shop'),
      ingress('web', 'other'),
      configMap('registries', 'default', { allowed: 'quay.io' }),
    ],
    images: [
      { image: 'busybox:1.35', config: { Env: ['PATH=/bin'] }, manifest: { layers: [] }, unknownField: 'dropped' },
      { image: 'ghcr.io/acme/app@sha256:abc', registry: 'ghcr.io', repository: 'acme/app', digest: 'sha256:abc', tag: '', imageIndex: null },
    ],
  },
})

describe('the cluster data of a test context file', () => {
  it('finds objects by apiVersion, plural resource, namespace and name; a later duplicate replaces an earlier one', () => {
    expect(context.resource('v1', 'configmaps', 'default', 'registries')).toEqual(configMap('registries', 'default', { allowed: 'quay.io' }))
    expect(context.resource('networking.k8s.io/v1', 'ingresses', 'other', 'web')).toEqual(ingress('web', 'other'))
    expect(context.resource('networking.k8s.io/v1beta1', 'ingresses', 'other', 'web')).toBeUndefined()
    expect(context.resource('v1', 'configmap', 'default', 'registries')).toBeUndefined()
    expect(context.configMap('default', 'registries')?.data).toEqual({ allowed: 'quay.io' })
  })

  it('keeps an object without a namespace under the empty namespace, as the CLI does', () => {
    expect(context.resource('v1', 'configmaps', '', 'global')).toEqual(configMap('global', undefined, { a: 'b' }))
    expect(context.resource('v1', 'configmaps', 'default', 'global')).toBeUndefined()
  })

  it('lists one namespace exactly, in file order; a type without any object is unknown', () => {
    expect(context.resources('networking.k8s.io/v1', 'ingresses', 'shop')).toEqual([ingress('web', 'shop'), ingress('api', 'shop')])
    expect(context.resources('networking.k8s.io/v1', 'ingresses', 'nowhere')).toEqual([])
    expect(context.resources('networking.k8s.io/v1', 'ingresses', '')).toEqual([])
    expect(context.resources('v1', 'configmaps', '')).toEqual([configMap('global', undefined, { a: 'b' })])
    expect(context.resources('v1', 'secrets', 'default')).toBeUndefined()
  })

  it('answers image metadata for the exact image string, encoded as the CLI encodes it', () => {
    expect(context.imageMetadata('busybox:1.35')).toEqual({
      image: 'busybox:1.35',
      resolvedImage: '',
      registry: '',
      repository: '',
      config: { Env: ['PATH=/bin'] },
      manifest: { layers: [] },
    })
    expect(context.imageMetadata('ghcr.io/acme/app@sha256:abc')).toEqual({
      image: 'ghcr.io/acme/app@sha256:abc',
      resolvedImage: '',
      registry: 'ghcr.io',
      repository: 'acme/app',
      digest: 'sha256:abc',
    })
    expect(context.imageMetadata('docker.io/library/busybox:1.35')).toBeUndefined()
  })

  it("guesses a kind's resource name as Kubernetes does", () => {
    expect(['Pod', 'Ingress', 'NetworkPolicy', 'Endpoints', 'HorizontalPodAutoscaler', 'StorageClass'].map(pluralOf)).toEqual([
      'pods',
      'ingresses',
      'networkpolicies',
      'endpoints',
      'horizontalpodautoscalers',
      'storageclasses',
    ])
  })

  it('refuses entries it cannot file, naming them', () => {
    expect(() => new ContextClusterData({ spec: { resources: [{ kind: 'Pod', metadata: { name: 'x' } }] } })).toThrow('spec.resources[0] needs an apiVersion and a kind')
    expect(() => new ContextClusterData({ spec: { resources: [{ apiVersion: 'v1', kind: 'Pod', metadata: {} }] } })).toThrow('spec.resources[0] needs metadata.name')
    expect(() => new ContextClusterData({ spec: { images: [{ config: {} }] } })).toThrow('spec.images[0] needs an image')
    expect(() => new ContextClusterData({ spec: { resources: {} } })).toThrow('spec.resources must be a list')
    expect(new ContextClusterData({}).resources('v1', 'pods', '')).toBeUndefined()
  })
})
