import type { PreparedConditions } from '../conditions/index.js'
import type { KyvernoContextEntry } from '../jmespath/index.js'
import type { PatternValidation } from '../pattern/index.js'

/**
 * The Kyverno classic parts of a rule, checked once when the ruleset compiles (compile-classic.ts)
 * and judged by src/engine/classic. A rule has them when it reads JMESPath variables anywhere:
 * context entries, preconditions, deny, foreach, patterns or a message holding `{{ }}`.
 */
export interface CompiledClassic {
  /** The rule's context entries, declared in order; they load when first named. */
  context: readonly KyvernoContextEntry[]
  /** The rule's preconditions; undefined when it has none. */
  preconditions?: PreparedConditions
  /** Exactly one of these, or neither for a CEL rule with preconditions (the patterns are on the rule). */
  deny?: CompiledDeny
  foreach?: readonly CompiledForEach[]
  /** The rule's message holds `{{ }}` variables, substituted for each failure. */
  messageHasVariables: boolean
}

export interface CompiledDeny {
  conditions: PreparedConditions
}

/** One loop of a foreach, its body judged once per element. */
export interface CompiledForEach {
  list: string
  context: readonly KyvernoContextEntry[]
  preconditions?: PreparedConditions
  elementScope?: boolean
  patterns?: PatternValidation
  deny?: CompiledDeny
  foreach?: readonly CompiledForEach[]
}
