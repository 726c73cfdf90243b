import type { Match } from '../engine/model/match.js'
import type { Policy } from '../engine/model/policy.js'
import type { Autogen, Rule } from '../engine/model/rule.js'
import type { Ruleset } from '../engine/model/ruleset.js'
import { celMatchConditions, celValidations, celVariables } from './cel.js'
import { ImportError, Unsupported } from './import-error.js'
import { importedRemediation } from './imported-remediation.js'
import { restrictToNamespace } from './kyverno-match.js'
import { translateMatchResources } from './match-resources.js'
import { readMetadata } from './metadata.js'
import { isObject, object, optionalBoolean, optionalList, optionalObject, optionalText, type JsonObject } from './read.js'
import type { ImportedDocument } from './types.js'
import { failurePolicy, validationActions } from './validation-actions.js'

/**
 * Kyverno ValidatingPolicy (policies.kyverno.io v1alpha1, v1beta1, v1) and its namespaced twin ->
 * one Ruleset with ONE rule, both named after the policy (Kyverno reports results per policy,
 * not per validation), and one Policy of the same name.
 */
export function importKyvernoValidatingPolicy(doc: JsonObject): ImportedDocument {
  const kind = String(doc.kind)
  const metadata = readMetadata(doc)
  const namespace = kind === 'NamespacedValidatingPolicy' ? (metadata.namespace ?? 'default') : undefined
  const sourceName = namespace === undefined ? metadata.name : `${namespace}/${metadata.name}`
  const spec = object(doc.spec, 'spec')
  const evaluation = optionalObject(spec.evaluation, 'spec.evaluation')
  const mode = optionalText(evaluation?.mode, 'spec.evaluation.mode') ?? 'Kubernetes'
  if (mode !== 'Kubernetes' && mode !== 'JSON') throw new ImportError('spec.evaluation.mode', `must be Kubernetes or JSON, not "${mode}"`)
  const admission = optionalBoolean(optionalObject(evaluation?.admission, 'spec.evaluation.admission')?.enabled, 'spec.evaluation.admission.enabled')
  // Kyverno's own default when validationActions is left out.
  const action = validationActions(spec.validationActions, 'spec.validationActions') ?? 'Deny'
  const failure = failurePolicy(spec.failurePolicy, 'spec.failurePolicy') ?? 'Fail'
  const out: ImportedDocument = { sourceKind: kind, sourceName, rulesets: [], policies: [], skipped: [] }

  let rule: Rule
  try {
    // A JSON-mode policy judges arbitrary payloads: there are no resources to constrain, only matchConditions.
    const match: Match =
      mode === 'JSON' ? {} : { ...translateMatchResources(spec.matchConstraints, 'spec.matchConstraints', { rulesRequired: true }) }
    if (namespace !== undefined) restrictToNamespace(match, namespace)
    const conditions = celMatchConditions(spec.matchConditions, 'spec.matchConditions')
    if (conditions) match.conditions = conditions
    const variables = celVariables(spec.variables, 'spec.variables')
    const validations = celValidations(spec.validations, 'spec.validations')
    rule = {
      name: metadata.name,
      ...(metadata.severity ? { severity: metadata.severity } : {}),
      ...(Object.keys(match).length > 0 ? { match } : {}),
      autogen: mode === 'JSON' ? false : validatingPolicyAutogen(spec),
      ...(variables ? { variables } : {}),
      validate: { cel: validations },
      remediation: importedRemediation(undefined, validations, metadata.description),
    }
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error
    out.skipped.push({ policy: sourceName, rule: metadata.name, reason: error.message })
    return out
  }

  const ruleset: Ruleset = { name: metadata.name, ...(metadata.description ? { description: metadata.description } : {}), rules: [rule] }
  const policy: Policy = {
    name: metadata.name,
    ...(metadata.description ? { description: metadata.description } : {}),
    rulesets: [metadata.name],
    action,
    failurePolicy: failure,
    ...(admission === false ? { admission: false } : {}),
  }
  out.rulesets.push(ruleset)
  out.policies.push(policy)
  return out
}

/**
 * Kyverno's pod-controller config names, lowercase plurals; ReplicationController has none, so
 * unlike a ClusterPolicy a ValidatingPolicy never reaches ReplicationControllers.
 */
const CONTROLLERS: Readonly<Record<string, string>> = {
  daemonsets: 'DaemonSet',
  deployments: 'Deployment',
  replicasets: 'ReplicaSet',
  statefulsets: 'StatefulSet',
  jobs: 'Job',
  cronjobs: 'CronJob',
}

/**
 * Ported from Kyverno (pkg/cel/autogen CanAutoGen, at the version the conformance corpus was
 * tested with): only a policy matching exactly core/v1 `pods`, with no resource names, no
 * exclusions and no object or namespace selector, is extended to pod controllers.
 * spec.autogen.podControllers.controllers narrows the set; Kyverno ignores names it does not know.
 */
function validatingPolicyAutogen(spec: JsonObject): Autogen {
  const constraints = isObject(spec.matchConstraints) ? spec.matchConstraints : undefined
  if (!constraints) return false
  if (selects(constraints.objectSelector) || selects(constraints.namespaceSelector)) return false
  if (Array.isArray(constraints.excludeResourceRules) && constraints.excludeResourceRules.length > 0) return false
  const rules = Array.isArray(constraints.resourceRules) ? constraints.resourceRules : []
  const [only] = rules
  if (rules.length !== 1 || !isObject(only)) return false
  if (Array.isArray(only.resourceNames) && only.resourceNames.length > 0) return false
  if (!isExactly(only.apiGroups, '') || !isExactly(only.apiVersions, 'v1') || !isExactly(only.resources, 'pods')) return false

  const podControllers = isObject(spec.autogen) && isObject(spec.autogen.podControllers) ? spec.autogen.podControllers : undefined
  const listed = optionalList(podControllers?.controllers, 'spec.autogen.podControllers.controllers')
  const names = listed ? listed.filter((c): c is string => typeof c === 'string') : Object.keys(CONTROLLERS)
  const controllers = [...new Set(names.flatMap((name) => (CONTROLLERS[name] ? [CONTROLLERS[name]] : [])))]
  return controllers.length === 0 ? false : { controllers }
}

function selects(selector: unknown): boolean {
  if (!isObject(selector)) return false
  const labels = selector.matchLabels
  const expressions = selector.matchExpressions
  return (isObject(labels) && Object.keys(labels).length > 0) || (Array.isArray(expressions) && expressions.length > 0)
}

function isExactly(value: unknown, only: string): boolean {
  return Array.isArray(value) && value.length === 1 && value[0] === only
}
