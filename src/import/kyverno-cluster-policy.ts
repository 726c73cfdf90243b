import type { LabelSelector } from '../engine/model/label-selector.js'
import type { Match, MatchCondition, ResourceFilter } from '../engine/model/match.js'
import type { FailurePolicy, Policy, PolicyAction } from '../engine/model/policy.js'
import type { Autogen, CelValidation, Rule, Validate, Variable } from '../engine/model/rule.js'
import type { Ruleset } from '../engine/model/ruleset.js'
import { celMatchConditions, celValidations, celVariables, optionalMessage } from './cel.js'
import { ImportError, Unsupported } from './import-error.js'
import { importedRemediation } from './imported-remediation.js'
import { importedConditions, importedContext, importedDeny, importedForEach } from './kyverno-classic.js'
import { importedPatterns } from './kyverno-pattern.js'
import { importedPodSecurityValidation } from './kyverno-pod-security.js'
import { kyvernoAutogen } from './kyverno-autogen.js'
import { restrictToNamespace, translateKyvernoExclude, translateKyvernoMatch } from './kyverno-match.js'
import { readMetadata, type SourceMetadata } from './metadata.js'
import {
  isObject,
  list,
  object,
  optionalBoolean,
  optionalLabelSelector,
  optionalList,
  optionalObject,
  optionalText,
  optionalTextList,
  text,
  type JsonObject,
} from './read.js'
import type { ImportedDocument, SkippedRule } from './types.js'
import { failurePolicy } from './validation-actions.js'

/**
 * Kyverno ClusterPolicy / Policy (kyverno.io/v1, v2beta1) -> one Ruleset named after the policy
 * holding its validate.cel, validate.pattern and validate.anyPattern rules under their own names,
 * and one Policy of the same name.
 * Every other rule is reported as skipped, never dropped.
 */
export function importKyvernoPolicy(doc: JsonObject): ImportedDocument {
  const kind = doc.kind === 'Policy' ? 'Policy' : 'ClusterPolicy'
  const metadata = readMetadata(doc)
  // A namespaced Policy only ever applies in its own namespace; the CLI loads it into `default` when unset.
  const namespace = kind === 'Policy' ? (metadata.namespace ?? 'default') : undefined
  const sourceName = namespace === undefined ? metadata.name : `${namespace}/${metadata.name}`
  const spec = object(doc.spec, 'spec')
  const rules = list(spec.rules, 'spec.rules').map((rule, i) => object(rule, `spec.rules[${i}]`))

  const defaults: RuleDefaults = {
    action: failureAction(spec.validationFailureAction, 'spec.validationFailureAction') ?? 'Audit',
    overrides: actionOverrides(spec.validationFailureActionOverrides, 'spec.validationFailureActionOverrides') ?? [],
    conditions: webhookConditions(spec),
    namespace,
    severity: metadata.severity,
    description: metadata.description,
  }
  const autogen = kyvernoAutogen(rules, metadata.annotations)
  const skipped: SkippedRule[] = []
  const imported: ImportedRule[] = []
  const seen = new Set<string>()
  rules.forEach((rule, i) => {
    const name = text(rule.name, `spec.rules[${i}].name`)
    if (seen.has(name)) throw new ImportError(`spec.rules[${i}].name`, `duplicate rule name "${name}"`)
    seen.add(name)
    try {
      imported.push(importRule(rule, `spec.rules[${i}]`, autogen[i] ?? false, defaults))
    } catch (error) {
      if (!(error instanceof Unsupported)) throw error
      skipped.push({ policy: sourceName, rule: name, reason: error.message })
    }
  })

  // Kyverno stops at the first rule that applies; Verdict judges every rule, which is only the same with one rule.
  if (optionalText(spec.applyRules, 'spec.applyRules') === 'One' && rules.length > 1) {
    for (const entry of imported.splice(0)) {
      skipped.push({ policy: sourceName, rule: entry.rule.name, reason: 'spec.applyRules: One (stop at the first rule that applies) is not supported' })
    }
  }

  const common: PolicyCommon = {
    failurePolicy: failurePolicy(spec.failurePolicy, 'spec.failurePolicy') ?? 'Fail',
    admission: optionalBoolean(spec.admission, 'spec.admission'),
    background: optionalBoolean(spec.background, 'spec.background'),
    description: metadata.description,
  }
  const { rulesets, policies } = group(metadata, imported, defaults, common)
  return { sourceKind: kind, sourceName, rulesets, policies, skipped }
}

/** A per-namespace action: Kyverno's validationFailureActionOverrides entry. */
interface ActionOverride {
  action: PolicyAction
  namespaces?: string[]
  namespaceSelector?: LabelSelector
}

interface RuleDefaults {
  action: PolicyAction
  overrides: ActionOverride[]
  conditions: MatchCondition[]
  namespace: string | undefined
  severity: SourceMetadata['severity']
  /** The policy's description: what a rule's remediation is derived from when the rule has no message. */
  description: string | undefined
}

interface ImportedRule {
  rule: Rule
  action: PolicyAction
  overrides: ActionOverride[]
}

interface PolicyCommon {
  failurePolicy: FailurePolicy
  admission: boolean | undefined
  background: boolean | undefined
  description: string | undefined
}

const OTHER_VALIDATIONS = ['manifests', 'assert'] as const
const VALIDATION_KINDS = ['cel', 'pattern', 'anyPattern', 'deny', 'foreach', 'podSecurity'] as const

function importRule(rule: JsonObject, path: string, autogen: Autogen, defaults: RuleDefaults): ImportedRule {
  const name = text(rule.name, `${path}.name`)
  const validate = optionalObject(rule.validate, `${path}.validate`)
  if (!validate) {
    for (const other of ['mutate', 'generate', 'verifyImages'] as const) {
      if (rule[other] !== undefined && rule[other] !== null) throw new Unsupported(`${other} rules are not supported`)
    }
    throw new ImportError(path, 'has no validate, mutate, generate or verifyImages')
  }
  for (const other of OTHER_VALIDATIONS) {
    if (validate[other] !== undefined && validate[other] !== null) throw new Unsupported(`validate.${other} rules are not supported yet`)
  }
  const kinds = VALIDATION_KINDS.filter((kind) => validate[kind] !== undefined && validate[kind] !== null)
  if (kinds.length === 0) throw new ImportError(`${path}.validate`, `has none of ${[...VALIDATION_KINDS, ...OTHER_VALIDATIONS].join(', ')}`)
  if (kinds.length > 1) throw new ImportError(`${path}.validate`, `has ${kinds.join(' and ')}; a rule validates in exactly one way`)
  const context = importedContext(rule.context, `${path}.context`)
  const preconditions = importedConditions(rule.preconditions, `${path}.preconditions`)
  const cel = kinds[0] === 'cel' ? object(validate.cel, `${path}.validate.cel`) : undefined
  if (cel && (present(cel.paramKind) || present(cel.paramRef))) {
    throw new Unsupported('validate.cel with paramKind/paramRef is not supported (parameter resources come from a cluster)')
  }
  // Kyverno refuses celPreconditions on any rule but a validate.cel one.
  if (!cel && present(rule.celPreconditions)) throw new ImportError(`${path}.celPreconditions`, 'applies to validate.cel rules only')

  const match: Match = { ...translateKyvernoMatch(rule.match, `${path}.match`) }
  if (defaults.namespace !== undefined) restrictToNamespace(match, defaults.namespace)
  const exclude = translateKyvernoExclude(rule.exclude, `${path}.exclude`)
  if (exclude) match.exclude = exclude
  const conditions = [...(celMatchConditions(rule.celPreconditions, `${path}.celPreconditions`) ?? []), ...defaults.conditions]
  if (conditions.length > 0) match.conditions = conditions

  const translated = cel
    ? { validate: { cel: celValidations(cel.expressions, `${path}.validate.cel.expressions`) }, variables: celVariables(cel.variables, `${path}.validate.cel.variables`) }
    : importedValidation(kinds[0] as (typeof VALIDATION_KINDS)[number], validate, `${path}.validate`)
  const { variables } = translated
  const validations = ('validations' in translated ? translated.validations : undefined) ?? translated.validate.cel ?? []
  const message = optionalMessage(validate.message, `${path}.validate.message`)
  const out: Rule = {
    name,
    ...(defaults.severity ? { severity: defaults.severity } : {}),
    match,
    autogen,
    ...(variables ? { variables } : {}),
    ...(context ? { context } : {}),
    ...(preconditions !== undefined ? { preconditions } : {}),
    validate: translated.validate,
    ...(message !== undefined ? { message } : {}),
    remediation: importedRemediation(message, validations, defaults.description),
  }
  return {
    rule: out,
    action: failureAction(validate.failureAction, `${path}.validate.failureAction`) ?? defaults.action,
    overrides: actionOverrides(validate.failureActionOverrides, `${path}.validate.failureActionOverrides`) ?? defaults.overrides,
  }
}

/**
 * The non-CEL validation of a rule, in Verdict's model; podSecurity stays podSecurity (checked as
 * Kyverno checks it), with the CEL of its checks for the remediation (`validations`).
 */
function importedValidation(
  kind: (typeof VALIDATION_KINDS)[number],
  validate: JsonObject,
  field: string,
): { validate: Validate; variables?: Variable[] | undefined; validations?: CelValidation[] } {
  if (kind === 'podSecurity') return importedPodSecurityValidation(validate.podSecurity, `${field}.podSecurity`)
  if (kind === 'deny') return { validate: { deny: importedDeny(validate.deny, `${field}.deny`) } }
  if (kind === 'foreach') return { validate: { foreach: importedForEach(validate.foreach, `${field}.foreach`) } }
  return { validate: importedPatterns(validate, field) }
}

/** spec.webhookConfiguration.matchConditions gate every request the policy sees, so every rule gets them. */
function webhookConditions(spec: JsonObject): MatchCondition[] {
  const webhook = optionalObject(spec.webhookConfiguration, 'spec.webhookConfiguration')
  return celMatchConditions(webhook?.matchConditions, 'spec.webhookConfiguration.matchConditions') ?? []
}

/** Enforce -> Deny, Audit -> Audit; Kyverno accepts any letter case. */
function failureAction(value: unknown, field: string): PolicyAction | undefined {
  const action = optionalText(value, field)
  if (action === undefined) return undefined
  if (action.toLowerCase() === 'enforce') return 'Deny'
  if (action.toLowerCase() === 'audit') return 'Audit'
  throw new ImportError(field, `must be Enforce or Audit, not "${action}"`)
}

function actionOverrides(value: unknown, field: string): ActionOverride[] | undefined {
  const items = optionalList(value, field)
  if (!items) return undefined
  return items.flatMap((raw, i) => {
    const path = `${field}[${i}]`
    const item = object(raw, path)
    const action = failureAction(item.action, `${path}.action`)
    if (action === undefined) throw new ImportError(`${path}.action`, 'is required')
    const override: ActionOverride = { action }
    const namespaces = optionalTextList(item.namespaces, `${path}.namespaces`)
    if (namespaces) override.namespaces = namespaces
    const namespaceSelector = optionalLabelSelector(item.namespaceSelector, `${path}.namespaceSelector`)
    if (namespaceSelector) override.namespaceSelector = namespaceSelector
    // With neither namespaces nor a selector Kyverno never applies the override.
    return namespaces || namespaceSelector ? [override] : []
  })
}

/**
 * Verdict's action belongs to a Policy, not to a rule. Rules that share an action (and per-namespace
 * overrides) share a ruleset and a policy; the group with the policy-wide action keeps the policy's
 * name, any other gets a suffix (`-enforce`, `-audit`). Overrides become extra policies limited to
 * their namespaces, which the main policy then leaves out, first override first as in Kyverno.
 */
function group(
  metadata: SourceMetadata,
  imported: readonly ImportedRule[],
  defaults: RuleDefaults,
  common: PolicyCommon,
): { rulesets: Ruleset[]; policies: Policy[] } {
  const keyOf = (action: PolicyAction, overrides: ActionOverride[]) => JSON.stringify([action, overrides])
  const groups = new Map<string, { action: PolicyAction; overrides: ActionOverride[]; rules: Rule[] }>()
  const defaultKey = keyOf(defaults.action, defaults.overrides)
  for (const entry of imported) {
    const key = keyOf(entry.action, entry.overrides)
    const existing = groups.get(key)
    if (existing) existing.rules.push(entry.rule)
    else groups.set(key, { action: entry.action, overrides: entry.overrides, rules: [entry.rule] })
  }
  const ordered = [...groups.entries()].sort(([a], [b]) => Number(b === defaultKey) - Number(a === defaultKey))
  const rulesets: Ruleset[] = []
  const policies: Policy[] = []
  const used = new Set<string>()
  ordered.forEach(([, entry], index) => {
    let name = index === 0 ? metadata.name : `${metadata.name}-${entry.action === 'Deny' ? 'enforce' : 'audit'}`
    for (let n = 2; used.has(name); n++) name = `${metadata.name}-${n}`
    used.add(name)
    const ruleset: Ruleset = { name, rules: entry.rules }
    if (common.description) ruleset.description = common.description
    rulesets.push(ruleset)
    const filters = entry.overrides.map(overrideFilter)
    policies.push(policyOf(name, name, entry.action, common, filters.length > 0 ? { exclude: { any: filters as [ResourceFilter, ...ResourceFilter[]] } } : undefined))
    entry.overrides.forEach((override, i) => {
      const match: Match = { ...filters[i] }
      const earlier = filters.slice(0, i)
      if (earlier.length > 0) match.exclude = { any: earlier as [ResourceFilter, ...ResourceFilter[]] }
      policies.push(policyOf(`${name}-override-${i + 1}`, name, override.action, common, match))
    })
  })
  return { rulesets, policies }
}

function overrideFilter(override: ActionOverride): ResourceFilter {
  const filter: ResourceFilter = {}
  if (override.namespaces) filter.namespaces = override.namespaces
  if (override.namespaceSelector) filter.namespaceSelector = override.namespaceSelector
  return filter
}

function policyOf(name: string, ruleset: string, action: PolicyAction, common: PolicyCommon, match: Match | undefined): Policy {
  const policy: Policy = { name }
  if (common.description) policy.description = common.description
  policy.rulesets = [ruleset]
  if (match) policy.match = match
  policy.action = action
  policy.failurePolicy = common.failurePolicy
  if (common.admission === false) policy.admission = false
  if (common.background === false) policy.background = false
  return policy
}

function present(value: unknown): boolean {
  return value !== undefined && value !== null && !(isObject(value) && Object.keys(value).length === 0)
}
