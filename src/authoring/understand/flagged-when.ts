import { statedAsRequirement } from './stated-requirement.js'

/**
 * "This policy audits Services of type ExternalName if the externalName field refers to
 * localhost", "flags Ingresses when the host is `*`": the subject fails where the condition holds,
 * so what is required is the condition's negation, for that subject: "For Services of type
 * ExternalName, the externalName field must not refer to localhost". Nothing is returned unless the
 * condition is a plain statement (no modal of its own) that can be said as one requirement.
 */
const FLAGS = /^(?:this|the)\s+(?:policy|sample|rule|validation|check)\s+(?:also\s+)?(?:audits?|flags?|reports?|warns?\s+(?:about|on)|rejects?|denies|blocks?|prevents?|disallows?|forbids?)\s+(.+?)\s+(?:if|when|whenever|where)\s+(.+?)[.!]?$/i

export function flaggedWhen(sentence: string): string | undefined {
  const match = FLAGS.exec(sentence)
  const subject = match?.[1]
  const condition = match?.[2]
  // "... if it is ..." has no subject of its own to say the requirement about; a list of conditions is not one statement.
  if (!subject || !condition || /^(?:it|they|this|that|so)\b/i.test(condition) || /\b(?:if|when|unless|or|and)\b/i.test(condition)) return undefined
  const stated = statedAsRequirement(condition)
  if (stated === condition) return undefined
  const negated = /\bmust not\b/.test(stated) ? stated.replace(/\bmust not\b/, 'must') : stated.replace(/\bmust\b/, 'must not')
  return `For ${subject}, ${negated}.`
}
