import type { MatchFilter, ResourceFilter } from '../model/match.js'
import { matchesAnyGlob } from './glob.js'
import { matchesKind } from './kind-selector.js'
import { matchesLabelSelector } from './label-selector.js'
import type { MatchTarget } from './match-target.js'

/** Every part of the filter that is present holds for the target. */
export function matchesResourceFilter(filter: ResourceFilter, target: MatchTarget): boolean {
  if (filter.kinds && !matchesKind(target.gvk, filter.kinds)) return false
  if (filter.operations && !filter.operations.includes(target.operation)) return false
  if (filter.names && !matchesAnyGlob(target.name, filter.names)) return false
  const namespace = namespaceOf(target)
  if (filter.namespaces && !matchesAnyGlob(namespace, filter.namespaces)) return false
  if (filter.excludeNamespaces && namespace !== '' && matchesAnyGlob(namespace, filter.excludeNamespaces)) return false
  if (filter.labelSelector && !matchesLabelSelector(target.labels, filter.labelSelector)) return false
  if (filter.namespaceSelector && !matchesNamespaceSelector(filter, target)) return false
  return true
}

/** A filter with alternatives (`any`) and further conjunctions (`all`). */
export function matchesFilter(filter: MatchFilter, target: MatchTarget): boolean {
  if (!matchesResourceFilter(filter, target)) return false
  if (filter.any && !filter.any.some((alternative) => matchesResourceFilter(alternative, target))) return false
  if (filter.all && !filter.all.every((part) => matchesResourceFilter(part, target))) return false
  return true
}

/** A Namespace belongs to itself, as Kyverno and Gatekeeper read it: `namespaces: [prod]` selects Namespace prod. */
function namespaceOf(target: MatchTarget): string {
  return isNamespace(target) ? target.name : target.namespace
}

function isNamespace(target: MatchTarget): boolean {
  return target.gvk.kind === 'Namespace' && target.gvk.group === ''
}

/**
 * As in the Kubernetes API server: a Namespace is judged by its own labels, other cluster-scoped
 * resources are never filtered out by a namespace selector.
 */
function matchesNamespaceSelector(filter: ResourceFilter, target: MatchTarget): boolean {
  const selector = filter.namespaceSelector
  if (!selector) return true
  if (target.namespace === '') {
    return isNamespace(target) ? matchesLabelSelector(target.labels, selector) : true
  }
  return matchesLabelSelector(target.namespaceLabels ?? {}, selector)
}
