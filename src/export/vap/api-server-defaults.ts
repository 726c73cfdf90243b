import type { MatchResources, ResourceRule, ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from './admission-policy-types.js'

/**
 * Whether a policy or binding spec read back from the API server is the one generated. The API
 * server fills in defaults the generator leaves out (failurePolicy Fail, matchPolicy Equivalent,
 * empty selectors, scope `*`) and drops empty lists, so both sides are brought to that one form
 * before comparing: what is equal in meaning is equal, and any hand edit of a field is a
 * difference. Key order never counts.
 */
export function sameVapSpec(observed: unknown, desired: ValidatingAdmissionPolicy['spec']): boolean {
  return canonical(normalVapSpec(observed)) === canonical(normalVapSpec(desired))
}

export function sameBindingSpec(observed: unknown, desired: ValidatingAdmissionPolicyBinding['spec']): boolean {
  return canonical(normalBindingSpec(observed)) === canonical(normalBindingSpec(desired))
}

type Json = Record<string, unknown>

function normalVapSpec(spec: unknown): unknown {
  if (!isObject(spec)) return spec
  const { failurePolicy, matchConstraints, matchConditions, variables, validations, ...rest } = spec
  return dropEmpty({
    ...rest,
    failurePolicy: failurePolicy ?? 'Fail',
    matchConstraints: normalMatchResources(matchConstraints),
    matchConditions,
    variables,
    validations: Array.isArray(validations) ? validations.map((validation) => (isObject(validation) ? dropEmpty(validation) : validation)) : validations,
  })
}

function normalBindingSpec(spec: unknown): unknown {
  if (!isObject(spec)) return spec
  const { matchResources, ...rest } = spec
  // Absent matchResources and one of defaults only mean the same: every request the policy matches.
  return dropEmpty({ ...rest, matchResources: normalMatchResources(matchResources ?? {}) })
}

function normalMatchResources(match: unknown): unknown {
  if (!isObject(match)) return match
  const { matchPolicy, namespaceSelector, objectSelector, resourceRules, excludeResourceRules, ...rest } = match as Json & Partial<MatchResources>
  return dropEmpty({
    ...rest,
    matchPolicy: matchPolicy ?? 'Equivalent',
    namespaceSelector: normalSelector(namespaceSelector),
    objectSelector: normalSelector(objectSelector),
    resourceRules: normalRules(resourceRules),
    excludeResourceRules: normalRules(excludeResourceRules),
  })
}

function normalRules(rules: unknown): unknown {
  if (!Array.isArray(rules)) return rules
  return rules.map((rule: unknown) => {
    if (!isObject(rule)) return rule
    const { scope, ...rest } = rule as Json & Partial<ResourceRule> & { scope?: unknown }
    return dropEmpty({ ...rest, scope: scope ?? '*' })
  })
}

/** An empty selector (absent, `{}`, empty matchLabels or matchExpressions) selects everything: one form for all of them. */
function normalSelector(selector: unknown): unknown {
  if (selector === undefined) return undefined
  if (!isObject(selector)) return selector
  const normal = dropEmpty(selector)
  return Object.keys(normal).length === 0 ? undefined : normal
}

/** Members that are undefined, null, empty lists or empty maps are left out, as the API server leaves them out. */
function dropEmpty(object: Json): Json {
  const out: Json = {}
  for (const [key, value] of Object.entries(object)) {
    if (value === undefined || value === null) continue
    if (Array.isArray(value) && value.length === 0) continue
    if (isObject(value) && Object.keys(value).length === 0) continue
    out[key] = value
  }
  return out
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** JSON with every object's keys sorted. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    isObject(inner) ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : inner,
  )
}
