import { judgesAtAdmission, resolvePolicyRulesets, type Exemptions, type JudgedElsewhere, type Policy, type Ruleset } from '../engine/index.js'
import {
  exceptionReachesPolicy,
  generateValidatingAdmissionPolicies,
  keptInClusterRefusals,
  sameBindingSpec,
  sameVapSpec,
  type GeneratedForm,
  type MatchResources,
  type ValidatingAdmissionPolicy,
  type ValidatingAdmissionPolicyBinding,
} from '../export/vap/index.js'
import type { DefinitionCatalog } from '../services/definition-catalog.js'
import type { AdmissionRequest } from './admission-review.js'
import type { GeneratedVapView } from './generated-vap-view.js'
import type { NamespaceSource } from './namespace-source.js'
import { matchResourcesSelect } from './vap-request-match.js'

/** What a policy with generateValidatingAdmissionPolicy would be generated as, from this replica's catalog. */
interface PolicyPlan {
  rulesets: Ruleset[]
  /** By ruleKey(ruleset, rule, form). */
  pairs: Map<string, { name: string; policy: ValidatingAdmissionPolicy['spec']; binding: ValidatingAdmissionPolicyBinding['spec'] }>
}

/** A generated pair in force: the API server judges its rule's requests by it. */
interface PairInForce {
  name: string
  constraints: MatchResources
  /** The binding's as it is in the cluster: its selectors narrow what the webhook is sent (src/k8s/desired-vaps.ts). */
  bindingResources: MatchResources | undefined
}

/**
 * Which rules the webhook leaves to the API server for a request: a rule of a policy with
 * `generateValidatingAdmissionPolicy: true` whose generated ValidatingAdmissionPolicy and binding
 * are in force, and would be sent this request. In force, as every replica's watch shows it
 * (GeneratedVapView, never one replica's memory of what it wrote): the policy as the generator
 * makes it from this replica's catalog, type-checked by the API server in that generation, its
 * binding with the generated name, actions and resource rules (its selectors are asked about the
 * request itself). A policy with an Audit action, or that a PolicyException in force reaches,
 * leaves nothing to the API server, whatever is in the cluster. Worked out once per catalog or
 * cluster change; per request only the match is asked.
 */
export class VapDelegation {
  readonly #catalog: DefinitionCatalog
  readonly #view: GeneratedVapView
  readonly #namespaces: NamespaceSource
  readonly #unsubscribe: (() => void)[]
  #plans: Map<string, PolicyPlan> | undefined
  #inForce: Map<string, Map<string, PairInForce>> | undefined

  constructor(catalog: DefinitionCatalog, view: GeneratedVapView, namespaces: NamespaceSource) {
    this.#catalog = catalog
    this.#view = view
    this.#namespaces = namespaces
    this.#unsubscribe = [
      catalog.onChange(() => {
        this.#plans = undefined
        this.#inForce = undefined
      }),
      view.onChange(() => {
        this.#inForce = undefined
      }),
    ]
  }

  /** For one request: per policy, the rules the API server judges (JudgedElsewhere), or undefined when it judges none. */
  forRequest(request: AdmissionRequest, exemptions: Exemptions | undefined): (policy: Policy) => JudgedElsewhere | undefined {
    const inForce = this.#pairsInForce()
    if (inForce.size === 0 || !request.resource) return () => undefined
    return (policy) => {
      const pairs = inForce.get(policy.name)
      if (!pairs || pairs.size === 0) return undefined
      if (exemptions && this.#exceptionReaches(policy, exemptions)) return undefined
      return (ruleset, rule, autogen) => {
        const pair = pairs.get(ruleKey(ruleset, rule, formOf(autogen)))
        if (!pair) return undefined
        const sent = matchResourcesSelect(pair.constraints, request, this.#namespaces, true) && matchResourcesSelect(pair.bindingResources, request, this.#namespaces, false)
        return sent ? pair.name : undefined
      }
    }
  }

  close(): void {
    for (const unsubscribe of this.#unsubscribe) unsubscribe()
  }

  /** The API server knows nothing of Verdict's exceptions: one in force that reaches the policy keeps every rule of it here. */
  #exceptionReaches(policy: Policy, exemptions: Exemptions): boolean {
    const nowMs = exemptions.now.getTime()
    const rulesets = this.#plansByPolicy().get(policy.name)?.rulesets ?? []
    return exemptions.exceptions.some((exception) => (exception.expiresAtMs === undefined || nowMs < exception.expiresAtMs) && exceptionReachesPolicy(exception, policy.name, rulesets))
  }

  #plansByPolicy(): Map<string, PolicyPlan> {
    if (this.#plans) return this.#plans
    const plans = new Map<string, PolicyPlan>()
    const rulesets = this.#catalog.rulesets()
    for (const policy of this.#catalog.policies()) {
      if (policy.generateValidatingAdmissionPolicy !== true || !judgesAtAdmission(policy) || keptInClusterRefusals(policy).length > 0) continue
      const generated = generateValidatingAdmissionPolicies(policy, rulesets)
      if (!generated.ok) continue
      const pairs: PolicyPlan['pairs'] = new Map()
      for (const pair of generated.policies) {
        pairs.set(ruleKey(pair.source.ruleset, pair.source.rule, pair.source.form), { name: pair.policy.metadata.name, policy: pair.policy.spec, binding: pair.binding.spec })
      }
      plans.set(policy.name, { rulesets: resolvePolicyRulesets(policy, rulesets).found, pairs })
    }
    this.#plans = plans
    return plans
  }

  #pairsInForce(): Map<string, Map<string, PairInForce>> {
    if (this.#inForce) return this.#inForce
    const inForce = new Map<string, Map<string, PairInForce>>()
    for (const [policy, plan] of this.#plansByPolicy()) {
      const pairs = new Map<string, PairInForce>()
      for (const [key, expected] of plan.pairs) {
        const vap = this.#view.policy(expected.name)
        const binding = this.#view.binding(expected.name)
        if (!vap || !binding || vap.generatedFrom !== policy || binding.generatedFrom !== policy || !vap.typeChecked) continue
        if (!sameVapSpec(vap.spec, expected.policy) || !sameBindingSpec(withoutSelectors(binding.spec), withoutSelectors(expected.binding))) continue
        pairs.set(key, { name: expected.name, constraints: expected.policy.matchConstraints, bindingResources: (binding.spec as { matchResources?: MatchResources } | undefined)?.matchResources })
      }
      if (pairs.size > 0) inForce.set(policy, pairs)
    }
    this.#inForce = inForce
    return inForce
  }
}

function ruleKey(ruleset: string, rule: string, form: GeneratedForm): string {
  return `${ruleset}\u0000${rule}\u0000${form}`
}

/** The generated form that judges a rule matched in this form: the object, or a controller's or a CronJob's pod template. */
function formOf(autogen: string | undefined): GeneratedForm {
  if (autogen === undefined) return 'object'
  return autogen === 'CronJob' ? 'cronjobs' : 'controllers'
}

/** A binding's spec without its selectors, which the controller narrows to the webhook's scope and the request is asked about. */
function withoutSelectors<T>(spec: T): T {
  if (typeof spec !== 'object' || spec === null) return spec
  const { matchResources, ...rest } = spec as { matchResources?: MatchResources }
  if (!matchResources) return rest as T
  const { namespaceSelector: _namespaces, objectSelector: _objects, ...resources } = matchResources
  return { ...rest, matchResources: resources } as T
}
