import type { CompiledRuleset } from '../compile/compiled-ruleset.js'
import { shapeRulesetResult, type RulesetResult, type ShapeOptions } from '../results/evaluation-result.js'
import type { RuleResult } from '../results/rule-result.js'
import { evaluateRule, type JudgedElsewhere } from './evaluate-rule.js'
import type { PreparedInput } from './prepared-input.js'

export function judgeRuleset(ruleset: CompiledRuleset, input: PreparedInput, judgedElsewhere?: JudgedElsewhere): RuleResult[] {
  return ruleset.rules.map((rule) => evaluateRule(rule, input, judgedElsewhere))
}

export function evaluateRuleset(ruleset: CompiledRuleset, input: PreparedInput, options: ShapeOptions = {}): RulesetResult {
  return shapeRulesetResult(ruleset.name, judgeRuleset(ruleset, input), options)
}
