import type { CelProgram } from '../cel/index.js'
import type { TargetPredicate } from '../match/matches-filter.js'
import type { Match } from '../model/match.js'
import type { Rule, Severity } from '../model/rule.js'
import type { PatternValidation } from '../pattern/index.js'
import type { ClassicAutogen } from './classic-autogen.js'
import type { CompiledClassic } from './compiled-classic.js'

export interface CompiledValidation {
  program: CelProgram
  message?: string
  messageProgram?: CelProgram
}

export interface CompiledNamedProgram {
  name: string
  program: CelProgram
  /**
   * Set for variables that read no other variable: their value depends on the input alone, so
   * every rule judging the same input may share it (rulesets merged from many policies repeat
   * the same `allContainers`).
   */
  shareKey?: string
}

/** A rule with every expression parsed and checked; evaluating it does no parsing. */
export interface CompiledRule {
  ruleset: string
  name: string
  severity: Severity
  message?: string
  remediation?: string
  match?: Match
  /** The structural part of `match`, compiled. */
  matches: TargetPredicate
  /** Controllers whose pod template this rule also checks; empty when autogen is off. */
  autogenControllers: ReadonlySet<string>
  conditions: CompiledNamedProgram[]
  variables: CompiledNamedProgram[]
  /** Position of each variable by name, for lazy lookup. */
  variableIndex: ReadonlyMap<string, number>
  validations: CompiledValidation[]
  /** Set for `validate.pattern` / `validate.anyPattern` rules, whose `validations` are then empty. */
  patterns?: PatternValidation
  /** Set when the rule reads JMESPath variables (context, preconditions, deny, foreach, or `{{ }}` in its patterns or message). */
  classic?: CompiledClassic
  /** The classic parts as Kyverno rewrites them for judging a controller's pod template (autogen). */
  classicAutogen?: ClassicAutogen
  /** Set for a `validate.podSecurity` rule: the rule as written and where, to compile it again with an exception's excludes. */
  podSecurity?: { rule: Rule; path: string }
  /** Set when the rule is switched off (`enabled: false`): why. It is compiled all the same, to be switched back on. */
  disabledReason?: string
}

export interface CompiledRuleset {
  name: string
  version: number
  rules: CompiledRule[]
}
