import type { CompiledRuleset } from '../compile/compiled-ruleset.js'
import { matchesLabelSelector } from '../match/label-selector.js'
import type { Policy } from '../model/policy.js'
import type { RuleResult } from '../results/rule-result.js'

export interface NamedWithLabels {
  name: string
  labels?: Record<string, string>
}

/** Rulesets named by the policy, in its order, then those its selector picks, by name; no duplicates. */
export function resolvePolicyRulesets<T extends NamedWithLabels>(policy: Policy, rulesets: readonly T[]): { found: T[]; missing: string[] } {
  const byName = new Map(rulesets.map((ruleset) => [ruleset.name, ruleset]))
  const found: T[] = []
  const missing: string[] = []
  const taken = new Set<string>()
  for (const name of policy.rulesets ?? []) {
    const ruleset = byName.get(name)
    if (!ruleset) missing.push(name)
    else if (!taken.has(name)) {
      found.push(ruleset)
      taken.add(name)
    }
  }
  if (policy.rulesetSelector) {
    const selector = policy.rulesetSelector
    const selected = rulesets
      .filter((ruleset) => !taken.has(ruleset.name) && matchesLabelSelector(ruleset.labels ?? {}, selector))
      .sort((a, b) => a.name.localeCompare(b.name))
    found.push(...selected)
  }
  return { found, missing }
}

/** A policy with its rulesets resolved and compiled once, to judge many inputs with. */
export interface PlannedPolicy {
  policy: Policy
  rulesets: CompiledRuleset[]
  /** Rulesets the policy names that do not exist: each judges as an error. */
  missing: string[]
}

/** Each policy with its rulesets in the policy's order (resolvePolicyRulesets), compiled. */
export function planPolicies<R extends NamedWithLabels>(policies: readonly Policy[], rulesets: readonly R[], compile: (ruleset: R) => CompiledRuleset): PlannedPolicy[] {
  return policies.map((policy) => {
    const { found, missing } = resolvePolicyRulesets(policy, rulesets)
    return { policy, rulesets: found.map(compile), missing }
  })
}

/** How a ruleset a policy names but the store lacks judges: an error of its own. */
export function missingRulesetResult(name: string): RuleResult {
  return { ruleset: name, rule: '', status: 'error', severity: 'high', message: `ruleset "${name}" does not exist` }
}

