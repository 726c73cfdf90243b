import { charge } from '../budget.js'
import { JmespathError } from '../errors.js'
import { parseImageReference, type ImageOptions } from '../image-reference.js'
import { isJsonObject, setOwn, type JsonObject, type JsonValue } from '../json.js'
import { trimSpaceGo } from '../text.js'

/**
 * Kyverno's `images` variable (pkg/utils/api ExtractImagesFromResource): for Pods and the
 * standard Pod controllers, each container's image parsed, by container kind and name:
 *
 *   images.containers.<name> = {registry, path, name, tag, digest, reference,
 *                               referenceWithTag, jsonPointer}
 *
 * and likewise `initContainers` and `ephemeralContainers`; a kind with no container (or a
 * resource of another kind) is absent, and so is `images` when there is no image at all. Empty
 * fields are left out (a digest-only reference has no tag, a tag-only one no digest), as Kyverno's
 * JSON does. Container images without a name, and images Kyverno cannot parse, are errors.
 */

const POD_SPEC_PATHS: Readonly<Record<string, readonly string[]>> = {
  Pod: ['spec'],
  DaemonSet: ['spec', 'template', 'spec'],
  Deployment: ['spec', 'template', 'spec'],
  ReplicaSet: ['spec', 'template', 'spec'],
  ReplicationController: ['spec', 'template', 'spec'],
  StatefulSet: ['spec', 'template', 'spec'],
  Job: ['spec', 'template', 'spec'],
  CronJob: ['spec', 'jobTemplate', 'spec', 'template', 'spec'],
}

const CONTAINER_KINDS = ['initContainers', 'containers', 'ephemeralContainers'] as const

/** The `images` value for a resource, or undefined when it has no images. */
export function extractImages(resource: JsonValue, options: ImageOptions = {}): JsonObject | undefined {
  if (!isJsonObject(resource)) return undefined
  const kind = typeof resource.kind === 'string' ? resource.kind : ''
  const prefix = Object.hasOwn(POD_SPEC_PATHS, kind) ? POD_SPEC_PATHS[kind] : undefined
  if (prefix === undefined) return undefined
  const images: JsonObject = {}
  for (const containerKind of CONTAINER_KINDS) {
    const found: JsonObject = {}
    extract(resource, [], [...prefix, containerKind, '*'], found, options)
    if (Object.keys(found).length > 0) setOwn(images, containerKind, found)
  }
  return Object.keys(images).length > 0 ? images : undefined
}

function extract(value: JsonValue | undefined, path: readonly string[], fields: readonly string[], found: JsonObject, options: ImageOptions): void {
  charge(1)
  if (value === undefined || value === null) return
  if (fields[0] === '*') {
    if (Array.isArray(value)) value.forEach((item, index) => extract(item, [...path, String(index)], fields.slice(1), found, options))
    else if (isJsonObject(value)) for (const key of Object.keys(value)) extract(value[key], [...path, key], fields.slice(1), found, options)
    else throw new JmespathError('invalid type')
    return
  }
  if (!isJsonObject(value)) throw new JmespathError('invalid image config')
  if (fields.length > 0) {
    const field = fields[0] as string
    extract(Object.hasOwn(value, field) ? value[field] : undefined, [...path, field], fields.slice(1), found, options)
    return
  }
  const pointer = `/${path.join('/')}/image`
  const name = Object.hasOwn(value, 'name') ? value.name : undefined
  if (typeof name !== 'string') throw new JmespathError('invalid key')
  const image = Object.hasOwn(value, 'image') ? value.image : undefined
  if (typeof image !== 'string' || trimSpaceGo(image) === '') return
  let info
  try {
    info = parseImageReference(image, options)
  } catch (error) {
    throw new JmespathError(`invalid image '${image}' (${(error as Error).message})`, { cause: error })
  }
  const entry: JsonObject = {}
  const fieldsInOrder: Array<[string, string, boolean]> = [
    ['registry', info.registry, true],
    ['name', info.name, false],
    ['path', info.path, false],
    ['tag', info.tag, true],
    ['digest', info.digest, true],
    ['reference', info.reference, true],
    ['referenceWithTag', info.referenceWithTag, true],
  ]
  for (const [key, text, omitEmpty] of fieldsInOrder) if (!omitEmpty || text !== '') setOwn(entry, key, text)
  setOwn(entry, 'jsonPointer', pointer)
  setOwn(found, name, entry)
}
