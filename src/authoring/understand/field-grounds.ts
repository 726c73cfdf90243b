/**
 * The words that named a field a rule judges, quoted from the text, and how they name it: the
 * field half of a rule's grounds (rule-grounds.ts).
 */
import { KEY_HOWS, keyWritten, mapKey } from './grounding.js'
import { codeTokens } from './find-fields.js'
import { nameWords } from './name-words.js'
import { writtenNear, inBackticks, writtenSpan, type WhereWritten } from './written-words.js'
import { FIELD_HOWS, MAP_NOUNS, valuesCompared, type FieldHow, type MapNoun, type Predicate, type ValueRef } from './requirement.js'

export interface FieldGround {
  /** As written in the text; absent when no words of it name the field. */
  words?: string
  /** The field's path (`spec.containers[*].securityContext.runAsUser`). */
  field: string
  how: FieldHow | 'implied by the sentence'
}

/** Every way a field ground says its words name the field, for the API's schema. */
export const FIELD_GROUND_HOWS: readonly FieldGround['how'][] = [...FIELD_HOWS, 'implied by the sentence', ...MAP_NOUNS.flatMap((noun) => KEY_HOWS.map((how) => `${noun} key, ${how}` as const))]

const MAP_NOUN: Readonly<Record<string, MapNoun>> = { labels: 'label', annotations: 'annotation', tags: 'tag' }

/**
 * The words that named a field: a map's key as written; the words the reader found it by; else
 * its label, path, own name or the words of its name, in the sentence, then elsewhere in the
 * text; else the values written, when only its enum holds them ("NodePort" names `spec.type`).
 */
export function fieldGround(ref: ValueRef, predicate: Predicate, where: WhereWritten, from = 0): FieldGround {
  const field = fieldPath(ref)
  const key = mapKey(ref)
  if (key !== undefined) {
    const noun = MAP_NOUN[ref.variants[0]?.segments.at(-2) ?? ''] ?? 'label'
    const found = writtenNear(key, where, from)
    const how = keyWritten(key, [where.instruction, ...where.near].join('\n')) ?? 'introduced as one'
    return { ...(found ? { words: found.words } : {}), field, how: `${noun} key, ${how}` }
  }
  if (ref.named) {
    const found = writtenNear(ref.named.words, where, from)
    if (found) return { words: found.words, field, how: found.near ? ref.named.how : 'named in an earlier sentence' }
  }
  const segments = (ref.variants[0]?.segments ?? []).filter((segment) => segment !== '[]')
  const leaf = segments.at(-1) ?? ''
  const candidates = [ref.label, segments.join('.'), leaf, nameWords(leaf).join(' ')].filter((candidate) => candidate.trim() !== '')
  for (const text of where.near) {
    for (const candidate of candidates) {
      const found = writtenSpan(candidate, text, text === where.near[0] ? from : 0)
      if (found) return { words: found.words, field, how: writtenHow(found.words, ref) }
    }
  }
  const enumValue = valuesCompared(predicate).find((value) => ref.enum?.includes(value) && writtenNear(value, where, from)?.near === true)
  if (enumValue !== undefined) return { words: writtenNear(enumValue, where, from)?.words ?? enumValue, field, how: 'enum value' }
  // "liveness and readiness probes": the words of one field stand apart, around another's; the first of them is where it is named.
  const word = [ref.named?.words ?? '', ref.label, nameWords(leaf).join(' ')].flatMap((candidate) => candidate.split(/[^A-Za-z0-9]+/)).find((candidate) => candidate.length >= 4 && where.near.some((text) => writtenSpan(candidate, text) !== undefined))
  const single = word === undefined ? undefined : writtenNear(word, where, from)
  if (single?.near === true) return { words: single.words, field, how: ref.named?.how ?? writtenHow(single.words, ref) }
  for (const candidate of candidates) {
    const found = writtenSpan(candidate, where.instruction)
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
function fieldPath(ref: ValueRef): string {
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

