/**
 * "a workload can opt out by putting the annotation X: "true" on its pods", "teams may add a
 * `debug` label": a clause that says what may be done. Read as a requirement (the annotation must
 * be "true"), it demands the permitted thing of everyone. A clause that forbids ("no pod may",
 * "may not", "can't") or limits ("may only", "can be 50 at most": any "can be") is not one of these.
 */
const MAY = /\b(?:can|may|is allowed to|are allowed to|is free to|are free to)\s+(?!not\b|only\b|never\b|no\b|be\b)(\w+(?:\s+(?:out|in|up|off|away))?)/i
const NEGATED_BEFORE = /\b(?:no|nobody|nothing|none|never|not|neither|nor|only)\b|n't\b/i
const ASKS = /\b(?:must|mustn'?t|has to|have to|needs? to|needs|shall|should|required|requires?)\b/i

/** The permitting words of a clause read as a requirement, or undefined. */
export function permissionReadAsRequirement(clause: string): string | undefined {
  const match = MAY.exec(clause)
  if (!match || ASKS.test(clause) || NEGATED_BEFORE.test(clause.slice(0, match.index))) return undefined
  return match[0]
}
