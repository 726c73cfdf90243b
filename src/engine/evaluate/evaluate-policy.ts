import type { CompiledRuleset } from '../compile/compiled-ruleset.js'
import { DEFAULT_POD_CONTROLLERS } from '../autogen/pod-controllers.js'
import { namesPodKind } from '../match/kind-selector.js'
import { kindsNamedBy, matchesMatch } from '../match/matches-rule.js'
import type { Policy } from '../model/policy.js'
import { exceptionsApplyingTo, type Exemptions } from '../exceptions/exempting-exception.js'
import { exemptedResult } from '../exceptions/exempted-result.js'
import type { RuleResult } from '../results/rule-result.js'
import {
  shapePolicyResult,
  shapeRulesetResult,
  type PolicyEvaluation,
  type PolicyResult,
  type ShapeOptions,
} from '../results/evaluation-result.js'
import type { JudgedElsewhere } from './evaluate-rule.js'
import { judgeRuleset } from './evaluate-ruleset.js'
import type { PreparedInput } from './prepared-input.js'

export interface EvaluatePolicyOptions extends ShapeOptions {
  /** The PolicyExceptions to honour and the evaluation's instant; none when absent. */
  exemptions?: Exemptions
  /**
   * The rules of this policy the API server judges for this input (admission only: generated
   * ValidatingAdmissionPolicies in force): each is a skip naming the policy that judged it, not
   * judged again.
   */
  judgedElsewhere?: JudgedElsewhere
}

/**
 * Applies a policy's rulesets (already resolved and compiled, in the policy's order) to one input.
 * The policy's own match gates everything; its CEL conditions are not part of a policy match.
 * A rule result an exception covers becomes a `skip` naming it, so it never counts against the
 * decision: every path that judges (REST, admission) goes through here and honours them alike.
 * A policy switched off (`enabled: false`) judges nothing; a rule switched off is a skip saying so
 * (evaluateRule), which exceptions leave as it is.
 */
export function evaluatePolicy(
  policy: Policy,
  rulesets: readonly CompiledRuleset[],
  input: PreparedInput,
  options: EvaluatePolicyOptions = {},
): PolicyEvaluation {
  const action = policy.action ?? 'Audit'
  const ignoreErrors = policy.failurePolicy === 'Ignore'
  if (policy.enabled === false) {
    // Switched off: it judges nothing, and its output says so (admission and scans treat it as not matching).
    const output: PolicyResult = { ...shapePolicyResult(policy.name, [], ignoreErrors, options), disabled: true, disabledReason: policy.disabledReason ?? 'switched off' }
    return { output, action, applied: false, rulesets: [] }
  }
  if (!policyMatches(policy, input)) {
    return { output: shapePolicyResult(policy.name, [], ignoreErrors, options), action, applied: false, rulesets: [] }
  }
  const exempt = exemptionOf(policy.name, input, options.exemptions)
  const perRuleset = rulesets.map((ruleset) => ({ name: ruleset.name, outcomes: exempt(ruleset, judgeRuleset(ruleset, input, options.judgedElsewhere)) }))
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

type ExemptResults = (ruleset: CompiledRuleset, outcomes: RuleResult[]) => RuleResult[]

const NOTHING_EXEMPT: ExemptResults = (_ruleset, outcomes) => outcomes

/**
 * Replaces each rule result an exception covers (exemptedResult), in two steps: the exceptions
 * applying to the input once, then per rule. Only rules that applied (passed, failed or erred)
 * are asked about: a rule that did not match has nothing to let through.
 */
function exemptionOf(policy: string, input: PreparedInput, exemptions: Exemptions | undefined): ExemptResults {
  if (!exemptions || exemptions.exceptions.length === 0) return NOTHING_EXEMPT
  const applying = exceptionsApplyingTo(exemptions, policy, input)
  if (applying.length === 0) return NOTHING_EXEMPT
  return (ruleset, outcomes) =>
    outcomes.map((outcome, index) => {
      const rule = ruleset.rules[index]
      return (rule && exemptedResult(outcome, rule, applying, input)) ?? outcome
    })
}
