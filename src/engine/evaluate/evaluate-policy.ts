import type { CompiledRuleset } from '../compile/compiled-ruleset.js'
import { DEFAULT_POD_CONTROLLERS } from '../autogen/pod-controllers.js'
import { namesPodKind } from '../match/kind-selector.js'
import { kindsNamedBy, matchesMatch } from '../match/matches-rule.js'
import type { Policy } from '../model/policy.js'
import {
  shapePolicyResult,
  shapeRulesetResult,
  type PolicyEvaluation,
  type ShapeOptions,
} from '../results/evaluation-result.js'
import { judgeRuleset } from './evaluate-ruleset.js'
import type { PreparedInput } from './prepared-input.js'

/**
 * Applies a policy's rulesets (already resolved and compiled, in the policy's order) to one input.
 * The policy's own match gates everything; its CEL conditions are not part of a policy match.
 */
export function evaluatePolicy(
  policy: Policy,
  rulesets: readonly CompiledRuleset[],
  input: PreparedInput,
  options: ShapeOptions = {},
): PolicyEvaluation {
  const action = policy.action ?? 'Audit'
  const ignoreErrors = policy.failurePolicy === 'Ignore'
  if (!policyMatches(policy, input)) {
    return { output: shapePolicyResult(policy.name, [], ignoreErrors, options), action, applied: false, rulesets: [] }
  }
  const perRuleset = rulesets.map((ruleset) => ({ name: ruleset.name, outcomes: judgeRuleset(ruleset, input) }))
  const all = perRuleset.flatMap((entry) => entry.outcomes)
  return {
    output: shapePolicyResult(policy.name, all, ignoreErrors, options),
    action,
    applied: true,
    rulesets: perRuleset.map((entry) => shapeRulesetResult(entry.name, entry.outcomes, options)),
  }
}

const POD_CONTROLLERS: ReadonlySet<string> = new Set(DEFAULT_POD_CONTROLLERS)
const NO_CONTROLLERS: ReadonlySet<string> = new Set()

/** A policy that selects Pods also selects the controllers that make them, as its rules do. */
function policyMatches(policy: Policy, input: PreparedInput): boolean {
  const kinds = kindsNamedBy(policy.match)
  const controllers = kinds && namesPodKind(kinds) ? POD_CONTROLLERS : NO_CONTROLLERS
  return input.subjectMatching((target) => matchesMatch(policy.match, target), controllers) !== undefined
}
