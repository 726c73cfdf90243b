/**
 * Where the webhook finds the Namespace object of a request, for `namespaceSelector` and
 * `namespaceObject` in CEL: an informer cache in a cluster (src/k8s), a fixed map in tests.
 * Undefined when the namespace is unknown (not yet seen, or cluster-scoped request).
 */
export interface NamespaceSource {
  get(name: string): Record<string, unknown> | undefined
}

/** No cluster: nothing is known about namespaces. */
export const NO_NAMESPACES: NamespaceSource = { get: () => undefined }
