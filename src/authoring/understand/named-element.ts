import { kubernetesFields, type FieldInfo } from '../fields/kubernetes-fields.js'
import { resolveKubernetesField } from '../fields/resolve-kubernetes-field.js'
import { kindsNamedIn, normalizeText } from '../text/clause.js'
import { kubernetesRef } from './find-fields.js'
import { readPredicate } from './read-predicate.js'
import { scalarOf } from './read-values.js'
import type { Condition, Predicate, ValueRef } from './requirement.js'

/**
 * "if the `LOG_LEVEL` environment variable is defined, it must be `info`", "the port named `metrics`
 * must be 9090", "the `scratch` volume must not be set": one element of a list whose elements
 * carry a `name` (env, ports, volumes, volumeMounts, containers), picked by the name written in
 * quotes or backticks, and what must hold of it. The list comes from the schema, found by the
 * noun beside the name; the element's field judged is one the text names after "its", or else its
 * `value` (what "it must be set to" sets), and nothing when it has neither.
 *
 * "If defined" or a ban judge every element of that name, so a document without one passes; a
 * positive requirement said outright asks for an element of that name whose field holds.
 */
export interface NamedElementReading {
  values: ValueRef[]
  predicate: Predicate
  missing: 'pass' | 'fail'
  conditions: Condition[]
}

const NAME = String.raw`[\`"']([A-Za-z0-9_][\w.:/-]*)[\`"']`
const NOUN = String.raw`((?:[a-z][a-z-]*\s+){0,2}?[a-z][a-z-]*)`
const VERB_AFTER = String.raw`(?=\s+(?:is|are|has been|gets|exists|must|mustn'?t|should|shall|has to|have to|needs? to|may|can'?t|cannot)\b|\s*[.!]?\s*$)`
/** "the `DISABLE_OPA` environment variable", "the env var `FOO`", "the port named `metrics`". */
const NAME_THEN_NOUN = new RegExp(String.raw`\b(?:the|an?)\s+${NAME}\s+${NOUN}${VERB_AFTER}`, 'i')
const NOUN_THEN_NAME = new RegExp(String.raw`\b(?:the|an?)\s+${NOUN}\s+(?:named\s+|called\s+)?${NAME}${VERB_AFTER}`, 'i')

const CONDITION_LEAD = /\b(?:if|when|where|wherever|whenever)\s+$/i
const DEFINED = /^\s*(?:is|are|has been|gets)\s+(?:set|present|specified|given|defined|declared|configured|provided)\b|^\s*exists\b/i
const BODY_AFTER_CONDITION = /^\s*,?\s*(?:then\s+)?(.+)$/s
const PRESENCE = /^\s*(?:must|should|shall|has to|needs? to)\s+(?:always\s+)?(?:be\s+)?(?:set|defined|present|declared|specified)\s*[.!]?\s*$/i
const ABSENCE = /^\s*(?:must not|mustn'?t|may not|can'?t|cannot|should not|shouldn'?t|shall not)\s+(?:ever\s+)?(?:be\s+)?(?:set|defined|present|declared|specified|used)\s*[.!]?\s*$/i

/** What is judged and nothing else: "", "every container", "all Pods", "each Deployment". */
const SUBJECT_WORDS = /^(?:(?:the|all|every|each|any)\s+)?([A-Za-z]+)?\s*[,:]?$/i

function subjectOnly(words: string): boolean {
  const match = SUBJECT_WORDS.exec(words)
  if (!match) return false
  const noun = match[1]
  return noun === undefined || /^containers?$/i.test(noun) || kindsNamedIn(normalizeText(noun)).length > 0
}
/** "must define", "must not declare": the element named after it must be there, or must not. */
const DEFINING_VERB = /\b(?:must|should|shall|has to|have to|needs? to)\s+(not\s+)?(?:always\s+)?(?:define|declare|have|include|set|specify|mount|carry)$/i

const VALUE_PREDICATES: ReadonlySet<Predicate['op']> = new Set(['equals', 'oneOf', 'noneOf', 'compare', 'format', 'startsWith', 'endsWith', 'notStartsWith', 'notEndsWith', 'contains', 'notContains'])
const NEGATIVE: ReadonlySet<Predicate['op']> = new Set(['noneOf', 'notStartsWith', 'notEndsWith', 'notContains'])

export function readNamedElement(text: string, schemaKind: string): NamedElementReading | undefined {
  const mention = mentionIn(text, schemaKind)
  if (!mention) return undefined
  const { list, name } = mention
  const before = text.slice(0, mention.index)
  let after = text.slice(mention.end)
  const conditional = CONDITION_LEAD.test(before)
  if (conditional) {
    const defined = DEFINED.exec(after)
    if (!defined) return undefined
    after = BODY_AFTER_CONDITION.exec(after.slice(defined[0].length))?.[1] ?? ''
    // What follows must be about the element just named: "it", "its value", "the value", "its containerPort".
    if (!/^(?:it|its|they|their|the value)\b/i.test(after.trim())) return undefined
  }
  const nameRef = childRef(list, 'name', schemaKind)
  if (!nameRef) return undefined
  const byName: Predicate = { op: 'equals', value: name }
  // "every Pod must define the `cache` volume", "containers must not declare the `DEBUG` env var".
  const verb = conditional ? null : DEFINING_VERB.exec(before.trim())
  if (verb) {
    if (!subjectOnly(before.trim().slice(0, verb.index)) || !/^\s*[.!]?\s*$/.test(after)) return undefined
    if (verb[1]) return { values: [{ ...nameRef, explicit: true }], predicate: { op: 'noneOf', values: [name] }, missing: 'pass', conditions: [] }
    return { values: [{ ...listRef(list), explicit: true }], predicate: { op: 'hasElement', noun: mention.noun, where: [{ segments: ['name'], predicate: byName }] }, missing: 'fail', conditions: [] }
  }
  // Words before the mention other than its subject ("Pods that reference ...") are more than this reading takes.
  if (!conditional && !subjectOnly(before.trim())) return undefined
  if (!conditional && PRESENCE.test(after)) return { values: [{ ...listRef(list), explicit: true }], predicate: { op: 'hasElement', noun: mention.noun, where: [{ segments: ['name'], predicate: byName }] }, missing: 'fail', conditions: [] }
  if (!conditional && ABSENCE.test(after)) return { values: [{ ...nameRef, explicit: true }], predicate: { op: 'noneOf', values: [name] }, missing: 'pass', conditions: [] }
  const reading = readPredicate(after, after.toLowerCase())
  if (!reading || !VALUE_PREDICATES.has(reading.predicate.op)) return undefined
  const field = fieldJudged(after.slice(0, reading.cueIndex), list, schemaKind)
  if (!field) return undefined
  const { predicate } = reading
  const negative = NEGATIVE.has(predicate.op)
  if (conditional || negative) {
    const condition: Condition = { value: nameRef, predicate: byName, missing: 'fail', text: `${mention.noun} ${name}` }
    return { values: [{ ...field.ref, explicit: true }], predicate, missing: reading.missing ?? (negative ? 'pass' : 'fail'), conditions: [condition] }
  }
  return {
    values: [{ ...listRef(list), explicit: true }],
    predicate: { op: 'hasElement', noun: mention.noun, where: [{ segments: ['name'], predicate: byName }, { segments: [field.leaf], predicate }] },
    missing: 'fail',
    conditions: [],
  }
}

interface Mention {
  list: FieldInfo
  name: string
  noun: string
  index: number
  end: number
}

function mentionIn(text: string, schemaKind: string): Mention | undefined {
  for (const pattern of [NAME_THEN_NOUN, NOUN_THEN_NAME]) {
    const match = pattern.exec(text)
    if (!match) continue
    const [whole] = match
    const name = pattern === NAME_THEN_NOUN ? match[1] : match[2]
    const noun = pattern === NAME_THEN_NOUN ? match[2] : match[1]
    if (!name || !noun) continue
    const list = namedList(noun, schemaKind)
    if (list) return { list, name: String(scalarOf(name)), noun, index: match.index, end: match.index + whole.length }
  }
  return undefined
}

/** The one list of the schema the noun names whose elements have a `name` ("environment variable" is `env`, "port" is `ports`). */
function namedList(noun: string, schemaKind: string): FieldInfo | undefined {
  const words = noun.trim()
  const candidates = [words, ...(/s$/i.test(words) ? [] : [`${words}s`])]
  for (const candidate of candidates) {
    const lists = resolveKubernetesField(schemaKind, candidate).filter((info) => info.type === 'array' && hasNamedElements(info, schemaKind))
    const paths = new Set(lists.map((info) => info.path))
    const [only] = lists
    if (only && paths.size === 1) return only
  }
  return undefined
}

function hasNamedElements(list: FieldInfo, schemaKind: string): boolean {
  return kubernetesFields(schemaKind).some((info) => info.path === `${list.path}[].name` && info.type === 'string')
}

function childRef(list: FieldInfo, leaf: string, schemaKind: string): ValueRef | undefined {
  const info = kubernetesFields(schemaKind).find((field) => field.path === `${list.path}[].${leaf}`)
  return info ? kubernetesRef(info, leaf) : undefined
}

function listRef(list: FieldInfo): ValueRef {
  return kubernetesRef(list, list.path.split('.').at(-1) ?? list.path)
}

/** "its containerPort", "the value": a field of the element written before the predicate; else the element's own `value`. */
function fieldJudged(subject: string, list: FieldInfo, schemaKind: string): { ref: ValueRef; leaf: string } | undefined {
  const named = /\b(?:its|their|the)\s+[`"']?([a-z][A-Za-z0-9]*)[`"']?/.exec(subject)?.[1]
  const leaf = named ?? 'value'
  const ref = childRef(list, leaf, schemaKind)
  if (!ref || ref.type === 'object' || ref.type === 'array' || ref.type === 'map') return undefined
  return { ref, leaf }
}
