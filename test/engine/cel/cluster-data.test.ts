import { afterEach, describe, expect, it } from 'vitest'
import { CelEvaluationError, clusterBindings, compileCel, getCelLimits, setCelLimits, toCelValue, type CelActivation } from '../../../src/engine/cel/index.js'
import type { ClusterData } from '../../../src/engine/index.js'

const DEFAULTS = getCelLimits()

afterEach(() => setCelLimits(DEFAULTS))

const REGISTRIES = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'registries', namespace: 'default' }, data: { allowed: 'ghcr.io,quay.io' } }
const HPA = (name: string, target: string, labels?: Record<string, string>) => ({
  apiVersion: 'autoscaling/v1',
  kind: 'HorizontalPodAutoscaler',
  metadata: labels ? { name, namespace: 'default', labels } : { name, namespace: 'default' },
  spec: { maxReplicas: 3, scaleTargetRef: { kind: 'Deployment', name: target } },
})
const BUSYBOX = {
  image: 'busybox:1.35',
  resolvedImage: '',
  registry: '',
  repository: '',
  config: { created: '2020-05-01T03:15:12-07:00', Env: ['PATH=/bin'], Volumes: [] },
  manifest: { annotations: { 'org.opencontainers.image.base.name': 'gcr.io/distroless/static:nonroot' }, layers: [{ size: 700 }, { size: 300 }] },
}

/** A full ClusterData over fixed objects, counting the calls it answers. */
function fullCluster(calls: string[] = []): ClusterData {
  return {
    configMap: (namespace, name) => {
      calls.push(`configMap ${namespace}/${name}`)
      return undefined
    },
    resource: (apiVersion, resource, namespace, name) => {
      calls.push(`resource ${apiVersion} ${resource} ${namespace}/${name}`)
      if (apiVersion === 'v1' && resource === 'configmaps' && namespace === 'default' && name === 'registries') return REGISTRIES
      return undefined
    },
    resources: (apiVersion, resource, namespace) => {
      calls.push(`resources ${apiVersion} ${resource} ${namespace}`)
      if (apiVersion !== 'autoscaling/v1' || resource !== 'horizontalpodautoscalers') return undefined
      return namespace === 'default' ? [HPA('web', 'web', { team: 'a' }), HPA('api', 'api', { team: 'b' })] : []
    },
    imageMetadata: (reference) => {
      calls.push(`image ${reference}`)
      return reference === 'busybox:1.35' ? BUSYBOX : undefined
    },
  }
}

/** What the controller gives today: ConfigMaps only. */
const configMapsOnly: ClusterData = { configMap: (namespace, name) => (namespace === 'default' && name === 'registries' ? REGISTRIES : undefined) }

function activation(cluster: ClusterData | undefined): CelActivation {
  return { object: toCelValue({ metadata: { name: 'web', namespace: 'default' } }), ...clusterBindings(cluster) }
}

/** `none`: an input without cluster data. */
type Cluster = ClusterData | 'none'

function run(expression: string, cluster: Cluster = fullCluster()): unknown {
  return compileCel(expression).evaluate(activation(cluster === 'none' ? undefined : cluster))
}

function failure(expression: string, cluster: Cluster = fullCluster()): string {
  try {
    run(expression, cluster)
  } catch (error) {
    expect(error).toBeInstanceOf(CelEvaluationError)
    return (error as Error).message
  }
  throw new Error(`expected ${expression} to fail`)
}

describe('resource.Get', () => {
  it('returns the object as a map, numbers as ints, under both spellings', () => {
    expect(run('resource.Get("v1", "configmaps", "default", "registries")')).toEqual(REGISTRIES)
    expect(run('resource.get("v1", "configmaps", "default", "registries").data.allowed.split(",")')).toEqual(['ghcr.io', 'quay.io'])
    const cluster: ClusterData = { ...fullCluster(), resource: () => HPA('web', 'web') }
    expect(run('resource.Get("autoscaling/v1", "horizontalpodautoscalers", "default", "web").spec.maxReplicas', cluster)).toBe(3n)
  })

  it('returns null for an object that does not exist, as Kyverno turns NotFound into null', () => {
    expect(run('resource.Get("v1", "configmaps", "default", "missing")')).toBe(null)
    // As in Kyverno, the declared result is a map, so null is compared through a dyn variable.
    expect(() => compileCel('resource.Get("v1", "secrets", "x", "y") == null')).toThrow(/no such overload/)
    expect(run('dyn(resource.Get("v1", "secrets", "x", "y")) == null')).toBe(true)
  })

  it('passes the apiVersion on as group/version, and rejects one with two slashes as Kubernetes does', () => {
    const calls: string[] = []
    run('resource.Get("/v1", "configmaps", "default", "registries")', fullCluster(calls))
    run('resource.Get("apps/v1", "deployments", "default", "web")', fullCluster(calls))
    expect(calls).toEqual(['resource v1 configmaps default/registries', 'resource apps/v1 deployments default/web'])
    expect(failure('resource.Get("a/b/c", "things", "", "x")')).toBe('failed to get resource: unexpected GroupVersion string: a/b/c (at 1:1)')
  })

  it('asks configMap for v1 configmaps when the cluster data has no resource method', () => {
    expect(run('resource.Get("v1", "configmaps", "default", "registries").data.allowed', configMapsOnly)).toBe('ghcr.io,quay.io')
    expect(run('resource.Get("v1", "configmaps", "default", "other")', configMapsOnly)).toBe(null)
    expect(failure('resource.Get("v1", "secrets", "default", "token")', configMapsOnly)).toContain(
      'resource.Get("v1", "secrets", "default", "token"): the cluster data available answers ConfigMap lookups only (v1 configmaps)',
    )
  })
})

describe('resource.List', () => {
  it('returns {items} of the namespace, empty when there are none', () => {
    expect(run('resource.List("autoscaling/v1", "horizontalpodautoscalers", "default")')).toEqual(
      toCelValue({ items: [HPA('web', 'web', { team: 'a' }), HPA('api', 'api', { team: 'b' })] }),
    )
    expect(run('resource.list("autoscaling/v1", "horizontalpodautoscalers", "other")')).toEqual({ items: [] })
    expect(
      run("resource.List('autoscaling/v1', 'horizontalpodautoscalers', object.metadata.namespace).items.orValue([]).exists(h, h.spec.scaleTargetRef.name == object.metadata.name)"),
    ).toBe(true)
  })

  it('keeps only the objects carrying every label asked for', () => {
    expect(run('resource.List("autoscaling/v1", "horizontalpodautoscalers", "default", {"team": "b"}).items.map(h, h.metadata.name)')).toEqual(['api'])
    expect(run('resource.List("autoscaling/v1", "horizontalpodautoscalers", "default", {"team": "c"}).items')).toEqual([])
    expect(run('size(resource.List("autoscaling/v1", "horizontalpodautoscalers", "default", {}).items)')).toBe(2n)
  })

  it('fails for a resource type the cluster does not know, with Kyverno\'s message', () => {
    expect(failure('resource.List("apps/v1", "deployments", "default")')).toContain('failed to list resource: deployments.apps resource not found')
    expect(failure('resource.List("v1", "pods", "default")')).toContain('failed to list resource: pods resource not found')
  })

  it('fails plainly when the cluster data cannot list', () => {
    expect(failure('resource.List("v1", "configmaps", "default")', configMapsOnly)).toContain(
      'resource.List("v1", "configmaps", "default"): the cluster data available cannot list resources (it answers ConfigMap lookups only)',
    )
  })
})

describe('image.GetMetadata', () => {
  it('returns the metadata map, under both spellings', () => {
    expect(run('image.GetMetadata("busybox:1.35").config.Env')).toEqual(['PATH=/bin'])
    expect(run('image.getMetadata("busybox:1.35").manifest.layers.map(l, l.size).sum()')).toBe(1000n)
    expect(run('timestamp(image.GetMetadata("busybox:1.35").config.created)')).toEqual(new Date('2020-05-01T10:15:12Z'))
  })

  it('works under has(), as cel-go allows a call as the operand', () => {
    expect(run('has(image.GetMetadata("busybox:1.35").config.created)')).toBe(true)
    expect(run('has(image.GetMetadata("busybox:1.35").config.User)')).toBe(false)
    expect(run('!has(image.GetMetadata("busybox:1.35").config.Volumes) || size(image.GetMetadata("busybox:1.35").config.?Volumes.orValue({})) == 0')).toBe(true)
  })

  it('fails for an image nothing is known of, and when the cluster data holds no image metadata', () => {
    expect(failure('image.GetMetadata("nginx")')).toBe('failed to get image data: image data for nginx not found (at 1:1)')
    expect(failure('image.GetMetadata("nginx")', configMapsOnly)).toContain('image.GetMetadata("nginx"): the cluster data available holds no image metadata')
  })
})

describe('without cluster data', () => {
  it('compiles, and every call is an evaluation error saying no cluster data is available', () => {
    expect(failure('resource.Get("v1", "configmaps", "default", "registries")', 'none')).toBe(
      'resource.Get("v1", "configmaps", "default", "registries"): no cluster data is available to this evaluation (at 1:1)',
    )
    expect(failure('resource.list("v1", "pods", "")', 'none')).toBe('resource.list("v1", "pods", ""): no cluster data is available to this evaluation (at 1:1)')
    expect(failure('image.GetMetadata("busybox:1.35").config', 'none')).toBe('image.GetMetadata("busybox:1.35"): no cluster data is available to this evaluation (at 1:1)')
  })

  it('leaves expressions that do not call the libraries alone, and names shadow them in comprehensions', () => {
    expect(run('object.metadata.name', 'none')).toBe('web')
    expect(run("['a', 'b'].exists(resource, resource == 'b') && ['x'].all(image, image.startsWith('x'))", 'none')).toBe(true)
  })

  it('rejects unknown methods and argument counts when compiling, other argument types when called', () => {
    expect(() => compileCel('resource.Get("v1", "configmaps", "default")')).toThrow("found no matching overload for 'dyn.Get(string, string, string)'")
    expect(() => compileCel('resource.Post("v1", "configmaps", "default", {})')).toThrow(/no matching overload/)
    expect(failure('image.GetMetadata(1)', 'none')).toBe("found no matching overload for 'kyverno.ImageContext.GetMetadata(int)' (at 1:1)")
  })
})

describe('answers and cost', () => {
  it('asks the cluster data once per input for the same lookup', () => {
    const calls: string[] = []
    const act = activation(fullCluster(calls))
    const twice = compileCel('[1, 2, 3].all(i, has(image.GetMetadata("busybox:1.35").config.created))')
    expect(twice.evaluate(act)).toBe(true)
    expect(twice.evaluate(act)).toBe(true)
    expect(calls).toEqual(['image busybox:1.35'])
  })

  it('charges the conversion of a large answer to the budget', () => {
    const many = Array.from({ length: 20_000 }, (_, i) => HPA(`h${i}`, 'web'))
    const cluster: ClusterData = { configMap: () => undefined, resources: () => many }
    setCelLimits({ maxCost: 10_000 })
    expect(failure('size(resource.List("autoscaling/v1", "horizontalpodautoscalers", "default").items) > 0', cluster)).toContain('cost budget exceeded')
    setCelLimits(DEFAULTS)
    expect(run('size(resource.List("autoscaling/v1", "horizontalpodautoscalers", "default").items)', { ...cluster, resources: () => many.slice(0, 10) })).toBe(10n)
  })
})
