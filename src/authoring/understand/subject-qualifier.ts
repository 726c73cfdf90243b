import { kindsNamedIn, normalizeText } from '../text/clause.js'
import { requirementStrings } from './coverage.js'
import { valuesCompared, type Requirement } from './requirement.js'

/** The verb that asks: the subject is what comes before it. */
const ASKING = /\b(?:must|mustn'?t|needs?|has to|have to|should|shall|requires?|can'?t|cannot|may not|is required|are required)\b/i

/**
 * The values the instruction's requirements compare against ("critical", "admin"): written as a
 * value somewhere, such a word in front of a subject picks some of the objects.
 */
export function writtenValues(requirements: readonly Requirement[]): Set<string> {
  const values = new Set<string>()
  for (const requirement of requirements) for (const value of valuesCompared(requirement.predicate)) values.add(value.toLowerCase())
  return values
}


/**
 * "critical alerts need a `for` of at least 5m", "anyone with role admin must have mfa: true",
 * "Opaque secrets must carry the label": the subject is narrowed by a value (one another
 * requirement compares against, one the schema allows, or a capitalised word before the kind).
 * A requirement that uses nothing of that narrowing would judge every object. Returns the word,
 * or undefined.
 */
export function droppedSubjectValue(text: string, requirement: Requirement, values: ReadonlySet<string>, enumWords: ReadonlySet<string>): string | undefined {
  const asking = ASKING.exec(text)
  if (!asking) return undefined
  // "In the prod namespace, Opaque secrets must ...": the subject is what follows the lead-in's comma.
  const subject = text.slice(0, asking.index).split(',').pop() ?? ''
  const used = new Set(requirementStrings(requirement).flatMap((item) => item.toLowerCase().split(/[^a-z0-9_./:-]+/)))
  const words = [...subject.matchAll(/[`"']?([A-Za-z][\w.-]*)[`"']?/g)]
  for (const [index, match] of words.entries()) {
    const word = match[1] ?? ''
    const lower = word.toLowerCase()
    if (used.has(lower) || kindsNamedIn(normalizeText(word)).length > 0) continue
    const next = words[index + 1]?.[1] ?? ''
    const beforeKind = next !== '' && kindsNamedIn(normalizeText(next)).length > 0 && requirement.subject.kinds.length > 0
    const capitalised = /^[A-Z][a-z]{2,}$/.test(word) && (match.index ?? 0) > 0 && beforeKind
    if (values.has(lower) || enumWords.has(word) || capitalised) return word
  }
  return undefined
}

/** "for any client that actually retries", "to every route whose path ...": the objects a requirement is said of, narrowed after it. */
const FOR_ANY_THAT = /\b(?:for|to|on|of)\s+(?:any|every|each|all)\s+(?:[\w-]+\s+){0,2}?(?:that|which|who|whose|with|having|where)\s+[^,.;()]+/i
/** "any pod that runs an image from X must", "Any StorageClass backed by the EBS driver must": the subject narrowed before the verb. */
const SUBJECT_THAT = /^\W*(?:(?:any|every|each|all|a|an|the|no)\s+)?((?:[\w'-]+\s+){1,2}?)((?:that|which|who|whose|having|backed by|owned by|created by|managed by|provisioned by)\s+[^,;()]+)/i
/** "fields which make use of host namespaces": the relative clause says which fields, not which objects. */
const FIELD_NOUN = /\b(?:fields?|settings?|keys?|values?|properties|property|attributes?|options?|parameters?)\s*$/i
/** A kind or a word for objects: a named rule reads fields of these, never which of them are meant. */
const OBJECT_NOUN = /\b(?:objects?|resources?|workloads?|manifests?)\s*$/i

/**
 * A requirement (or named rule) read with no condition from a clause whose subject is narrowed by a relative
 * clause ("jitter must be true for any client that actually retries", "any pod that runs an
 * image from registry X must list ..."): the narrowing was dropped and the rule would judge
 * every object. With `objectsOnly` (a named rule, which judges objects of kinds), only a kind or
 * object narrowed before the verb counts. Returns the narrowing words, or undefined.
 */
export function droppedRelativeQualifier(text: string, narrowed: boolean, objectsOnly = false): string | undefined {
  if (narrowed) return undefined
  const trailing = objectsOnly ? null : FOR_ANY_THAT.exec(text)
  if (trailing) return trailing[0].trim()
  const asking = ASKING.exec(text)
  if (!asking) return undefined
  // The subject is what follows a lead-in's comma ("In prod, any pod that ... must"); "in that X should" is no subject.
  const subject = text.slice(0, asking.index).split(/[,:]/).pop() ?? ''
  const match = SUBJECT_THAT.exec(subject)
  const noun = match?.[1] ?? ''
  if (!match?.[2] || FIELD_NOUN.test(noun)) return undefined
  if (objectsOnly && kindsNamedIn(normalizeText(noun)).length === 0 && !OBJECT_NOUN.test(noun)) return undefined
  return match[2].trim()
}
