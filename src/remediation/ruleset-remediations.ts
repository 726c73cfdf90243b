import type { Ruleset, Severity } from '../engine/index.js'
import { messageOf, remediationOf } from './rule-remediation.js'

/** What to do about one rule, whatever the document. */
export interface RuleRemediationEntry {
  rule: string
  severity: Severity
  message?: string
  remediation: string
  /** True when the rule has no remediation of its own and this one was derived from its texts. */
  derived: boolean
  /** The catalog template the rule was made from, for rules compiled from an instruction. */
  template?: string
}

/** One entry per rule, in the ruleset's order. */
export function rulesetRemediations(ruleset: Ruleset): RuleRemediationEntry[] {
  return ruleset.rules.map((rule) => {
    const entry: RuleRemediationEntry = { rule: rule.name, severity: rule.severity ?? 'medium', ...remediationOf(rule) }
    const message = messageOf(rule)
    if (message !== undefined) entry.message = message
    if (rule.template) entry.template = rule.template.id
    return entry
  })
}
