import type { Operation } from '../model/match.js'
import type { GroupVersionKind } from './kind-selector.js'
import type { Labels } from './label-selector.js'

/** What matching looks at: the identity of the resource and of the request, nothing else. */
export interface MatchTarget {
  gvk: GroupVersionKind
  name: string
  /** '' for cluster-scoped resources. */
  namespace: string
  labels: Labels
  /** The labels of the resource's namespace, when known; unknown reads as no labels. */
  namespaceLabels?: Labels
  operation: Operation
  /** The resource's annotations (read only by filters that name annotations). */
  annotations?: Labels
  /** Who sent the request, when known (read only by filters that name subjects). */
  user?: { username: string; groups: readonly string[] }
}
