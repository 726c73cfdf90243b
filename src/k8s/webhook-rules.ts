import { judgesAtAdmission, resolvePolicyRulesets, type Match, type Operation, type Policy, type ResourceFilter, type Rule, type Ruleset } from '../engine/index.js'
import {
  builtInResources,
  builtInResourcesOfGroup,
  isBuiltInGroup,
  isNeverAdmitted,
  pluralOf,
  POD_CONTROLLERS,
  type GroupResource,
} from './kind-resources.js'

/** admissionregistration.k8s.io/v1 RuleWithOperations, as the leader writes it. */
export interface WebhookRule {
  apiGroups: string[]
  apiVersions: string[]
  operations: Operation[]
  resources: string[]
  scope: '*'
}

/**
 * A rule that names no operations is sent CREATE and UPDATE, what admission policies mean by
 * default; DELETE and CONNECT reach the webhook only when a rule or its policy asks for them.
 */
export const DEFAULT_OPERATIONS: readonly Operation[] = ['CREATE', 'UPDATE']
const OPERATION_ORDER: readonly Operation[] = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT']

interface KindEntry {
  group?: string
  version?: string
  kind: string
}

const VERSION = /^v\d+((alpha|beta)\d+)?$/

/**
 * The webhook rules that send the API server's requests to Verdict for every admission policy
 * (`admission !== false`) and every rule of the rulesets it applies. Always a superset of what
 * the policies can match, never less: a request the webhook does not receive cannot be judged.
 *
 * - No policy, or none that can match anything: no rules, so the API server never calls Verdict.
 * - A rule matching every kind (no `kinds`, or `*`) registers every built-in resource (see
 *   kind-resources.ts), not `*`: a wildcard would take in leases and events.
 * - A Pod rule registers the pod controllers its autogen judges as well.
 * - Leases and events are never registered.
 */
export function webhookRules(policies: readonly Policy[], rulesets: readonly Ruleset[]): WebhookRule[] {
  const byKey = new Map<string, { operations: Operation[]; group: string; version: string; resources: Set<string> }>()
  const register = (operations: Operation[], kinds: string[]): void => {
    for (const target of resourcesOf(kinds)) {
      if (isNeverAdmitted(target)) continue
      const key = `${operations.join(',')}|${target.group}|${target.version}`
      const entry = byKey.get(key) ?? { operations, group: target.group, version: target.version, resources: new Set<string>() }
      entry.resources.add(target.resource)
      byKey.set(key, entry)
    }
  }
  for (const policy of policies) {
    if (!judgesAtAdmission(policy)) continue
    const { found } = resolvePolicyRulesets(policy, rulesets)
    for (const rule of found.flatMap((ruleset) => ruleset.rules)) {
      for (const policyTarget of targetsOf(policy.match)) {
        for (const ruleTarget of targetsOf(rule.match)) {
          const operations = combineOperations(policyTarget.operations, ruleTarget.operations)
          const kinds = combineKinds(policyTarget.kinds, withAutogen(rule, ruleTarget.kinds))
          if (operations.length > 0 && kinds.length > 0) register(operations, kinds)
        }
      }
    }
  }
  return [...byKey.keys()]
    .sort()
    .map((key) => byKey.get(key) as NonNullable<ReturnType<typeof byKey.get>>)
    .map((entry) => ({ apiGroups: [entry.group], apiVersions: [entry.version], operations: entry.operations, resources: [...entry.resources].sort(), scope: '*' }))
}

/** Kinds and operations one alternative of a match can require; undefined: not restricted. */
interface Target {
  kinds: string[] | undefined
  operations: Operation[] | undefined
}

/**
 * A superset of what a match can select, as alternatives: the top-level lists when present
 * (every other part only narrows them), else the first list in `all`; then one alternative per
 * `any` entry, which fills in what the top level leaves open.
 */
function targetsOf(match: Match | undefined): Target[] {
  if (!match) return [{ kinds: undefined, operations: undefined }]
  const first = <T>(pick: (filter: ResourceFilter) => T[] | undefined): T[] | undefined =>
    pick(match) ?? (match.all ?? []).map(pick).find((values) => values !== undefined)
  const base: Target = { kinds: first((filter) => filter.kinds), operations: first((filter) => filter.operations) }
  const alternatives = match.any ?? []
  if (alternatives.length === 0) return [base]
  return alternatives.map((filter) => ({ kinds: base.kinds ?? filter.kinds, operations: base.operations ?? filter.operations }))
}

function combineOperations(policy: Operation[] | undefined, rule: Operation[] | undefined): Operation[] {
  const chosen = policy && rule ? policy.filter((operation) => rule.includes(operation)) : (rule ?? policy ?? DEFAULT_OPERATIONS)
  return OPERATION_ORDER.filter((operation) => chosen.includes(operation))
}

/** The rule's kinds plus the pod controllers autogen judges as Pods, as the engine decides it. */
function withAutogen(rule: Rule, kinds: string[] | undefined): string[] | undefined {
  if (rule.autogen === false || kinds === undefined) return kinds
  const controllers = typeof rule.autogen === 'object' ? rule.autogen.controllers : namesPod(kinds) ? POD_CONTROLLERS : []
  return [...kinds, ...controllers]
}

function namesPod(kinds: readonly string[]): boolean {
  return kinds.some((entry) => {
    if (entry === '*') return false
    const parsed = parseKind(entry)
    return parsed.kind === 'Pod' && (parsed.group === undefined || parsed.group === '')
  })
}

/** Kinds both lists can match; undefined or `*` on one side leaves the other. */
function combineKinds(policy: string[] | undefined, rule: string[] | undefined): string[] {
  const wild = (kinds: string[] | undefined): boolean => kinds === undefined || kinds.includes('*')
  if (wild(rule)) return wild(policy) ? ['*'] : (policy as string[])
  if (wild(policy)) return rule as string[]
  const policyEntries = (policy as string[]).map(parseKind)
  return (rule as string[]).filter((entry) => policyEntries.some((other) => overlaps(parseKind(entry), other)))
}

function overlaps(a: KindEntry, b: KindEntry): boolean {
  const same = (x: string | undefined, y: string | undefined): boolean => x === undefined || y === undefined || x === '*' || y === '*' || x === y
  return same(a.kind, b.kind) && same(a.group, b.group) && same(a.version, b.version)
}

interface VersionedResource extends GroupResource {
  version: string
}

function resourcesOf(kinds: readonly string[]): VersionedResource[] {
  if (kinds.includes('*')) return builtInResourcesOfGroup().map((resource) => ({ ...resource, version: '*' }))
  return kinds.flatMap((entry) => {
    const parsed = parseKind(entry)
    const version = parsed.version ?? '*'
    if (parsed.kind === '*') {
      if (parsed.group === undefined) return builtInResourcesOfGroup().map((resource) => ({ ...resource, version }))
      if (isBuiltInGroup(parsed.group)) return builtInResourcesOfGroup(parsed.group).map((resource) => ({ ...resource, version }))
      return [{ group: parsed.group, resource: '*', version }]
    }
    const builtIn = builtInResources(parsed.kind, parsed.group)
    if (builtIn.length > 0) return builtIn.map((resource) => ({ ...resource, version }))
    return [{ group: parsed.group ?? '*', resource: pluralOf(parsed.kind), version }]
  })
}

/** The kind entry forms the engine reads: Kind, group/Kind, version/Kind, group/version/Kind; `core` is ''. */
function parseKind(entry: string): KindEntry {
  const parts = entry.split('/')
  if (parts.length === 1) return { kind: entry }
  if (parts.length === 2) {
    const [first, kind] = parts as [string, string]
    return VERSION.test(first) ? { version: first, kind } : { group: first === 'core' ? '' : first, kind }
  }
  const kind = parts.pop() as string
  const version = parts.pop() as string
  const group = parts.join('/')
  return { group: group === 'core' ? '' : group, version, kind }
}
