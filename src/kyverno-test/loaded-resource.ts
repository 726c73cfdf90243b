/** An input resource of a test, keyed as the Kyverno CLI keys it. */
export interface LoadedResource {
  apiVersion: string
  kind: string
  namespace: string
  name: string
  object: Record<string, unknown>
}

/**
 * As the Kyverno CLI loads resources: a missing namespace becomes `default` (cluster-scoped kinds
 * too), and of several documents with the same apiVersion, kind, namespace and name the first wins.
 */
export function keyResources(documents: unknown[]): LoadedResource[] {
  const seen = new Set<string>()
  const resources: LoadedResource[] = []
  for (const document of documents) {
    if (typeof document !== 'object' || document === null || Array.isArray(document)) continue
    const object = document as Record<string, unknown>
    const metadata = { ...((object.metadata ?? {}) as Record<string, unknown>) }
    if (typeof metadata.namespace !== 'string' || metadata.namespace === '') metadata.namespace = 'default'
    const resource: LoadedResource = {
      apiVersion: String(object.apiVersion ?? ''),
      kind: String(object.kind ?? ''),
      namespace: metadata.namespace as string,
      name: String(metadata.name ?? ''),
      object: { ...object, metadata },
    }
    const key = [resource.apiVersion, resource.kind, resource.namespace, resource.name].join('\u0000')
    if (seen.has(key)) continue
    seen.add(key)
    resources.push(resource)
  }
  return resources
}

/** `name` matches every resource of that name; `namespace/name` also pins the namespace. */
export function findResources(resources: readonly LoadedResource[], reference: string): LoadedResource[] {
  const slash = reference.indexOf('/')
  if (slash < 0) return resources.filter((resource) => resource.name === reference)
  const namespace = reference.slice(0, slash)
  const name = reference.slice(slash + 1)
  return resources.filter((resource) => resource.namespace === namespace && resource.name === name)
}
