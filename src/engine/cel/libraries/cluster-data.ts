import { EvaluationError, type Environment } from '@marcbachmann/cel-js'
import type { ClusterData } from '../../evaluate/evaluation-input.js'
import { charge } from '../cost-budget.js'
import { walkCost } from '../value-cost.js'
import { toCelValue } from '../values.js'

/**
 * Kyverno's CEL `resource` and `image` libraries, answered from the ClusterData of the input
 * being judged (see evaluation-input.ts); the engine itself does no I/O.
 *
 * - `resource.Get(apiVersion, resource, namespace, name)`: the object as a map, or null when there
 *   is no such object (Kyverno turns a NotFound into null).
 * - `resource.List(apiVersion, resource, namespace[, labels])`: `{items: [...]}`, only the objects
 *   carrying every given label; an error when the resource type is unknown (Kyverno: "failed to
 *   list resource: <resource>.<group> resource not found").
 * - `image.GetMetadata(reference)`: the image's metadata map; an error when nothing is known of it.
 * - Kyverno 1.18's lower-case spellings `get`, `list` and `getMetadata` too.
 *
 * `resource` and `image` are variables whose values, of opaque types, every activation built
 * from an input carries (see clusterBindings). Without cluster data a call is an evaluation error that
 * says so, never a compile error: the same rule compiles everywhere and is judged where the data is.
 *
 * Cost: an answer is converted to CEL values once per input and kept, so calling
 * `image.GetMetadata(c.image)` four times per container converts once; the conversion charges
 * the walk of the answer (value-cost.ts) before it is made, the call itself is metered like any
 * other (metered-nodes.ts).
 */

export const RESOURCE_CONTEXT_TYPE = 'kyverno.ResourceContext'
export const IMAGE_CONTEXT_TYPE = 'kyverno.ImageContext'

/** The values of the `resource` and `image` variables for one input. */
export interface ClusterBindings {
  readonly resource: ResourceContext
  readonly image: ImageContext
}

/** Lookups answered from one input's cluster data, each converted once and kept. */
abstract class ClusterLookups {
  readonly cluster: ClusterData | undefined
  readonly #answers = new Map<string, unknown>()

  constructor(cluster: ClusterData | undefined) {
    this.cluster = cluster
  }

  /** The cluster data, or an error naming the call when there is none. */
  protected clusterFor(call: string): ClusterData {
    if (this.cluster === undefined) throw new EvaluationError(`${call}: no cluster data is available to this evaluation`)
    return this.cluster
  }

  /** The kept answer for `key`, else `fetch()`'s JSON converted to CEL (charged by size) and kept. */
  protected answer(key: string, fetch: () => unknown): unknown {
    if (this.#answers.has(key)) return this.#answers.get(key)
    const json = fetch()
    charge(walkCost(json))
    const value = toCelValue(json)
    this.#answers.set(key, value)
    return value
  }
}

export class ResourceContext extends ClusterLookups {
  get(fn: string, apiVersion: string, resource: string, namespace: string, name: string): unknown {
    const call = `resource.${fn}(${quoteAll(apiVersion, resource, namespace, name)})`
    const cluster = this.clusterFor(call)
    const groupVersion = parseGroupVersion(apiVersion, 'failed to get resource')
    return this.answer(key('get', groupVersion.text, resource, namespace, name), () => {
      if (cluster.resource) return cluster.resource(groupVersion.text, resource, namespace, name) ?? null
      if (groupVersion.text === 'v1' && resource === 'configmaps') return cluster.configMap(namespace, name) ?? null
      throw new EvaluationError(`${call}: the cluster data available answers ConfigMap lookups only (v1 configmaps)`)
    })
  }

  list(fn: string, apiVersion: string, resource: string, namespace: string, labels?: unknown): unknown {
    const selector = labelSet(labels)
    const call = `resource.${fn}(${quoteAll(apiVersion, resource, namespace)}${selector ? ', {...}' : ''})`
    const cluster = this.clusterFor(call)
    const groupVersion = parseGroupVersion(apiVersion, 'failed to list resource')
    const selectorKey = selector ? JSON.stringify([...selector].sort()) : ''
    return this.answer(key('list', groupVersion.text, resource, namespace, selectorKey), () => {
      if (!cluster.resources) throw new EvaluationError(`${call}: the cluster data available cannot list resources (it answers ConfigMap lookups only)`)
      const objects = cluster.resources(groupVersion.text, resource, namespace)
      if (objects === undefined) {
        const groupResource = groupVersion.group === '' ? resource : `${resource}.${groupVersion.group}`
        throw new EvaluationError(`failed to list resource: ${groupResource} resource not found`)
      }
      return { items: selector ? objects.filter((object) => carriesLabels(object, selector)) : [...objects] }
    })
  }
}

export class ImageContext extends ClusterLookups {
  getMetadata(fn: string, reference: string): unknown {
    const call = `image.${fn}(${quoteAll(reference)})`
    const cluster = this.clusterFor(call)
    return this.answer(key('image', reference), () => {
      if (!cluster.imageMetadata) throw new EvaluationError(`${call}: the cluster data available holds no image metadata`)
      const metadata = cluster.imageMetadata(reference)
      if (metadata === undefined) throw new EvaluationError(`failed to get image data: image data for ${reference} not found`)
      return metadata
    })
  }
}

const NO_CLUSTER: ClusterBindings = Object.freeze({ resource: new ResourceContext(undefined), image: new ImageContext(undefined) })

/** The `resource` and `image` values for an input with this cluster data (or none). */
export function clusterBindings(cluster: ClusterData | undefined): ClusterBindings {
  if (cluster === undefined) return NO_CLUSTER
  return { resource: new ResourceContext(cluster), image: new ImageContext(cluster) }
}

export function registerClusterDataLibraries(env: Environment): void {
  const sync = { async: false }
  const R = RESOURCE_CONTEXT_TYPE
  const I = IMAGE_CONTEXT_TYPE
  env.registerType(R, { ctor: ResourceContext, fields: {} })
  env.registerType(I, { ctor: ImageContext, fields: {} })
  // Declared dyn, like the other bindings, so that an iteration variable of the same name
  // (`rule.resources.exists(resource, ...)`) reads as any value everywhere an expression is checked;
  // the calls still resolve by the value's type.
  env.registerVariable('resource', 'dyn')
  env.registerVariable('image', 'dyn')
  for (const fn of ['Get', 'get']) {
    env.registerFunction(
      `${R}.${fn}(string, string, string, string): map<string, dyn>`,
      (context: ResourceContext, apiVersion: string, resource: string, namespace: string, name: string) => context.get(fn, apiVersion, resource, namespace, name),
      sync,
    )
  }
  for (const fn of ['List', 'list']) {
    env.registerFunction(
      `${R}.${fn}(string, string, string): map<string, dyn>`,
      (context: ResourceContext, apiVersion: string, resource: string, namespace: string) => context.list(fn, apiVersion, resource, namespace),
      sync,
    )
    env.registerFunction(
      `${R}.${fn}(string, string, string, map<string, string>): map<string, dyn>`,
      (context: ResourceContext, apiVersion: string, resource: string, namespace: string, labels: unknown) =>
        context.list(fn, apiVersion, resource, namespace, labels),
      sync,
    )
  }
  for (const fn of ['GetMetadata', 'getMetadata']) {
    env.registerFunction(`${I}.${fn}(string): dyn`, (context: ImageContext, reference: string) => context.getMetadata(fn, reference), sync)
  }
}

interface GroupVersion {
  readonly group: string
  /** `group/version`, or the version alone for the core group. */
  readonly text: string
}

/** An apiVersion as Kubernetes parses one: '' or `v1` (core group), `group/version`; more slashes are an error. */
function parseGroupVersion(apiVersion: string, failure: string): GroupVersion {
  if (apiVersion === '' || apiVersion === '/') return { group: '', text: '' }
  const slash = apiVersion.indexOf('/')
  if (slash < 0) return { group: '', text: apiVersion }
  if (apiVersion.indexOf('/', slash + 1) >= 0) throw new EvaluationError(`${failure}: unexpected GroupVersion string: ${apiVersion}`)
  const group = apiVersion.slice(0, slash)
  const version = apiVersion.slice(slash + 1)
  return { group, text: group === '' ? version : `${group}/${version}` }
}

/** The label pairs a List call asks for, or undefined when it asks for none. */
function labelSet(labels: unknown): [string, unknown][] | undefined {
  if (labels === undefined || labels === null) return undefined
  const entries = labels instanceof Map ? [...(labels as Map<string, unknown>)] : Object.entries(labels as Record<string, unknown>)
  return entries.length === 0 ? undefined : entries
}

function carriesLabels(object: Record<string, unknown>, selector: readonly [string, unknown][]): boolean {
  const metadata = object.metadata
  const labels = typeof metadata === 'object' && metadata !== null ? (metadata as Record<string, unknown>).labels : undefined
  if (typeof labels !== 'object' || labels === null) return false
  return selector.every(([name, value]) => Object.hasOwn(labels, name) && (labels as Record<string, unknown>)[name] === value)
}

function key(...parts: string[]): string {
  return parts.join('\u0000')
}

function quoteAll(...values: string[]): string {
  return values.map((value) => JSON.stringify(value)).join(', ')
}
