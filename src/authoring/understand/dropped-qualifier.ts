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

/** "no rule may grant get on secrets", "no container can mount the socket": the subject, then what it may not do. */
const NO_SUBJECT_MAY = /\b(?:no|none of the)\s+([A-Za-z][\w-]*)\s+(?:may|can|should|shall|is allowed to|are allowed to)\s+([^.;,]+)/i

/**
 * "no rule may grant get, list or watch on secrets" read as `rules` must not be set: the sentence
 * bans the subject only when it does what follows "may", and banning it outright would reject
 * every object that has one at all. Returns the words of what it may not do, or undefined.
 */
export function droppedDoing(text: string, requirement: Requirement): string | undefined {
  if (requirement.predicate.op !== 'unset' || requirement.conditions.length > 0) return undefined
  const match = NO_SUBJECT_MAY.exec(text)
  const noun = match?.[1]?.toLowerCase().replace(/s$/, '')
  if (!match?.[2] || !noun) return undefined
  const banned = requirement.values.some((ref) => ref.variants.some((variant) => {
    const leaf = variant.segments.filter((segment) => segment !== '[]').at(-1)?.toLowerCase().replace(/s$/, '')
    return leaf === noun
  }))
  return banned ? `${match[1] ?? ''} may ${match[2].trim()}` : undefined
}

/** "an integer minAvailable is not allowed": a kind of value, then the field ("an empty list" is one that holds nothing, read as such). */
const TYPED_SUBJECT = /\b(?:an?|any|no)\s+(integer|int|whole-number|string|numeric|number|percentage|boolean|negative|decimal|fractional)\s+[`"']?([A-Za-z_][\w.]*)/i

/**
 * "an integer minAvailable is not allowed at all" read as `minAvailable` must not be set: the ban
 * is of values of that type only (a percentage is fine), and banning the field outright rejects
 * them too. Returns the words that narrowed it, or undefined.
 */
export function droppedValueType(text: string, requirement: Requirement): string | undefined {
  if (requirement.predicate.op !== 'unset' || requirement.conditions.length > 0) return undefined
  const match = TYPED_SUBJECT.exec(text)
  const field = match?.[2]?.toLowerCase()
  if (!match || !field) return undefined
  const named = requirement.values.some((ref) => ref.variants.some((variant) => variant.segments.at(-1)?.toLowerCase() === field.split('.').at(-1)))
  return named ? `${match[1] ?? ''} ${match[2] ?? ''}` : undefined
}
