import { kindsNamedIn, normalizeText } from '../text/clause.js'
import { valuesCompared, type Requirement } from './requirement.js'

/**
 * A value that is a capitalised word for a kind other than its own name ("Secrets", "Pods";
 * RBAC's lowercase `secrets` and a kind's own name `Secret` are values authors write), compared with a field other than the
 * kind itself: "Secrets of type X are banned" read as a label that must not be "Secrets" took the
 * subject of the sentence as a value. Returns the word, or undefined.
 */
export function kindReadAsValue(requirement: Requirement): string | undefined {
  if (requirement.subject.platform !== 'kubernetes') return undefined
  const pairs = [
    ...requirement.values.map((ref) => ({ ref, predicate: requirement.predicate })),
    ...[...requirement.conditions, ...requirement.exemptions].map((scope) => ({ ref: scope.value, predicate: scope.predicate })),
  ]
  for (const { ref, predicate } of pairs) {
    const path = ref.variants[0]?.segments.join('.') ?? ''
    if (/(?:^|\.)kind$/.test(path) || ref.enum !== undefined) continue
    const word = valuesCompared(predicate).find((value) => /^[A-Z][a-z]+$/.test(value) && kindsNamedIn(normalizeText(value)).length > 0 && !kindsNamedIn(normalizeText(value)).includes(value))
    if (word !== undefined) return word
  }
  return undefined
}

