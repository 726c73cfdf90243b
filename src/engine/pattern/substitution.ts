/**
 * `{{ }}` variables and `$(...)` references in patterns. Kyverno substitutes a rule's whole
 * pattern before matching it (pkg/engine/variables SubstituteAll): references to other fields of
 * the resource first, then variables, whose values come from the request (JMESPath over
 * `request.object`, context entries, ...). So a pattern holding either is substituted for each
 * evaluation by a hook the JMESPath engine provides, and compiled then. Without a hook such a
 * pattern is refused when its ruleset compiles, never matched with the braces as text.
 */

/**
 * Substitutes one pattern as written (the whole of `validate.pattern`, or one `anyPattern`
 * alternative, `index` telling which) and returns the pattern to match; throws when a variable
 * cannot be resolved, which makes the rule's result an error, as in Kyverno.
 */
export type PatternSubstitute = (pattern: unknown, at: { kind: 'pattern' | 'anyPattern'; index: number }) => unknown

export function holdsVariables(text: string): boolean {
  return text.includes('{{')
}

// Kyverno's reference forms: `$(./../x)` at the start or after any character but `\`, and the escaped `\$(x)`.
const REFERENCE = /^\$\(.[^ ]*\)|[^\\]\$\(.[^ ]*\)|\\\$\(.[^ )]*\)/

/** `$(...)` names another field of the resource (or is escaped): only a substitution can read it. */
export function holdsReferences(text: string): boolean {
  return REFERENCE.test(text)
}
