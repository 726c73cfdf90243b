import type { Rule } from '../../engine/index.js'
import { canonicalKind, judgesKind } from '../text/kinds.js'
import type { Requirement } from './requirement.js'
import { readsUsesOf } from './kind-uses.js'

/** The verb that ends a requirement's subject: "PVCs and StatefulSets containing volumeClaimTemplates | must define ...". */
const SUBJECT_END = /\b(?:must|mustn't|should|shouldn't|shall|has to|have to|needs? to|cannot|can't|may not|is not allowed|are not allowed)\b/i

/**
 * The kinds a requirement sentence names as its subject that none of the rules read from it
 * judge. "PVCs and StatefulSets containing volumeClaimTemplates must define the storageClassName"
 * read only for PVCs would let every StatefulSet through; the sentence is refused naming the kind
 * instead. Kinds named after the verb ("must reference a StorageClass") are objects, not subjects.
 */
export function unjudgedSubjectKinds(text: string, requirements: readonly Requirement[], rules: readonly Rule[]): string[] {
  const end = SUBJECT_END.exec(text)
  if (!end) return []
  const judged = [...requirements.flatMap((requirement) => requirement.subject.kinds), ...rules.flatMap((rule) => rule.match?.kinds ?? [])]
  if (judged.length === 0 || judged.includes('*')) return []
  const unjudged = new Set<string>()
  for (const match of text.slice(0, end.index).matchAll(/[A-Za-z]+/g)) {
    const word = match[0]
    // Only a kind written as a name ("StatefulSets", "PVCs"); "out of service", "SECRET" and words after a preposition
    // ("Pods in the `sandbox` namespace", "come from a Secret") are not what must comply.
    if (!/^[A-Z](?:[a-z]|[A-Z]+s$)/.test(word)) continue
    if (PREPOSITION_BEFORE.test(text.slice(Math.max(0, match.index - 40), match.index))) continue
    const kind = canonicalKind(word)
    // "Secrets must not be used in Pods": a kind the rules read the uses of is what is used, not what must comply.
    if (kind && !judgesKind(judged, kind) && !requirements.some((requirement) => readsUsesOf(requirement, kind))) unjudged.add(kind)
  }
  return [...unjudged]
}

const PREPOSITION_BEFORE = /\b(?:in|of|from|within|on|by|to|through|under|into|inside|across|for|with|without|per)\s+(?:(?:the|a|an|any|every|each|its|their|your|our)\s+)?(?:[`"'][^`"']*[`"']\s+)?(?:\S+\s+)?$/i
