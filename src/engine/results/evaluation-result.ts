import type { PolicyAction } from '../model/policy.js'
import { isReported, isViolation, type RuleResult } from './rule-result.js'

/** The `output` of a ruleset audit and the body of a ruleset evaluation. */
export interface RulesetResult {
  ruleset: string
  passed: boolean
  results: RuleResult[]
}

/** The `output` of a policy audit and the body of a policy evaluation. */
export interface PolicyResult {
  policy: string
  passed: boolean
  results: RuleResult[]
  /** Set when the policy is switched off (`enabled: false`): it judged nothing, with its `disabledReason`. */
  disabled?: true
  disabledReason?: string
}

/** Policy evaluation with what admission and audits need besides the public output. */
export interface PolicyEvaluation {
  output: PolicyResult
  action: PolicyAction
  /** False when the policy's own match did not select the input, or it is switched off: nothing was judged. */
  applied: boolean
  rulesets: RulesetResult[]
}

export interface ShapeOptions {
  /** Also list passed and skipped rules (rules an exception let through are always listed). */
  verbose?: boolean
}

export function shapeRulesetResult(ruleset: string, outcomes: RuleResult[], options: ShapeOptions): RulesetResult {
  return { ruleset, passed: !outcomes.some(isViolation), results: visible(outcomes, options) }
}

/** `Ignore` keeps errors visible but lets them through; `Fail` counts them as violations. */
export function shapePolicyResult(policy: string, outcomes: RuleResult[], ignoreErrors: boolean, options: ShapeOptions): PolicyResult {
  const passed = !outcomes.some((r) => r.status === 'fail' || (r.status === 'error' && !ignoreErrors))
  return { policy, passed, results: visible(outcomes, options) }
}

function visible(outcomes: RuleResult[], options: ShapeOptions): RuleResult[] {
  return options.verbose ? outcomes : outcomes.filter(isReported)
}
