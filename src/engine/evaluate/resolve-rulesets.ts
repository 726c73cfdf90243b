import { matchesLabelSelector } from '../match/label-selector.js'
import type { Policy } from '../model/policy.js'

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
