import type { ClusterObject } from '../cluster/cluster-object.js'

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

/** What a scan judges: an object of a manifest, or one listed from a cluster. */
export type ScanObject = ManifestObject | ClusterObject

export type ManifestRef = Omit<ManifestObject, 'value'>
export type ClusterRef = Omit<ClusterObject, 'value'>

/** An object as results name it: everything but its content. */
export type ObjectRef = ManifestRef | ClusterRef

export function objectRef(object: ScanObject): ObjectRef {
  const { value: _value, ...ref } = object
  return ref
}

export function isClusterRef(object: ObjectRef): object is ClusterRef {
  return 'source' in object && object.source === 'cluster'
}

/** Where an object is, as a person reads it: `file:line` for a manifest, `cluster:<context>` for a cluster's object. */
export function describeLocation(object: ObjectRef): string {
  return isClusterRef(object) ? object.file : `${object.file}:${object.line}`
}

/** `Kind namespace/name`, as kubectl and the other commands name resources. */
export function describeObject(object: ObjectRef): string {
  const name = object.name ?? '(unnamed)'
  return object.namespace === null ? `${object.kind} ${name}` : `${object.kind} ${object.namespace}/${name}`
}
