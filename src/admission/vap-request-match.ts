import type { LabelSelector } from '../engine/model/label-selector.js'
import { matchesLabelSelector } from '../engine/match/label-selector.js'
import type { MatchResources, ResourceRule } from '../export/vap/index.js'
import type { AdmissionRequest } from './admission-review.js'
import type { NamespaceSource } from './namespace-source.js'

/**
 * Whether the API server sends this request to a ValidatingAdmissionPolicy (its matchConstraints)
 * or binding (its matchResources), as its matcher decides it: selectors, excluded rules, then
 * resource rules (none in a binding: whatever its policy matches). Where this cannot tell (no
 * resource in the review, a namespace not in the cache, a scope or version the API server would
 * convert to) it answers false, so the webhook judges the request itself: a rule is left to the
 * API server only where it surely sees the request.
 */
export function matchResourcesSelect(match: MatchResources | undefined, request: AdmissionRequest, namespaces: NamespaceSource, requireRules: boolean): boolean {
  if (!request.resource) return false
  if (!namespaceSelected(match?.namespaceSelector, request, namespaces)) return false
  if (!objectSelected(match?.objectSelector, request)) return false
  if ((match?.excludeResourceRules ?? []).some((rule) => ruleSelects(rule, request, true))) return false
  const rules = match?.resourceRules ?? []
  if (rules.length === 0) return !requireRules
  return rules.some((rule) => ruleSelects(rule, request, false))
}

/**
 * apiGroups, apiVersions, resources (`pods` the resource alone, `pods/*` with its subresources,
 * `*` every resource, `*\/*` everything, `*\/scale` a subresource of any), operations, names.
 * An exclusion is taken when it may match (an unknown scope counts), an inclusion only when it surely does.
 */
function ruleSelects(rule: ResourceRule & { scope?: string }, request: AdmissionRequest, excluding: boolean): boolean {
  const resource = request.resource
  if (!resource) return false
  const any = (values: readonly string[], value: string) => values.includes('*') || values.includes(value)
  if (!any(rule.operations, request.operation)) return false
  if (!any(rule.apiGroups, resource.group) || !any(rule.apiVersions, resource.version)) return false
  const sub = request.subResource ?? ''
  const named = rule.resources.some((entry) => {
    const slash = entry.indexOf('/')
    const [plural, part] = slash < 0 ? [entry, ''] : [entry.slice(0, slash), entry.slice(slash + 1)]
    return (plural === '*' || plural === resource.resource) && (part === '*' || part === sub)
  })
  if (!named) return false
  if (rule.resourceNames && rule.resourceNames.length > 0 && !rule.resourceNames.includes(request.name ?? '')) return false
  const scope = rule.scope ?? '*'
  if (scope === '*') return true
  return excluding
}

/**
 * A namespaced request by its Namespace's labels; a Namespace by its own; any other cluster-scoped
 * object is never left out by a namespaceSelector.
 */
function namespaceSelected(selector: LabelSelector | undefined, request: AdmissionRequest, namespaces: NamespaceSource): boolean {
  if (isEmpty(selector)) return true
  const namespace = request.namespace ?? ''
  const isNamespace = request.resource?.group === '' && request.resource.resource === 'namespaces'
  if (namespace === '' && !isNamespace) return true
  const labels = isNamespace ? labelsOf(request.operation === 'DELETE' ? request.oldObject : request.object) : labelsOf(namespaces.get(namespace))
  return labels !== undefined && matchesLabelSelector(labels, selector as LabelSelector)
}

/** The object's labels or the old object's: either selected is enough, as for the API server. */
function objectSelected(selector: LabelSelector | undefined, request: AdmissionRequest): boolean {
  if (isEmpty(selector)) return true
  return [request.object, request.oldObject].some((object) => {
    const labels = object ? (labelsOf(object) ?? {}) : undefined
    return labels !== undefined && matchesLabelSelector(labels, selector as LabelSelector)
  })
}

function labelsOf(object: Record<string, unknown> | null | undefined): Record<string, string> | undefined {
  if (!object) return undefined
  const metadata = object.metadata
  if (typeof metadata !== 'object' || metadata === null) return {}
  const labels = (metadata as { labels?: unknown }).labels
  return typeof labels === 'object' && labels !== null ? (labels as Record<string, string>) : {}
}

function isEmpty(selector: LabelSelector | undefined): boolean {
  return !selector || (Object.keys(selector.matchLabels ?? {}).length === 0 && (selector.matchExpressions ?? []).length === 0)
}
