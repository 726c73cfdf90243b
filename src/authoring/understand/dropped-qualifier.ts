import type { Requirement } from './requirement.js'

/** "disallow sysctl settings with + or = in their value": what is forbidden, then what narrows it. */
const FORBIDS_QUALIFIED = /\b(?:disallow|forbid|prohibit|block|deny|reject|prevent|ban|no)\b[^.;:]*?\b(with|containing|that|which|whose|having|where)\b\s+([^.;]+)/i

/**
 * A requirement that forbids a field outright, read from a sentence that forbids it only when
 * something holds ("sysctl settings with + or = in their value", "volumes that point at /proc"):
 * the narrowing was not read, and the rule would reject every object that sets the field at all.
 * Returns the words that narrowed it, or undefined.
 */
export function droppedQualifier(text: string, requirement: Requirement): string | undefined {
  if (requirement.predicate.op !== 'unset' || requirement.conditions.length > 0 || requirement.exemptions.length > 0) return undefined
  const match = FORBIDS_QUALIFIED.exec(text)
  if (!match?.[1] || !match[2]) return undefined
  return `${match[1]} ${match[2].trim()}`
}
