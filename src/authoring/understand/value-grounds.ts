/**
 * The words that gave each value a rule compares with, quoted from the text, and how they are
 * written: the value half of a rule's grounds (rule-grounds.ts).
 */
import { valueWritten, WRITTEN_VALUE_HOWS } from './grounding.js'
import { numbersWithUnits } from './read-values.js'
import { formatWords } from './read-predicate.js'
import { writtenNear, quotedAround, writtenSpan, type WhereWritten, type WrittenSpan } from './written-words.js'
import type { Predicate, Scalar, ValueRef } from './requirement.js'

/**
 * How a value is written: a number (with its unit), true/false, a value of the field's enum, a
 * format's name or a pattern, or as grounding.ts tells a written value from a word of the prose; "implied by
 * the field" for true/false a verb says of a true/false field ("must not run privileged").
 */
export const VALUE_HOWS = ['number', 'number with unit', 'true/false', 'implied by the field', 'enum value', 'format name', 'pattern', ...WRITTEN_VALUE_HOWS] as const
export type ValueHow = (typeof VALUE_HOWS)[number]

export interface ValueGround {
  words?: string
  value: Scalar
  how: ValueHow
}

/** The values a predicate compares with, each with the words that gave it and how they are written. */
export function valueGrounds(ref: ValueRef | undefined, predicate: Predicate, where: WhereWritten, from: number): ValueGround[] {
  switch (predicate.op) {
    case 'equals':
      return [scalarGround(predicate.value, ref, where, from)]
    case 'oneOf':
    case 'noneOf':
    case 'listNoneOf':
    case 'listAllOf':
    case 'listOnly':
      return predicate.values.map((value) => scalarGround(value, ref, where, from))
    case 'startsWith':
    case 'endsWith':
    case 'notStartsWith':
    case 'notEndsWith':
    case 'contains':
    case 'notContains':
    case 'keysNoneStartWith':
    case 'listNoneMatching':
      return predicate.values.map((value) => scalarGround(value, undefined, where, from))
    case 'imageRegistry':
    case 'imageRegistryDenied':
      return predicate.registries.map((value) => scalarGround(value, undefined, where, from))
    case 'compare':
      return predicate.bounds.map((bound) => boundGround(bound.value, bound.display, where, from))
    case 'cidrPrefix':
      return [boundGround(predicate.bits, `/${predicate.bits}`, where, from)]
    case 'compareField':
      return predicate.factor === undefined ? [] : [boundGround(predicate.factor, `${predicate.factor}x`, where, from)]
    case 'format': {
      // "must match ^cc-[0-9]{4}$": the pattern as written.
      const pattern = predicate.format === 'pattern' ? writtenNear(predicate.pattern, where, from) : undefined
      if (pattern) return [{ words: pattern.words, value: predicate.pattern, how: 'pattern' }]
      const words = where.near.map((text) => formatWords(predicate.format, text)).find((found) => found !== undefined)
      return [{ ...(words !== undefined ? { words } : {}), value: predicate.format === 'pattern' ? predicate.pattern : predicate.format, how: 'format name' }]
    }
    case 'imageTag': {
      const words = where.near.map((text) => /\b(?:latest|digests?|sha256|tag(?:ged|s)?)\b/i.exec(text)?.[0]).find((found) => found !== undefined)
      return [{ ...(words !== undefined ? { words } : {}), value: predicate.requirement, how: 'format name' }]
    }
    case 'hasElement':
    case 'namesElement':
      return predicate.where.flatMap((field) => valueGrounds(undefined, field.predicate, where, from))
    default:
      return []
  }
}

/** How authors write true and false; "on" and "off" only after a verb that gives them ("has to be on"), being words of the prose as often. */
const BOOLEAN_WORDS: Readonly<Record<string, RegExp>> = {
  true: /\b(?:true|enabled?)\b|(?<=\b(?:be|is|are|turned|switched|set)\s+)on\b/i,
  false: /\b(?:false|disabled?)\b|(?<=\b(?:be|is|are|turned|switched|set)\s+)off\b/i,
}

/** A value as written: true/false, a value of the field's enum, or as grounding.ts tells a written value from prose. */
export function scalarGround(value: Scalar, ref: ValueRef | undefined, where: WhereWritten, from: number): ValueGround {
  if (typeof value === 'number') return boundGround(value, undefined, where, from, false)
  if (typeof value === 'boolean') {
    const pattern = BOOLEAN_WORDS[String(value)]
    const words = pattern === undefined ? undefined : where.near.map((text) => pattern.exec(text)).find((found) => found !== null)
    if (words) return { words: quotedAround(words.input, words.index, words.index + words[0].length), value, how: 'true/false' }
    return { value, how: 'implied by the field' }
  }
  // ".internal.example.org" from "a subdomain of internal.example.org": the name the reader put a dot before.
  const found = writtenNear(value, where, from) ?? writtenNear(value.replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, ''), where, from)
  const written = valueWritten(value, [where.instruction, ...where.near].join('\n'))
  const quoted = written === 'quoted literal' || written === 'code literal'
  const how: ValueHow = ref?.enum?.includes(value) && !quoted ? 'enum value' : (written ?? 'read from the words')
  return { ...(found ? { words: found.words } : {}), value, how }
}

/** Words before a number that say which way it bounds ("at least", "no more than"), and after it ("or higher"). */
const CUE_BEFORE = /(?:\b(?:at (?:least|most)|no (?:more|less|fewer|greater|higher|lower|longer|shorter|broader|wider) than|not (?:more|less|fewer) than|(?:more|less|fewer|greater|higher|lower|longer|shorter) than|up to|over|under|above|below|between|exceed(?:s|ing)?|a (?:minimum|maximum) of|min(?:imum)?|max(?:imum)?)|>=|<=|≥|≤|<|>)\s*$/i
const CUE_AFTER = /^\s*(?:or (?:more|higher|greater|above|over|less|lower|fewer|below|under|smaller|larger|narrower|wider|longer|shorter)\b|(?:max(?:imum)?|min(?:imum)?|at (?:most|least))\b)/i

/** A number as written, with its unit and the words that say which way it bounds. */
export function boundGround(value: number | string, display: string | undefined, where: WhereWritten, from: number, bound = true): ValueGround {
  const found = [...where.near.map((text, index) => numberSpan(value, display, text, index === 0 ? from : 0)), numberSpan(value, display, where.instruction, 0)].find((item) => item !== undefined)
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

