/** A Kubernetes object read from a manifest, with where it came from. */
export interface ManifestObject {
  /** The path as given or found under a given directory; `stdin` for standard input. */
  file: string
  /** 1-based line where the object's mapping starts (its document's, or its item's in a List). */
  line: number
  /** The `# Source:` template of Helm template output, when the document names one. */
  template?: string
  apiVersion: string
  kind: string
  namespace: string | null
  name: string | null
  value: Record<string, unknown>
}

/** An object as results name it: everything but its content. */
export type ObjectRef = Omit<ManifestObject, 'value'>

export function objectRef(object: ManifestObject): ObjectRef {
  const { value: _value, ...ref } = object
  return ref
}

/** `Kind namespace/name`, as kubectl and the other commands name resources. */
export function describeObject(object: ObjectRef): string {
  const name = object.name ?? '(unnamed)'
  return object.namespace === null ? `${object.kind} ${name}` : `${object.kind} ${object.namespace}/${name}`
}
