import type { Rule } from '../../engine/index.js'
import type { RuleTemplate } from '../catalog/rule-template.js'
import { KEY_HOWS, WRITTEN_VALUE_HOWS, keyWritten, mapKey, valueWritten } from './grounding.js'
import { codeTokens } from './find-fields.js'
import { numbersWithUnits } from './read-values.js'
import { formatWords } from './read-predicate.js'
import { nameWords } from './name-words.js'
import { inBackticks, quotedAround, writtenSpan, type WrittenSpan } from './written-words.js'
import { FIELD_HOWS, MAP_NOUNS, valuesCompared, type Condition, type FieldHow, type MapNoun, type Predicate, type Requirement, type Scalar, type ValueRef } from './requirement.js'

/**
 * Per rule, the words of the text that grounded it, as issue 32's reading shows them: a rule may
 * only say what the text says, so next to each rule stand the words that named its field (and
 * how they name it) and the words that gave each value (and how they are written), for its
 * conditions and exemptions too; for a rule of the catalog, the named requirement it is. Words
 * are quoted from the text exactly as written; where the reader derived something no words
 * spell (a registry normalized, a switch a verb turned on), `words` is left out rather than
 * made up.
 */
export interface RuleGrounds {
  rule: string
  /** The fields the rule judges, each with the words that named it. */
  fields?: FieldGround[]
  /** The values it compares them with, each with the words that gave it. */
  values?: ValueGround[]
  /** The other field a field is compared with ("maxReplicas greater than minReplicas"). */
  comparedWith?: FieldGround
  /** Where it applies: each condition with its field and values. */
  conditions?: ConditionGround[]
  /** Where it does not apply. */
  exemptions?: ConditionGround[]
  /** A rule of the catalog: the named requirement the sentence asked for, and the words that gave its parameters. */
  named?: NamedGround
}

export interface NamedGround {
  id: string
  title: string
  /** Each parameter value the sentence wrote (a label key, a registry, a bound), with its words; those it did not write are left out. */
  parameters?: Array<ValueGround & { parameter: string }>
}

export interface FieldGround {
  /** As written in the text; absent when no words of it name the field. */
  words?: string
  /** The field's path (`spec.containers[*].securityContext.runAsUser`). */
  field: string
  how: FieldHow | 'implied by the sentence'
}

/**
 * How a value is written: a number (with its unit), true/false, a value of the field's enum, a
 * format's name or a pattern, or as grounding.ts tells a written value from a word of the prose; "implied by
 * the field" for true/false a verb says of a true/false field ("must not run privileged").
 */
export const VALUE_HOWS = ['number', 'number with unit', 'true/false', 'implied by the field', 'enum value', 'format name', 'pattern', ...WRITTEN_VALUE_HOWS] as const
export type ValueHow = (typeof VALUE_HOWS)[number]

/** Every way a field ground says its words name the field, for the API's schema. */
export const FIELD_GROUND_HOWS: readonly FieldGround['how'][] = [...FIELD_HOWS, 'implied by the sentence', ...MAP_NOUNS.flatMap((noun) => KEY_HOWS.map((how) => `${noun} key, ${how}` as const))]

export interface ValueGround {
  words?: string
  value: Scalar
  how: ValueHow
}

export interface ConditionGround {
  /** The condition as the author put it ("except in the kube-system namespace"). */
  words?: string
  field: FieldGround
  values: ValueGround[]
}

/**
 * Where words are looked for: the texts the rule was read from, nearest first (a condition's own
 * words, then its sentence), then the whole instruction (a list head, an earlier sentence).
 */
interface Texts {
  near: readonly string[]
  instruction: string
}

/** The grounds of the rule a requirement compiled to. */
export function requirementGrounds(rule: string, requirement: Requirement, written: { sentence: string; instruction: string }): RuleGrounds {
  const texts: Texts = { near: [written.sentence], instruction: written.instruction }
  const grounds: RuleGrounds = { rule }
  const fields = requirement.values.map((ref) => fieldGround(ref, requirement.predicate, texts))
  if (fields.length > 0) grounds.fields = fields
  // A value is looked for after the words of the fields first: "replicas of 2 ... at least 3" compares 3.
  const after = Math.max(0, ...fields.map((field) => (field.words === undefined ? 0 : (writtenSpan(field.words, written.sentence)?.index ?? 0) + field.words.length)))
  const values = valueGrounds(requirement.values[0], requirement.predicate, texts, after)
  if (values.length > 0) grounds.values = values
  if (requirement.predicate.op === 'compareField') grounds.comparedWith = fieldGround(requirement.predicate.other, { op: 'set' }, texts, after)
  if (requirement.conditions.length > 0) grounds.conditions = requirement.conditions.map((condition) => conditionGround(condition, texts))
  if (requirement.exemptions.length > 0) grounds.exemptions = requirement.exemptions.map((condition) => conditionGround(condition, texts))
  return grounds
}

/**
 * The grounds of a catalog rule: the named requirement it came from (found by the id the rule
 * records), and the parameter values written in the sentence, each with its words.
 */
export function namedRuleGrounds(rule: Rule, catalog: readonly RuleTemplate[], written: { sentence: string; instruction: string }): RuleGrounds {
  const id = rule.template?.id
  if (id === undefined) return { rule: rule.name }
  const named: NamedGround = { id, title: catalog.find((entry) => entry.id === id)?.title ?? id }
  const texts: Texts = { near: [written.sentence], instruction: written.instruction }
  const parameters = parameterValues(rule.template?.parameters ?? {})
    // "2Gi", "500m": a quantity is a number with its unit.
    .map(({ parameter, value }) => ({ parameter, ...(typeof value === 'number' || /^\d+(?:\.\d+)?(?:[A-Za-z]{1,3}|%)?$/.test(value) ? boundGround(value, undefined, texts, 0) : scalarGround(value, undefined, texts, 0)) }))
    // Only what the sentence wrote: a default the template filled in is no words of the author's.
    .filter((ground) => ground.words !== undefined && writtenSpan(ground.words, written.sentence) !== undefined)
  if (parameters.length > 0) named.parameters = parameters
  return { rule: rule.name, named }
}

/** The text and numbers of a template's parameters, each named by its path (`bounds.limits.memory.max`). */
function parameterValues(parameters: Readonly<Record<string, unknown>>, prefix = ''): Array<{ parameter: string; value: string | number }> {
  return Object.entries(parameters).flatMap(([name, value]) => {
    const parameter = `${prefix}${name}`
    const items: unknown[] = Array.isArray(value) ? value : [value]
    return items.flatMap((item) => {
      if (typeof item === 'string' || typeof item === 'number') return [{ parameter, value: item }]
      return typeof item === 'object' && item !== null && !Array.isArray(item) ? parameterValues(item as Record<string, unknown>, `${parameter}.`) : []
    })
  })
}

function conditionGround(condition: Condition, texts: Texts): ConditionGround {
  // The condition's own words first: a scope said in another sentence ("kube-system is exempt") is found there.
  // The reader may tag what it read ("only-in:in the dns namespace"): the words are what follows.
  const said = condition.text.replace(/^[a-z]+(?:-[a-z]+)*:(?=\S)/, '')
  const words = [...texts.near, texts.instruction].map((text) => writtenSpan(said, text)).find((found) => found !== undefined)?.words
  const own: Texts = { near: [words ?? said, ...texts.near], instruction: texts.instruction }
  return { ...(words !== undefined ? { words } : {}), field: fieldGround(condition.value, condition.predicate, own), values: valueGrounds(condition.value, condition.predicate, own, 0) }
}

const MAP_NOUN: Readonly<Record<string, MapNoun>> = { labels: 'label', annotations: 'annotation', tags: 'tag' }

/**
 * The words that named a field: a map's key as written; the words the reader found it by; else
 * its label, path, own name or the words of its name, in the sentence, then elsewhere in the
 * text; else the values written, when only its enum holds them ("NodePort" names `spec.type`).
 */
function fieldGround(ref: ValueRef, predicate: Predicate, texts: Texts, from = 0): FieldGround {
  const field = fieldPath(ref)
  const key = mapKey(ref)
  if (key !== undefined) {
    const noun = MAP_NOUN[ref.variants[0]?.segments.at(-2) ?? ''] ?? 'label'
    const found = find(key, texts, from)
    const how = keyWritten(key, [texts.instruction, ...texts.near].join('\n')) ?? 'introduced as one'
    return { ...(found ? { words: found.words } : {}), field, how: `${noun} key, ${how}` }
  }
  if (ref.named) {
    const found = find(ref.named.words, texts, from)
    if (found) return { words: found.words, field, how: found.near ? ref.named.how : 'named in an earlier sentence' }
  }
  const segments = (ref.variants[0]?.segments ?? []).filter((segment) => segment !== '[]')
  const leaf = segments.at(-1) ?? ''
  const candidates = [ref.label, segments.join('.'), leaf, nameWords(leaf).join(' ')].filter((candidate) => candidate.trim() !== '')
  for (const text of texts.near) {
    for (const candidate of candidates) {
      const found = writtenSpan(candidate, text, text === texts.near[0] ? from : 0)
      if (found) return { words: found.words, field, how: writtenHow(found.words, ref) }
    }
  }
  const enumValue = valuesCompared(predicate).find((value) => ref.enum?.includes(value) && find(value, texts, from)?.near === true)
  if (enumValue !== undefined) return { words: find(enumValue, texts, from)?.words ?? enumValue, field, how: 'enum value' }
  // "liveness and readiness probes": the words of one field stand apart, around another's; the first of them is where it is named.
  const word = [ref.named?.words ?? '', ref.label, nameWords(leaf).join(' ')].flatMap((candidate) => candidate.split(/[^A-Za-z0-9]+/)).find((candidate) => candidate.length >= 4 && texts.near.some((text) => writtenSpan(candidate, text) !== undefined))
  const single = word === undefined ? undefined : find(word, texts, from)
  if (single?.near === true) return { words: single.words, field, how: ref.named?.how ?? writtenHow(single.words, ref) }
  for (const candidate of candidates) {
    const found = writtenSpan(candidate, texts.instruction)
    if (found) return { words: found.words, field, how: 'named in an earlier sentence' }
  }
  return { field, how: 'implied by the sentence' }
}

/** How words that name a field are written: as code, a path, a field's own name, or words a schema field's name is made of. */
function writtenHow(words: string, ref: ValueRef): FieldHow {
  if (inBackticks(words)) return 'written as code'
  const token = codeTokens(words)[0]
  if (token && token.length === words.length) return /[.[]/.test(token.token) ? 'written as a path' : 'written as a field name'
  return ref.weak === true || (ref.type === undefined && ref.scope !== 'container') ? 'name made from the words' : 'schema field name'
}

/** A field's path as Kubernetes documents write it: `spec.containers[*].securityContext.runAsUser`, `metadata.labels['app.kubernetes.io/name']`. */
export function fieldPath(ref: ValueRef): string {
  const inside = ref.variants[0]?.segments ?? []
  const outer = ref.scope === 'container' ? [...(ref.containers?.podSpec ?? ['spec']), 'containers', '[]'] : ref.scope === 'element' ? [...(ref.list ?? []), '[]'] : []
  let path = ''
  for (const segment of [...outer, ...inside]) {
    if (segment === '[]') path += '[*]'
    else if (/^[A-Za-z_][\w-]*$/.test(segment)) path += path === '' ? segment : `.${segment}`
    else path += `['${segment}']`
  }
  return path
}

function valueGrounds(ref: ValueRef | undefined, predicate: Predicate, texts: Texts, from: number): ValueGround[] {
  switch (predicate.op) {
    case 'equals':
      return [scalarGround(predicate.value, ref, texts, from)]
    case 'oneOf':
    case 'noneOf':
    case 'listNoneOf':
    case 'listAllOf':
    case 'listOnly':
      return predicate.values.map((value) => scalarGround(value, ref, texts, from))
    case 'startsWith':
    case 'endsWith':
    case 'notStartsWith':
    case 'notEndsWith':
    case 'contains':
    case 'notContains':
    case 'keysNoneStartWith':
    case 'listNoneMatching':
      return predicate.values.map((value) => scalarGround(value, undefined, texts, from))
    case 'imageRegistry':
    case 'imageRegistryDenied':
      return predicate.registries.map((value) => scalarGround(value, undefined, texts, from))
    case 'compare':
      return predicate.bounds.map((bound) => boundGround(bound.value, bound.display, texts, from))
    case 'cidrPrefix':
      return [boundGround(predicate.bits, `/${predicate.bits}`, texts, from)]
    case 'compareField':
      return predicate.factor === undefined ? [] : [boundGround(predicate.factor, `${predicate.factor}x`, texts, from)]
    case 'format': {
      // "must match ^cc-[0-9]{4}$": the pattern as written.
      const pattern = predicate.format === 'pattern' ? find(predicate.pattern, texts, from) : undefined
      if (pattern) return [{ words: pattern.words, value: predicate.pattern, how: 'pattern' }]
      const words = texts.near.map((text) => formatWords(predicate.format, text)).find((found) => found !== undefined)
      return [{ ...(words !== undefined ? { words } : {}), value: predicate.format === 'pattern' ? predicate.pattern : predicate.format, how: 'format name' }]
    }
    case 'imageTag': {
      const words = texts.near.map((text) => /\b(?:latest|digests?|sha256|tag(?:ged|s)?)\b/i.exec(text)?.[0]).find((found) => found !== undefined)
      return [{ ...(words !== undefined ? { words } : {}), value: predicate.requirement, how: 'format name' }]
    }
    case 'hasElement':
    case 'namesElement':
      return predicate.where.flatMap((field) => valueGrounds(undefined, field.predicate, texts, from))
    default:
      return []
  }
}

/** How authors write true and false; "on" and "off" only after a verb that gives them ("has to be on"), being words of the prose as often. */
const BOOLEAN_WORDS: Readonly<Record<string, RegExp>> = {
  true: /\b(?:true|enabled?)\b|(?<=\b(?:be|is|are|turned|switched|set)\s+)on\b/i,
  false: /\b(?:false|disabled?)\b|(?<=\b(?:be|is|are|turned|switched|set)\s+)off\b/i,
}

function scalarGround(value: Scalar, ref: ValueRef | undefined, texts: Texts, from: number): ValueGround {
  if (typeof value === 'number') return boundGround(value, undefined, texts, from, false)
  if (typeof value === 'boolean') {
    const pattern = BOOLEAN_WORDS[String(value)]
    const words = pattern === undefined ? undefined : texts.near.map((text) => pattern.exec(text)).find((found) => found !== null)
    if (words) return { words: quotedAround(words.input, words.index, words.index + words[0].length), value, how: 'true/false' }
    return { value, how: 'implied by the field' }
  }
  // ".internal.example.org" from "a subdomain of internal.example.org": the name the reader put a dot before.
  const found = find(value, texts, from) ?? find(value.replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, ''), texts, from)
  const written = valueWritten(value, [texts.instruction, ...texts.near].join('\n'))
  const quoted = written === 'quoted literal' || written === 'code literal'
  const how: ValueHow = ref?.enum?.includes(value) && !quoted ? 'enum value' : (written ?? 'read from the words')
  return { ...(found ? { words: found.words } : {}), value, how }
}

/** Words before a number that say which way it bounds ("at least", "no more than"), and after it ("or higher"). */
const CUE_BEFORE = /(?:\b(?:at (?:least|most)|no (?:more|less|fewer|greater|higher|lower|longer|shorter|broader|wider) than|not (?:more|less|fewer) than|(?:more|less|fewer|greater|higher|lower|longer|shorter) than|up to|over|under|above|below|between|exceed(?:s|ing)?|a (?:minimum|maximum) of|min(?:imum)?|max(?:imum)?)|>=|<=|≥|≤|<|>)\s*$/i
const CUE_AFTER = /^\s*(?:or (?:more|higher|greater|above|over|less|lower|fewer|below|under|smaller|larger|narrower|wider|longer|shorter)\b|(?:max(?:imum)?|min(?:imum)?|at (?:most|least))\b)/i

/** A number as written, with its unit and the words that say which way it bounds. */
function boundGround(value: number | string, display: string | undefined, texts: Texts, from: number, bound = true): ValueGround {
  const found = [...texts.near.map((text, index) => numberSpan(value, display, text, index === 0 ? from : 0)), numberSpan(value, display, texts.instruction, 0)].find((item) => item !== undefined)
  if (!found) return { value, how: typeof value === 'string' && /[A-Za-z%]/.test(value) ? 'number with unit' : 'number' }
  const { text, span } = found
  const how: ValueHow = numbersWithUnits(span.words)[0]?.kind !== undefined ? 'number with unit' : 'number'
  if (!bound) return { words: span.words, value, how }
  const before = CUE_BEFORE.exec(text.slice(Math.max(0, span.index - 40), span.index))
  const end = span.index + span.words.length
  const after = CUE_AFTER.exec(text.slice(end, end + 40))
  const start = before ? span.index - before[0].length : span.index
  const stop = after ? end + after[0].length : end
  return { words: text.slice(start, stop), value, how }
}

/** Where a number is written: as the reader displayed it ("15 minutes", "2 cores"), else the digits of its value. */
function numberSpan(value: number | string, display: string | undefined, text: string, from: number): { text: string; span: WrittenSpan } | undefined {
  for (const candidate of [display, String(value)]) {
    if (candidate === undefined || candidate === '') continue
    const span = writtenSpan(candidate, text, from)
    if (span) return { text, span: withUnit(span, text) }
  }
  // A value the reader scaled (900 seconds from "15 minutes"): a number with a unit whose value in seconds it is.
  const scaled = numbersWithUnits(text).find((number) => number.base === value || number.quantity === value)
  return scaled ? { text, span: { words: text.slice(scaled.index, scaled.index + scaled.length), index: scaled.index } } : undefined
}

/** "2" of "2Gi" or "2 cores": the unit written right after a number is part of it. */
function withUnit(span: WrittenSpan, text: string): WrittenSpan {
  if (!/^\d+(?:\.\d+)?$/.test(span.words)) return span
  const number = numbersWithUnits(text).find((entry) => entry.index === span.index)
  return number ? { words: text.slice(number.index, number.index + number.length).trimEnd(), index: number.index } : span
}

/** Words looked for in the texts the rule was read from (in the first, after `from` first), then anywhere in the instruction. */
function find(wanted: string, texts: Texts, from: number): (WrittenSpan & { near: boolean }) | undefined {
  for (const [index, text] of texts.near.entries()) {
    const found = writtenSpan(wanted, text, index === 0 ? from : 0)
    if (found) return { ...found, near: true }
  }
  const elsewhere = writtenSpan(wanted, texts.instruction)
  return elsewhere ? { ...elsewhere, near: false } : undefined
}
