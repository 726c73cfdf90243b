import { kindMatcher, parseKindSelector } from '../../engine/match/kind-selector.js'
import { resourcesOfKind } from '../../import/resource-kinds.js'
import type { ResourceRule, VapOperation } from './admission-policy-types.js'
import { CannotGenerate } from './refusal.js'

/** The resource rule parts of one kind entry: apiGroups x apiVersions x resources. */
export interface ResourceTarget {
  apiGroups: string[]
  apiVersions: string[]
  resources: string[]
  /** The entry names a version: the policy must match versions exactly (matchPolicy Exact). */
  versioned: boolean
}

/**
 * Verdict matches kinds (`Pod`, `apps/Deployment`, `v1/Pod`, `apps/*`, `*`), the API server
 * resources (`pods` in group ""). A kind without a group matches that kind in any group, so it
 * becomes its plural in every group (`apiGroups: ["*"]`), which the importer reads back as the
 * same bare kind. Plurals come from the importer's table of built-in resources, so a kind the table
 * does not know (a custom resource) is refused rather than guessed: a wrong plural matches nothing.
 * `*` is every resource but not subresources, as Verdict's own webhook registers it.
 */
export function resourceTargetsOfKinds(kinds: readonly string[] | undefined, field: string): ResourceTarget[] {
  if (kinds === undefined || kinds.includes('*')) return [{ apiGroups: ['*'], apiVersions: ['*'], resources: ['*'], versioned: false }]
  return kinds.flatMap((entry, index) => targetsOfEntry(entry, `${field}[${index}]`))
}

function targetsOfEntry(entry: string, field: string): ResourceTarget[] {
  const selector = parseKindSelector(entry)
  const group = selector.group === '*' ? undefined : selector.group
  const version = selector.version === undefined || selector.version === '*' ? undefined : selector.version
  const apiVersions = version === undefined ? ['*'] : [version]
  if (selector.kind === '*') return [{ apiGroups: [group ?? '*'], apiVersions, resources: ['*'], versioned: version !== undefined }]
  const found = resourcesOfKind(selector.kind, group)
  if (found.length === 0) {
    throw new CannotGenerate(field, `the resource of kind "${entry}" is not known: a ValidatingAdmissionPolicy matches resources by their plural name, and custom resources are not in the generator's table of built-in kinds`)
  }
  if (version !== undefined && found.some((resource) => resource.subresource)) {
    throw new CannotGenerate(field, `"${entry}" is carried by a subresource request, whose version is the parent resource's: the version cannot be matched`)
  }
  const neverAdmitted = found.find((resource) => NEVER_ADMITTED.some((other) => other.resource === resource.resource && other.group === resource.group))
  if (neverAdmitted) {
    throw new CannotGenerate(field, `Verdict's webhook never judges ${neverAdmitted.resource} (leader election and event recording must not wait on it), so a policy for "${entry}" would judge what Verdict never does`)
  }
  const plain = found.filter((resource) => !resource.subresource)
  const carried = found.filter((resource) => resource.subresource)
  const targets: ResourceTarget[] = []
  if (group === undefined && plain.length > 0) {
    targets.push({ apiGroups: ['*'], apiVersions, resources: unique(plain.map((resource) => resource.resource)), versioned: version !== undefined })
  } else {
    for (const resourceGroup of unique(plain.map((resource) => resource.group))) {
      targets.push({ apiGroups: [resourceGroup], apiVersions, resources: plain.filter((r) => r.group === resourceGroup).map((r) => r.resource), versioned: version !== undefined })
    }
  }
  for (const resourceGroup of unique(carried.map((resource) => resource.group))) {
    targets.push({ apiGroups: [resourceGroup], apiVersions: ['*'], resources: carried.filter((r) => r.group === resourceGroup).map((r) => r.resource), versioned: false })
  }
  return targets
}

/** What Verdict's webhook never registers, whatever a policy says (k8s/kind-resources.ts isNeverAdmitted). */
const NEVER_ADMITTED: readonly { group: string; resource: string }[] = [
  { group: 'coordination.k8s.io', resource: 'leases' },
  { group: '', resource: 'events' },
  { group: 'events.k8s.io', resource: 'events' },
]

/** Exclusions that keep a policy for every resource off what Verdict's webhook never judges. */
export function neverAdmittedRules(): ResourceRule[] {
  return NEVER_ADMITTED.map(({ group, resource }) => ({ apiGroups: [group], apiVersions: ['*'], resources: [resource], operations: ['*'] }))
}

/** One resource rule per target, each for these operations and names. */
export function resourceRulesOf(targets: readonly ResourceTarget[], operations: readonly VapOperation[], names: readonly string[] | undefined): ResourceRule[] {
  return targets.map((target) => ({
    apiGroups: [...target.apiGroups],
    apiVersions: [...target.apiVersions],
    resources: [...target.resources],
    operations: [...operations],
    ...(names ? { resourceNames: [...names] } : {}),
  }))
}

/** Whether a kind list (absent: any kind) selects a resource of this group, version and kind. */
export function kindsSelect(kinds: readonly string[] | undefined, group: string, version: string, kind: string): boolean {
  return kinds === undefined || kindMatcher(kinds)({ group, version, kind })
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)]
}
