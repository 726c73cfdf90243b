import type { CompiledRule } from '../compile/compiled-ruleset.js'
import type { PreparedInput } from '../evaluate/prepared-input.js'
import type { RuleResult } from '../results/rule-result.js'
import type { CompiledException } from './compile-exception.js'
import { firstNamingRule } from './exempting-exception.js'
import { podSecurityExemption } from './pod-security-exemption.js'

/**
 * What the exceptions applying to an input (in name order) make of one result of `rule`, or
 * undefined when they leave it as it is. The first naming the rule without `podSecurity` lets the
 * whole rule through: a skip naming it. Otherwise those with `podSecurity` naming it judge a failed
 * podSecurity rule again with their controls excluded (podSecurityExemption), as Kyverno asks them.
 * A skip (the rule did not apply, or is switched off) has nothing to let through.
 */
export function exemptedResult(outcome: RuleResult, rule: CompiledRule, applying: readonly CompiledException[], input: PreparedInput): RuleResult | undefined {
  if (outcome.status === 'skip' || applying.length === 0) return undefined
  const naming = applying.filter((exception) => firstNamingRule([exception], outcome.ruleset, outcome.rule, outcome.autogen) !== undefined)
  const wholeRule = naming.find((exception) => exception.podSecurity === undefined)
  if (wholeRule) return exempted(outcome, wholeRule)
  return podSecurityExemption(outcome, rule, naming, input)
}

function exempted(outcome: RuleResult, exception: CompiledException): RuleResult {
  const result: RuleResult = {
    ruleset: outcome.ruleset,
    rule: outcome.rule,
    status: 'skip',
    severity: outcome.severity,
    message: `exempted by exception "${exception.name}"`,
    exception: exception.name,
  }
  if (outcome.autogen !== undefined) result.autogen = outcome.autogen
  return result
}
