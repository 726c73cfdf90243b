import { resolvePolicyRulesets, type Policy } from '../engine/index.js'

export interface NamedRuleset {
  name: string
  labels?: Record<string, string>
}

/**
 * The policies that apply each ruleset, by name or through their rulesetSelector, resolved the
 * way evaluation resolves them (so a selector that matches a ruleset counts as a use of it).
 * Every ruleset has an entry; an empty list means no policy applies it.
 */
export function policiesByRuleset(policies: readonly Policy[], rulesets: readonly NamedRuleset[]): Map<string, string[]> {
  const users = new Map<string, string[]>(rulesets.map((ruleset) => [ruleset.name, []]))
  for (const policy of policies) {
    for (const ruleset of resolvePolicyRulesets(policy, rulesets).found) users.get(ruleset.name)?.push(policy.name)
  }
  return users
}
