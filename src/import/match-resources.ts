import type { Match, MatchFilter, ResourceFilter } from '../engine/model/match.js'
import { ImportError } from './import-error.js'
import { list, object, optionalList, optionalObject, optionalOperations, optionalTextList, optionalLabelSelector, optionalText, unique } from './read.js'
import { checkSameObjectSubresources, kindsOfResourceRule, type KindList } from './resource-kinds.js'

/**
 * Kubernetes admissionregistration MatchResources (the matchConstraints of a
 * ValidatingAdmissionPolicy or a Kyverno ValidatingPolicy, the matchResources of a binding)
 * as a Verdict match. CEL matchConditions are not part of it; callers add them.
 */
export function translateMatchResources(value: unknown, field: string, options: { rulesRequired: boolean }): Match | undefined {
  const source = optionalObject(value, field)
  if (!source) {
    if (options.rulesRequired) throw new ImportError(`${field}.resourceRules`, 'is required')
    return undefined
  }
  const matchPolicy = optionalText(source.matchPolicy, `${field}.matchPolicy`) ?? 'Equivalent'
  if (matchPolicy !== 'Equivalent' && matchPolicy !== 'Exact') {
    throw new ImportError(`${field}.matchPolicy`, `must be Exact or Equivalent, not "${matchPolicy}"`)
  }
  const exact = matchPolicy === 'Exact'

  const rulesField = `${field}.resourceRules`
  const rawRules = options.rulesRequired ? list(source.resourceRules, rulesField) : (optionalList(source.resourceRules, rulesField) ?? [])
  if (options.rulesRequired && rawRules.length === 0) throw new ImportError(rulesField, 'must list at least one rule')
  const positive = rawRules.map((rule, i) => resourceRule(rule, `${rulesField}[${i}]`, exact))
  checkSameObjectSubresources(
    positive.map((p) => p.kindList),
    rulesField,
  )

  const excludeField = `${field}.excludeResourceRules`
  const negative = (optionalList(source.excludeResourceRules, excludeField) ?? []).map((rule, i) =>
    resourceRule(rule, `${excludeField}[${i}]`, exact),
  )
  checkSameObjectSubresources(
    negative.map((n) => n.kindList),
    excludeField,
  )

  const match: Match = { ...combine(positive.map((p) => p.filter)) }
  const namespaceSelector = optionalLabelSelector(source.namespaceSelector, `${field}.namespaceSelector`)
  if (namespaceSelector) match.namespaceSelector = namespaceSelector
  const objectSelector = optionalLabelSelector(source.objectSelector, `${field}.objectSelector`)
  if (objectSelector) match.labelSelector = objectSelector
  if (negative.length > 0) match.exclude = combine(negative.map((n) => n.filter))
  return Object.keys(match).length > 0 ? match : undefined
}

interface TranslatedRule {
  filter: ResourceFilter
  kindList: KindList
}

function resourceRule(value: unknown, field: string, exact: boolean): TranslatedRule {
  const rule = object(value, field)
  const apiGroups = apiGroupsOf(rule.apiGroups, `${field}.apiGroups`)
  const apiVersions = optionalTextList(rule.apiVersions, `${field}.apiVersions`) ?? ['*']
  const resources = optionalTextList(rule.resources, `${field}.resources`)
  if (!resources) throw new ImportError(`${field}.resources`, 'is required')
  const kindList = kindsOfResourceRule({ apiGroups, apiVersions, resources, exact }, field)
  const filter: ResourceFilter = { kinds: kindList.kinds }
  const operations = optionalOperations(rule.operations, `${field}.operations`)
  if (operations) filter.operations = operations
  // resourceNames are exact names; Verdict's names are globs, which match an exact name exactly.
  const names = optionalTextList(rule.resourceNames, `${field}.resourceNames`)
  if (names) filter.names = names
  return { filter, kindList }
}

/**
 * The core group is written `""`, which the non-empty string reader refuses, and an absent
 * apiGroups list matches no group at all in Kubernetes.
 */
function apiGroupsOf(value: unknown, field: string): string[] {
  const items = optionalList(value, field) ?? []
  if (items.length === 0) throw new ImportError(field, 'must list at least one API group ("" is the core group)')
  return items.map((item, i) => {
    if (typeof item !== 'string') throw new ImportError(`${field}[${i}]`, 'must be a string')
    return item
  })
}

/**
 * Rules that differ only in their kinds become one filter, which reads like what an author would
 * write by hand; rules with different operations or names must stay alternatives.
 */
function combine(filters: ResourceFilter[]): MatchFilter {
  const first = filters[0]
  if (!first) return {}
  const key = (f: ResourceFilter) => JSON.stringify([f.operations ?? null, f.names ?? null])
  if (filters.length === 1 || filters.every((f) => key(f) === key(first))) {
    return { ...first, kinds: unique(filters.flatMap((f) => f.kinds ?? [])) }
  }
  return { any: filters as [ResourceFilter, ...ResourceFilter[]] }
}
