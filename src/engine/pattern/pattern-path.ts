import type { PathSegment } from '../autogen/pod-template-path.js'

/**
 * Where the matcher stands in the resource, as a chain to the root: one small node per step, and
 * the path is only spelled out when a failure is reported.
 */
export interface PathNode {
  readonly up: PathNode | undefined
  readonly key: PathSegment
}

/** The root is `undefined`; Kyverno spells it `/`. */
export type ResourcePath = PathNode | undefined

export function childPath(up: ResourcePath, key: PathSegment): PathNode {
  return { up, key }
}

export function segmentsOf(path: ResourcePath): PathSegment[] {
  const segments: PathSegment[] = []
  for (let node = path; node; node = node.up) segments.push(node.key)
  return segments.reverse()
}

/** Kyverno's spelling: `/spec/containers/0/securityContext/privileged/`, the root `/`. Keys are not escaped, as there. */
export function kyvernoPathText(segments: readonly PathSegment[]): string {
  return `/${segments.map((segment) => `${segment}/`).join('')}`
}

/** Moves a path of the judged subject to the submitted document (a controller's pod template under autogen). */
export type PathMapping = (segments: readonly PathSegment[]) => PathSegment[]
