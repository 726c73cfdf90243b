import type { ClusterData } from '../engine/index.js'

/**
 * The cluster data a Kyverno CLI test's `context:` file (cli.kyverno.io/v1alpha1 Context) stands
 * for, answered the way the CLI's fake context provider answers CEL `resource` and `image` calls:
 *
 * - `spec.resources` are filed by group/version, resource (the kind's lower-case plural, guessed
 *   as Kubernetes' RESTMapper does: `-s` → `-ses`, `-y` → `-ies`, `endpoints` as is, else `+s`),
 *   namespace (`metadata.namespace`, '' when absent: no default here) and name; a later object
 *   with the same key replaces an earlier one;
 * - a list names one namespace exactly ('' only lists objects without one), keeps file order, and
 *   a resource type with no object at all is unknown (undefined), which Kyverno reports as an error;
 * - `spec.images` are found by their `image` string exactly as written (no normalisation of
 *   `busybox` into `docker.io/library/busybox:latest`), and answer the entry as the CLI encodes
 *   it: `image`, `resolvedImage`, `registry` and `repository` always (empty strings by default),
 *   `tag` and `digest` when not empty, `imageIndex`, `manifest` and `config` when given.
 *
 * `configMap` answers from the same objects (v1 ConfigMaps).
 */
export class ContextClusterData implements ClusterData {
  /** Objects by `group/version` and plural, then `namespace/name`. */
  readonly #objects = new Map<string, Map<string, Record<string, unknown>>>()
  readonly #images = new Map<string, Record<string, unknown>>()

  /** Reads a parsed Context document; throws an Error naming the entry that cannot be filed. */
  constructor(document: unknown) {
    const spec = asRecord(asRecord(document)?.spec) ?? {}
    listOf(spec.resources, 'spec.resources').forEach((entry, i) => this.#addObject(entry, `spec.resources[${i}]`))
    listOf(spec.images, 'spec.images').forEach((entry, i) => this.#addImage(entry, `spec.images[${i}]`))
  }

  configMap(namespace: string, name: string): Record<string, unknown> | undefined {
    return this.resource('v1', 'configmaps', namespace, name)
  }

  resource(apiVersion: string, resource: string, namespace: string, name: string): Record<string, unknown> | undefined {
    return this.#objects.get(typeKey(apiVersion, resource))?.get(objectKey(namespace, name))
  }

  resources(apiVersion: string, resource: string, namespace: string): readonly Record<string, unknown>[] | undefined {
    const objects = this.#objects.get(typeKey(apiVersion, resource))
    if (!objects) return undefined
    return [...objects.values()].filter((object) => namespaceOf(object) === namespace)
  }

  imageMetadata(reference: string): Record<string, unknown> | undefined {
    return this.#images.get(reference)
  }

  #addObject(entry: unknown, where: string): void {
    const object = asRecord(entry)
    if (!object) throw new Error(`${where} is not an object`)
    const { apiVersion, kind } = object
    if (typeof apiVersion !== 'string' || typeof kind !== 'string' || kind === '') throw new Error(`${where} needs an apiVersion and a kind`)
    const name = asRecord(object.metadata)?.name
    if (typeof name !== 'string') throw new Error(`${where} needs metadata.name`)
    const key = typeKey(apiVersion, pluralOf(kind))
    let objects = this.#objects.get(key)
    if (!objects) this.#objects.set(key, (objects = new Map()))
    objects.set(objectKey(namespaceOf(object), name), object)
  }

  #addImage(entry: unknown, where: string): void {
    const image = asRecord(entry)
    if (!image || typeof image.image !== 'string') throw new Error(`${where} needs an image`)
    const metadata: Record<string, unknown> = {
      image: image.image,
      resolvedImage: stringOr(image.resolvedImage),
      registry: stringOr(image.registry),
      repository: stringOr(image.repository),
    }
    for (const field of ['tag', 'digest']) if (stringOr(image[field]) !== '') metadata[field] = image[field]
    for (const field of ['imageIndex', 'manifest', 'config']) if (image[field] !== undefined && image[field] !== null) metadata[field] = image[field]
    this.#images.set(image.image, metadata)
  }
}

/** Kubernetes' guess of a kind's resource name (k8s.io/apimachinery meta.UnsafeGuessKindToResource). */
export function pluralOf(kind: string): string {
  const singular = kind.toLowerCase()
  if (singular.endsWith('endpoints')) return singular
  if (singular.endsWith('s')) return `${singular}es`
  if (singular.endsWith('y')) return `${singular.slice(0, -1)}ies`
  return `${singular}s`
}

/** `group/version` or the bare version for the core group, however the apiVersion was written. */
function typeKey(apiVersion: string, resource: string): string {
  const groupVersion = apiVersion.startsWith('/') ? apiVersion.slice(1) : apiVersion
  return `${groupVersion}\u0000${resource}`
}

function objectKey(namespace: string, name: string): string {
  return `${namespace}\u0000${name}`
}

function namespaceOf(object: Record<string, unknown>): string {
  const namespace = asRecord(object.metadata)?.namespace
  return typeof namespace === 'string' ? namespace : ''
}

function listOf(value: unknown, where: string): unknown[] {
  if (value === undefined || value === null) return []
  if (!Array.isArray(value)) throw new Error(`${where} must be a list`)
  return value
}

function stringOr(value: unknown): string {
  return typeof value === 'string' ? value : ''
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
}
