/**
 * Where the parts templates edit live in any sample document: pod specs inside controllers,
 * containers of every type, metadata, Terraform planned resources.
 */
type Json = Record<string, unknown>

function object(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined
}

/** The objects of an array field; [] when it is missing or not an array. */
function objectsIn(value: unknown): Json[] {
  if (!Array.isArray(value)) return []
  const found: Json[] = []
  for (const item of value as unknown[]) {
    const entry = object(item)
    if (entry) found.push(entry)
  }
  return found
}

/** The pod spec of a Pod, of a controller's template, of a CronJob's job template; [] for other kinds. */
export function podSpecsOf(document: Json): Json[] {
  const spec = object(document.spec)
  if (!spec) return []
  if (document.kind === 'Pod') return [spec]
  const template = object(spec.template) ?? object(object(object(spec.jobTemplate)?.spec)?.template)
  const podSpec = object(template?.spec)
  return podSpec ? [podSpec] : []
}

export type ContainerType = 'containers' | 'initContainers' | 'ephemeralContainers'

/** Containers of the given types (default: all three) in every pod spec of the document. */
export function containersOf(document: Json, types: readonly ContainerType[] = ['containers', 'initContainers', 'ephemeralContainers']): Json[] {
  return podSpecsOf(document).flatMap((spec) => types.flatMap((type) => objectsIn(spec[type])))
}

/** The first app container: bad samples that break one container break this one. */
export function firstContainerOf(document: Json): Json {
  const [container] = containersOf(document, ['containers'])
  if (!container) throw new Error(`a ${String(document.kind)} sample has no container`)
  return container
}

/** The document's own metadata, created if missing. */
export function metadataOf(document: Json): Json {
  const existing = object(document.metadata)
  if (existing) return existing
  const created: Json = {}
  document.metadata = created
  return created
}

/** A map inside an object (labels, annotations, securityContext...), created if missing. */
export function mapIn(parent: Json, key: string): Json {
  const existing = object(parent[key])
  if (existing) return existing
  const created: Json = {}
  parent[key] = created
  return created
}

/** The planned resources of a Terraform plan, in the root module and its child modules. */
export function planResources(plan: Json): Json[] {
  const root = object(object(plan.planned_values)?.root_module)
  const resources = (module: Json | undefined): Json[] =>
    module
      ? [
          ...objectsIn(module.resources),
          ...objectsIn(module.child_modules).flatMap((child) => resources(child)),
        ]
      : []
  return resources(root)
}

/** The `values` of each planned resource of a type. */
export function planValuesOf(plan: Json, type: string): Json[] {
  return planResources(plan)
    .filter((resource) => resource.type === type)
    .map((resource) => mapIn(resource, 'values'))
}

/**
 * Sets a dotted path (a.b.c) in a generic document, creating objects on the way. Used by the
 * generic JSON templates, whose parameters are such paths.
 */
export function setPath(document: Json, path: string, value: unknown): void {
  const parts = path.split('.')
  let current = document
  for (const part of parts.slice(0, -1)) current = mapIn(current, part)
  current[parts[parts.length - 1] ?? ''] = value
}

export function deletePath(document: Json, path: string): void {
  const parts = path.split('.')
  let current: Json | undefined = document
  for (const part of parts.slice(0, -1)) current = object(current?.[part])
  if (current) delete current[parts[parts.length - 1] ?? '']
}
