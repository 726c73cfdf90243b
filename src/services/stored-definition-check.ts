import { checkPolicySpec, checkRulesetSpec, compileStoredRuleset, RulesetCompileError, type DefinitionProblem } from '../engine/index.js'
import type { StoredPolicy } from '../store/policies-repository.js'
import type { StoredRuleset } from '../store/rulesets-repository.js'

/** What the store adds around a definition; the rest is the spec its author wrote. */
const STAMP_FIELDS = new Set(['name', 'version', 'source', 'createdAt', 'createdBy', 'updatedAt', 'updatedBy'])

function specOf(definition: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(definition).filter(([key, value]) => !STAMP_FIELDS.has(key) && value !== undefined))
}

/**
 * Definitions are checked when written, but the store can hold what a write check never saw: rows
 * written by an older release, by hand, or by a replica with another schema. Loading checks again,
 * so one malformed row is set aside instead of failing every evaluation that meets it.
 */
export function problemsOfStoredRuleset(ruleset: StoredRuleset, compile: (ruleset: StoredRuleset) => unknown = compileStoredRuleset): DefinitionProblem[] {
  const problems = checkRulesetSpec(specOf(ruleset), 'spec')
  if (problems.length > 0) return problems
  // One that no longer compiles (written before a check existed, or by another release) is set aside the same way.
  try {
    compile(ruleset)
    return []
  } catch (error) {
    if (!(error instanceof RulesetCompileError)) throw error
    return error.problems.map((problem) => ({ path: `spec.${problem.path}`, message: problem.message }))
  }
}

export function problemsOfStoredPolicy(policy: StoredPolicy): DefinitionProblem[] {
  return checkPolicySpec(specOf(policy), 'spec')
}
