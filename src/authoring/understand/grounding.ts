import { valuesCompared, type Condition, type Predicate, type Requirement, type ValueRef } from './requirement.js'
import { isProseWord } from './english-words.js'

/**
 * The grounding gate: a rule may only compare against what the text says. Every label,
 * annotation or tag key and every value a requirement compares against must be written in the
 * text as a literal: quoted or in backticks, a number, true/false, a name that is not a plain
 * word (`app.kubernetes.io/name`, `NodePort`, `k8s.gcr.io`), or a plain word introduced as a key
 * or value (in a list beside the word "labels", after "one of"). An English word of the prose
 * ("make", "reused", "Require") is never one. Returns what could not be grounded, with the
 * question that would let the sentence compile, or undefined when all of it is grounded.
 * keyWritten and valueWritten say how a key or value is written: the gate asks whether, the
 * reading shown to the author (rule-grounds.ts) says how, by the same tests.
 */
export interface GroundingProblem {
  problem: string
  question: string
}

const MAP_SEGMENTS = new Set(['labels', 'annotations', 'tags'])

/** How a label, annotation or tag key is written as one (see keyWritten). */
export const KEY_HOWS = ['quoted', 'code-formatted', 'written as a key', "on its map's path", 'introduced as one', 'given a value'] as const
export type KeyHow = (typeof KEY_HOWS)[number]

/** How a value compared against is written as one (see valueWritten). */
export const WRITTEN_VALUE_HOWS = ['quoted literal', 'code literal', 'empty', 'written as a name', 'read from the words', 'written as a value', 'given to its key', 'listed with written values', 'capitalised name'] as const
export type WrittenValueHow = (typeof WRITTEN_VALUE_HOWS)[number]

export function groundingProblem(requirement: Requirement, text: string): GroundingProblem | undefined {
  const refs = [...requirement.values, ...requirement.conditions.map((condition) => condition.value), ...requirement.exemptions.map((condition) => condition.value)]
  for (const ref of refs) {
    const key = mapKey(ref)
    if (key !== undefined && keyWritten(key, text) === undefined) {
      return {
        problem: `"${key}" is a word of the sentence, not a key written as one`,
        question: 'which label or annotation key is meant? write it in backticks, e.g. `app.kubernetes.io/name`',
      }
    }
  }
  const outsideEnum = valueOutsideEnum(requirement)
  if (outsideEnum) return outsideEnum
  const ownName = valueNamingItsField(requirement)
  if (ownName) return ownName
  const checks: Array<{ ref: ValueRef | undefined; predicate: Predicate }> = [
    { ref: requirement.values[0], predicate: requirement.predicate },
    ...[...requirement.conditions, ...requirement.exemptions].map((condition: Condition) => ({ ref: condition.value, predicate: condition.predicate })),
  ]
  for (const { ref, predicate } of checks) {
    for (const value of predicateValues(predicate)) {
      if (valueWritten(value, text) === undefined) {
        const field = ref ? `\`${ref.variants[0]?.segments.join('.') ?? ref.label}\`` : 'the field'
        return {
          problem: `"${String(value)}" is a word of the sentence, not a value written as one`,
          question: `which value must ${field} take? write it in backticks or quotes`,
        }
      }
    }
  }
  return undefined
}

/**
 * A field whose schema lists its values (`imagePullPolicy`: Always, IfNotPresent, Never) is only
 * ever compared with one of them: "must be spelled out as Always" read as `spelled` is a word of
 * the sentence, whatever the grounding of the word itself says.
 */
function valueOutsideEnum(requirement: Requirement): GroundingProblem | undefined {
  const pairs: Array<{ ref: ValueRef; predicate: Predicate }> = [
    ...requirement.values.map((ref) => ({ ref, predicate: requirement.predicate })),
    ...[...requirement.conditions, ...requirement.exemptions].map((condition) => ({ ref: condition.value, predicate: condition.predicate })),
  ]
  for (const { ref, predicate } of pairs) {
    if (!ref.enum || ref.enum.length === 0) continue
    const outside = valuesCompared(predicate).find((value) => !ref.enum?.includes(value))
    if (outside === undefined) continue
    const field = ref.variants[0]?.segments.join('.') ?? ref.label
    return {
      problem: `"${outside}" is not a value \`${field}\` can take (${ref.enum.join(', ')})`,
      question: `which of ${ref.enum.map((value) => `\`${value}\``).join(', ')} is meant?`,
    }
  }
  return undefined
}

/** "loadBalancerSourceRanges must list the allowed ranges" read as containing "loadBalancerSourceRanges": a field is not its own value. */
function valueNamingItsField(requirement: Requirement): GroundingProblem | undefined {
  for (const ref of requirement.values) {
    const leaf = ref.variants[0]?.segments.at(-1)?.toLowerCase()
    if (leaf === undefined || leaf.length < 3) continue
    const named = predicateValues(requirement.predicate).find((value) => value.toLowerCase() === leaf)
    if (named === undefined) continue
    return { problem: `"${named}" names the field itself, not a value of it`, question: `which value must \`${ref.variants[0]?.segments.join('.') ?? ref.label}\` hold? write it in backticks or quotes` }
  }
  return undefined
}


/** The key of a label, annotation or tag map a value reads (`metadata.labels.team` is `team`). */
export function mapKey(ref: ValueRef): string | undefined {
  const segments = ref.variants[0]?.segments ?? []
  const index = segments.findIndex((segment) => MAP_SEGMENTS.has(segment))
  if (index < 0 || index !== segments.length - 2) return undefined
  return segments[index + 1]
}

/** The strings a predicate compares against; numbers and booleans are written as such and need no check here. */
export function predicateValues(predicate: Predicate): string[] {
  switch (predicate.op) {
    case 'keysNoneStartWith':
    case 'listNoneMatching':
    case 'startsWith':
    case 'endsWith':
    case 'notStartsWith':
    case 'notEndsWith':
    case 'contains':
    case 'notContains':
      return predicate.values
    case 'hasElement':
    case 'namesElement':
      return predicate.where.flatMap((field) => predicateValues(field.predicate))
    default:
      return valuesCompared(predicate)
  }
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Written in quotes or backticks somewhere in the text: which of the two, or undefined. */
function quotedHow(word: string, text: string): 'quoted' | 'code' | undefined {
  const lower = text.toLowerCase()
  const wanted = word.toLowerCase()
  if (lower.includes(`\`${wanted}\``)) return 'code'
  if ([`"${wanted}"`, `'${wanted}'`].some((form) => lower.includes(form))) return 'quoted'
  // Inside a code span: the spans as written, in pairs (the text between two spans is prose, not code).
  const inside = new RegExp(String.raw`\b${escape(wanted)}\b`)
  return [...lower.matchAll(/`[^`]*`/g)].some((span) => inside.test(span[0])) ? 'code' : undefined
}

function quotedIn(word: string, text: string): boolean {
  return quotedHow(word, text) !== undefined
}

/** Appears in the text as a word of its own (case-insensitive). */
function writtenIn(word: string, text: string): RegExpExecArray[] {
  return [...text.matchAll(new RegExp(String.raw`(?<![\w./-])${escape(word)}(?![\w/-]|\.\w)`, 'gi'))]
}

/** A name that is not a plain word: dots, slashes, digits, dashes, underscores, inner capitals. */
function syntacticName(word: string): boolean {
  return /[^A-Za-z]/.test(word) || /^[A-Za-z][a-z]*[A-Z]/.test(word) || (word.length > 1 && word === word.toUpperCase())
}

/**
 * How a value compared against is written in the text as a value, or undefined when it is only a
 * word of the prose: the gate refuses the latter, and the reading shows the former to the author.
 */
export function valueWritten(value: string, text: string): WrittenValueHow | undefined {
  if (value.trim() === '') return 'empty'
  const quoted = quotedHow(value, text)
  if (quoted) return quoted === 'code' ? 'code literal' : 'quoted literal'
  // "//" from "s3://bucket", "//." from a URL: punctuation alone is a piece of something written, unless quoted as it is.
  if (!/[A-Za-z0-9*]/.test(value) && value.length > 1) return undefined
  if (syntacticName(value)) return 'written as a name'
  const occurrences = writtenIn(value, text)
  // A value the reader derived (a typo fixed, a registry normalized) and that is not prose.
  if (occurrences.length === 0) return isProseWord(value) ? undefined : 'read from the words'
  // "can't switch their alerts off": a word written only as the verb after a modal is prose, whatever the word.
  if (occurrences.every((match) => AFTER_MODAL.test(text.slice(0, match.index)))) return undefined
  if (!isProseWord(value)) return 'written as a value'
  // "legacy-rootfs=yes", "enabled: no": a word given to a key with "=" or ":" is written as its value.
  if (new RegExp(String.raw`[\w\]\`"'-]\s*[=:]\s*[\`"']?${escape(value)}(?![\w/-])`, 'i').test(text)) return 'given to its key'
  // "must be require or verify-full": a word listed beside values written as values is one of them.
  if (inListWithNames(value, text)) return 'listed with written values'
  // "the `Default` procMount", "type LoadBalancer": a capitalised value inside a sentence is a name the author wrote.
  return occurrences.some((match) => /[A-Z]/.test(match[0]) && !sentenceStart(text, match.index)) ? 'capitalised name' : undefined
}

const AFTER_MODAL = /\b(?:can'?t|cannot|can|could|must(?:\s+not)?|mustn'?t|should(?:\s+not)?|shouldn'?t|may(?:\s+not)?|might|will|won'?t|would|shall|don'?t|doesn'?t|do\s+not|does\s+not|never)\s+$/i

function sentenceStart(text: string, index: number): boolean {
  return /(?:^|[.!?:;]\s+|\n\s*)$/.test(text.slice(0, index))
}

const LIST_ITEM = String.raw`[\`"']?[\w./-]+[\`"']?`
const LIST_SEPARATOR = String.raw`(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)`
const MAP_NOUN = String.raw`(?:labels?|labell?ed|annotations?|annotated|tags?|tagged|keys?)`

/**
 * How a key is written as one, or undefined when it is not: quoted, a name that is not a plain
 * word, or a plain word that is not prose standing in a list beside the word "labels" (or beside
 * keys written as keys): "labels team and tier", "owner and team labels", "app.kubernetes.io/name,
 * team and tier".
 */
export function keyWritten(key: string, text: string): KeyHow | undefined {
  const quoted = quotedHow(key, text)
  if (quoted) return quoted === 'code' ? 'code-formatted' : 'quoted'
  if (syntacticName(key)) return 'written as a key'
  if (isProseWord(key)) return undefined
  // "tags.environment", "labels.severity": the key written on its map's path.
  if (new RegExp(String.raw`\b(?:labels|annotations|tags)\.${escape(key)}\b`, 'i').test(text)) return "on its map's path"
  // "the tag Environment", "label team": the word right after the map's noun.
  if (new RegExp(String.raw`\b${MAP_NOUN}\s+${escape(key)}\b`, 'i').test(text)) return 'introduced as one'
  // "Environment = prod", "team: payments": a word given a value is a key.
  if (new RegExp(String.raw`(?<![\w./-])${escape(key)}\s*[=:]\s*\S`, 'i').test(text)) return 'given a value'
  for (const list of listsHolding(key, text)) {
    const besideNoun = new RegExp(String.raw`\b${MAP_NOUN}\s*(?::|named|called|with)?\s*$`, 'i').test(list.before) || new RegExp(String.raw`^\s+${MAP_NOUN}\b`, 'i').test(list.after)
    const besideKeys = list.items.some((item) => item.toLowerCase() !== key.toLowerCase() && syntacticName(item))
    if (besideNoun || besideKeys) return 'introduced as one'
  }
  return undefined
}

/** The lists ("a, b and c", "x or y") the word is an item of, with the text around each. */
function listsHolding(word: string, text: string): Array<{ items: string[]; before: string; after: string }> {
  const found: Array<{ items: string[]; before: string; after: string }> = []
  const lists = new RegExp(String.raw`${LIST_ITEM}(?:${LIST_SEPARATOR}${LIST_ITEM})*`, 'g')
  for (const match of text.matchAll(lists)) {
    // A list item ends before the sentence's full stop: "team and tier." lists "tier".
    const items = match[0].split(new RegExp(LIST_SEPARATOR)).map((item) => item.replace(/[`"']/g, '').replace(/[.:]+$/, ''))
    if (!items.some((item) => item.toLowerCase() === word.toLowerCase())) continue
    found.push({ items, before: text.slice(0, match.index), after: text.slice(match.index + match[0].length) })
  }
  return found
}

/** Listed beside at least one value that is not a plain word ("require or verify-full"). */
function inListWithNames(word: string, text: string): boolean {
  return listsHolding(word, text).some((list) => list.items.length > 1 && list.items.some((item) => item.toLowerCase() !== word.toLowerCase() && (syntacticName(item) || quotedIn(item, text))))
}
