import type { Match } from '../engine/model/match.js'
import type { Policy, PolicyAction } from '../engine/model/policy.js'
import type { Rule } from '../engine/model/rule.js'
import type { Ruleset } from '../engine/model/ruleset.js'
import { celMatchConditions, celValidations, celVariables } from './cel.js'
import { ImportError, Unsupported } from './import-error.js'
import { importedRemediation } from './imported-remediation.js'
import { translateMatchResources } from './match-resources.js'
import { readMetadata } from './metadata.js'
import { object, optionalList, text, type JsonObject } from './read.js'
import type { ImportedDocument, SkippedRule } from './types.js'
import { failurePolicy, validationActions } from './validation-actions.js'

/** A ValidatingAdmissionPolicyBinding, read on its own so that its errors name its own document. */
export interface Binding {
  name: string
  policyName: string
  action: PolicyAction
  match?: Match
  /** Why the binding's matchResources cannot be expressed, if they cannot. */
  unsupported?: string
}

export function readBinding(doc: JsonObject): Binding {
  const metadata = readMetadata(doc)
  const spec = object(doc.spec, 'spec')
  const action = validationActions(spec.validationActions, 'spec.validationActions')
  if (action === undefined) throw new ImportError('spec.validationActions', 'is required')
  const binding: Binding = { name: metadata.name, policyName: text(spec.policyName, 'spec.policyName'), action }
  try {
    // A binding without resourceRules narrows nothing by kind (unlike a policy's matchConstraints).
    const match = translateMatchResources(spec.matchResources, 'spec.matchResources', { rulesRequired: false })
    if (match) binding.match = match
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error
    binding.unsupported = error.message
  }
  return binding
}

/**
 * Kubernetes ValidatingAdmissionPolicy -> a Ruleset with one rule named after it, plus one Policy
 * per binding (named after the binding). Without a binding the API server never enforces a VAP,
 * so none is made up: the ruleset alone is imported.
 */
export function importValidatingAdmissionPolicy(doc: JsonObject, bindings: readonly Binding[]): ImportedDocument {
  const metadata = readMetadata(doc)
  const name = metadata.name
  const spec = object(doc.spec, 'spec')
  const failure = failurePolicy(spec.failurePolicy, 'spec.failurePolicy') ?? 'Fail'
  const out: ImportedDocument = { sourceKind: 'ValidatingAdmissionPolicy', sourceName: name, rulesets: [], policies: [], skipped: [] }

  let rule: Rule
  try {
    rule = policyRule(spec, name, metadata.severity, metadata.description)
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error
    out.skipped.push({ policy: name, rule: name, reason: error.message })
    for (const binding of bindings) out.skipped.push(unboundSkip(binding, name))
    return out
  }
  const ruleset: Ruleset = { name, ...(metadata.description ? { description: metadata.description } : {}), rules: [rule] }
  out.rulesets.push(ruleset)
  for (const binding of bindings) {
    if (binding.unsupported !== undefined) {
      out.skipped.push({ policy: binding.name, rule: name, reason: binding.unsupported })
      continue
    }
    out.policies.push(bindingPolicy(binding, metadata.description, failure))
  }
  return out
}

/**
 * A binding whose policy is not in the same input: its Policy names the ruleset the policy becomes
 * when imported on its own. The failure policy belongs to the VAP, so it is left to the default.
 */
export function importUnjoinedBinding(binding: Binding): ImportedDocument {
  const out: ImportedDocument = {
    sourceKind: 'ValidatingAdmissionPolicyBinding',
    sourceName: binding.name,
    rulesets: [],
    policies: [],
    skipped: [],
  }
  if (binding.unsupported !== undefined) out.skipped.push({ policy: binding.name, rule: binding.policyName, reason: binding.unsupported })
  else out.policies.push(bindingPolicy(binding, undefined, undefined))
  return out
}

function policyRule(spec: JsonObject, name: string, severity: Rule['severity'], description: string | undefined): Rule {
  if (spec.paramKind !== undefined && spec.paramKind !== null) {
    throw new Unsupported('spec.paramKind is not supported (parameter resources come from a cluster)')
  }
  const validations = optionalList(spec.validations, 'spec.validations')
  if (!validations || validations.length === 0) {
    throw new Unsupported('the policy has no validations (auditAnnotations are not imported)')
  }
  const match: Match = { ...translateMatchResources(spec.matchConstraints, 'spec.matchConstraints', { rulesRequired: true }) }
  const conditions = celMatchConditions(spec.matchConditions, 'spec.matchConditions')
  if (conditions) match.conditions = conditions
  const variables = celVariables(spec.variables, 'spec.variables')
  const cel = celValidations(validations, 'spec.validations')
  return {
    name,
    ...(severity ? { severity } : {}),
    match,
    // The API server never extends a policy to pod templates.
    autogen: false,
    ...(variables ? { variables } : {}),
    validate: { cel },
    remediation: importedRemediation(undefined, cel, description),
  }
}

function bindingPolicy(binding: Binding, description: string | undefined, failure: Policy['failurePolicy']): Policy {
  return {
    name: binding.name,
    ...(description ? { description } : {}),
    rulesets: [binding.policyName],
    ...(binding.match ? { match: binding.match } : {}),
    action: binding.action,
    ...(failure ? { failurePolicy: failure } : {}),
  }
}

function unboundSkip(binding: Binding, policy: string): SkippedRule {
  return { policy: binding.name, rule: policy, reason: `binds ValidatingAdmissionPolicy "${policy}", which was not imported` }
}
