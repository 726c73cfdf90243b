import type { PathSegment } from '../autogen/pod-template-path.js'

/**
 * `{{ }}` variables in patterns. Their values come from the request (JMESPath over
 * `request.object`, context entries, ...), so a pattern holding them is substituted for each
 * evaluation by a hook that the JMESPath engine provides, and compiled then. Without a hook a
 * pattern holding them is refused when its ruleset compiles, never matched with the braces as text.
 */

/**
 * Replaces the variables of one string of a pattern: a value (which may become any JSON value,
 * as `{{ request.object.spec.replicas }}` becomes a number) or a key (which must stay a string).
 * `path` is where the string sits in the pattern as written, anchors included (`{{@}}` needs it).
 */
export type PatternSubstitute = (text: string, at: { path: readonly PathSegment[]; key: boolean }) => unknown

export function holdsVariables(text: string): boolean {
  return text.includes('{{')
}

// Kyverno's reference forms: `$(./../x)` at the start or after any character but `\`, and the escaped `\$(x)`.
const REFERENCE = /^\$\(.[^ ]*\)|[^\\]\$\(.[^ ]*\)|\\\$\(.[^ )]*\)/

/** Kyverno resolves `$(...)` references to other fields of the resource; Verdict does not. */
export function holdsReferences(text: string): boolean {
  return REFERENCE.test(text)
}

/** The pattern with every string holding `{{` passed through `substitute`; other parts are shared, not copied. */
export function substitutePattern(raw: unknown, substitute: PatternSubstitute, path: PathSegment[] = []): unknown {
  if (typeof raw === 'string') return holdsVariables(raw) ? substitute(raw, { path, key: false }) : raw
  if (Array.isArray(raw)) return raw.map((item, index) => substitutePattern(item, substitute, [...path, index]))
  if (typeof raw !== 'object' || raw === null) return raw
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(raw)) {
    let name = key
    if (holdsVariables(key)) {
      const replaced = substitute(key, { path: [...path, key], key: true })
      if (typeof replaced !== 'string') throw new Error(`the variables of the pattern key "${key}" gave ${JSON.stringify(replaced)}, not a string`)
      name = replaced
    }
    Object.defineProperty(out, name, { value: substitutePattern(value, substitute, [...path, key]), enumerable: true, writable: true, configurable: true })
  }
  return out
}
