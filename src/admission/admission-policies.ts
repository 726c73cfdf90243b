import { judgesAtAdmission, planPolicies, type CompiledRuleset, type PlannedPolicy, type Policy } from '../engine/index.js'
import type { DefinitionCatalog } from '../services/definition-catalog.js'
import type { StoredRuleset } from '../store/rulesets-repository.js'

/** A policy the webhook applies, with its rulesets resolved and compiled. */
export type AdmissionPolicy = PlannedPolicy

/** The policies with `admission` not false and not switched off, by name, each with its rulesets in the policy's order. */
export function planAdmissionPolicies(
  policies: readonly Policy[],
  rulesets: readonly StoredRuleset[],
  compile: (ruleset: StoredRuleset) => CompiledRuleset,
): AdmissionPolicy[] {
  return planPolicies(
    policies.filter(judgesAtAdmission),
    rulesets,
    compile,
  )
}

/**
 * The admission policies of a catalog, planned once per change instead of once per request:
 * resolving selectors over every ruleset on each AdmissionReview would cost more than judging
 * a typical Pod. Any change to a ruleset or policy, local or from another replica, replans.
 */
export class AdmissionPolicies {
  readonly #catalog: DefinitionCatalog
  readonly #unsubscribe: () => void
  #plan: AdmissionPolicy[] | undefined

  constructor(catalog: DefinitionCatalog) {
    this.#catalog = catalog
    this.#unsubscribe = catalog.onChange(() => {
      this.#plan = undefined
    })
  }

  current(): readonly AdmissionPolicy[] {
    this.#plan ??= planAdmissionPolicies(this.#catalog.policies(), this.#catalog.rulesets(), (ruleset) => this.#catalog.compiled(ruleset))
    return this.#plan
  }

  close(): void {
    this.#unsubscribe()
  }
}
