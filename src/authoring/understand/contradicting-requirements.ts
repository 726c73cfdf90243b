import type { Predicate, Requirement, Scalar } from './requirement.js'

/**
 * Two requirements on one field of the same objects, neither under a condition, that no present
 * value can satisfy together ("`hostPID` must not be true" and "`hostPID` must be true", "type
 * must not be LoadBalancer" and "type must be LoadBalancer"): one of the sentences was read the
 * wrong way round or lost what narrowed it, and the ruleset would reject every object that sets
 * the field. Returns the earlier requirement the later one contradicts, or undefined.
 */
export function contradicted(later: Requirement, earlier: readonly Requirement[]): Requirement | undefined {
  if (later.conditions.length > 0) return undefined
  return earlier.find((other) => other !== later && other.conditions.length === 0 && sameField(other, later) && sameKinds(other, later) && exclusive(other.predicate, later.predicate))
}

function fieldOf(requirement: Requirement): string | undefined {
  if (requirement.values.length !== 1) return undefined
  const ref = requirement.values[0]
  return ref ? `${ref.scope}:${ref.variants[0]?.segments.join('.') ?? ''}` : undefined
}

function sameField(a: Requirement, b: Requirement): boolean {
  const field = fieldOf(a)
  return field !== undefined && field === fieldOf(b)
}

function sameKinds(a: Requirement, b: Requirement): boolean {
  return a.subject.platform === b.subject.platform && a.subject.kinds.join() === b.subject.kinds.join()
}

/** The values a predicate lets through when the field is present, when it names them all; undefined for any other predicate. */
function allowed(predicate: Predicate): Scalar[] | undefined {
  if (predicate.op === 'equals') return [predicate.value]
  if (predicate.op === 'oneOf') return predicate.values
  return undefined
}

function exclusive(a: Predicate, b: Predicate): boolean {
  if ((a.op === 'set' && b.op === 'unset') || (a.op === 'unset' && b.op === 'set')) return true
  const [left, right] = [allowed(a), allowed(b)]
  if (left && right) return !left.some((value) => right.some((other) => String(other) === String(value)))
  const denied = (predicate: Predicate): Scalar[] | undefined => (predicate.op === 'noneOf' ? predicate.values : undefined)
  const deniedLeft = denied(a)
  const deniedRight = denied(b)
  if (left && deniedRight) return left.every((value) => deniedRight.some((other) => String(other) === String(value)))
  if (right && deniedLeft) return right.every((value) => deniedLeft.some((other) => String(other) === String(value)))
  if ((left && b.op === 'unset') || (right && a.op === 'unset')) return true
  return false
}
