import type { Platform } from '../catalog/rule-template.js'
import { codeTokens, kubernetesMentions, kubernetesRef, literalRef, pathSegments } from './find-fields.js'
import { comparisonScale, readFormat, readPredicate, type PredicateReading } from './read-predicate.js'
import { fieldDurationUnit, readValueList } from './read-values.js'
import type { Predicate, Requirement, Scalar, ValueRef } from './requirement.js'
import { kubernetesFields } from '../fields/kubernetes-fields.js'

/**
 * Reads the requirements one clause states: the fields it names, the predicate after them, the
 * values. Modifier phrases were blanked out by the caller. Several requirements come out of
 * "storage_encrypted must be true, publicly_accessible must be false".
 */
export interface ClauseContext {
  platform: Platform
  kinds: string[]
  /** The kind whose schema resolves Kubernetes fields. */
  schemaKind?: string
  /** The fields of the requirement before, for "Allow is rejected" and "... it must be https". */
  previous?: ValueRef[]
}

export interface ClauseRequirements {
  requirements: Requirement[]
  /** A field was named with a requirement verb but nothing to check it against. */
  problem?: string
  /** The clause asks for something (modal, negation) even if nothing was read. */
  asks: boolean
}

const ASKS = /\b(must|mustn'?t|has to|have to|needs?|should|shall|required?|requires|mandatory|not allowed|isn'?t allowed|aren'?t allowed|disallow(ed)?|forbid(den)?|prohibit(ed)?|banned?|reject(ed)?|denied|deny|block(ed)?|never|no|can'?t|cannot|may not|only|at least|at most|max|min|limited|exceed|between|one of|nobody|don'?t)\b/

/** Verbs after which the field comes: "must set X", "must define both X and Y", "need X". */
const FIELD_VERB = /\b(?:must|should|has to|have to|needs? to|shall|to)?\s*(?:set|define|declare|specify|have|has|carry|include|provide|use|configure|list|drop|add)\s+|\bneeds?\s+(?=\w)|\brequires?\s+/g

const NEGATIVE_EXISTENCE = /\b(?:no|never (?:set|use)|nobody (?:sets?|uses?)|don'?t (?:set|use|define)|do not (?:set|use|define)|disallow|forbid|ban|block|reject|deny|prohibit|must not (?:set|use|define|have|declare|specify|add|include)|may not (?:set|use|define|have)|can'?t (?:set|use|define|have))\s+/g

const REJECTED_AFTER = /\b(?:is|are|gets?(?: \w+)?|should be|must be|will be|to be|be)\s+(?:rejected|denied|blocked|banned|disallowed|forbidden|prohibited|not allowed|not permitted|refused)\b|\b(?:isn'?t|aren'?t|is not|are not) (?:allowed|permitted|acceptable|ok|okay)\b|\bdoesn'?t cut it\b|\bis a violation\b|\bnot ok\b/

export function readClause(text: string, context: ClauseContext): ClauseRequirements {
  const lower = text.toLowerCase()
  const asks = ASKS.test(lower) || REJECTED_AFTER.test(lower)
  const requirements: Requirement[] = []
  const subject = { platform: context.platform, kinds: [...context.kinds] }
  const make = (values: ValueRef[], predicate: Predicate, missing: 'pass' | 'fail'): Requirement => ({
    sentence: text,
    subject,
    values,
    predicate,
    combine: 'all',
    missing,
    conditions: [],
    exemptions: [],
  })

  // Labels, annotations and tags: keys are the fields.
  const mapReading = readMapKeys(text, lower, context)
  if (mapReading) return { requirements: mapReading.map((entry) => make(entry.values, entry.predicate, entry.missing)), asks: true }

  // "X set to true gets the pod rejected", "anything with securityContext.privileged: true should be rejected".
  const rejected = REJECTED_AFTER.exec(lower)
  const reading = readPredicate(text, lower)
  if (rejected && (!reading || reading.cueIndex > rejected.index - 60)) {
    const before = text.slice(0, rejected.index)
    const fields = fieldsIn(before, context)
    const valueAt = /(?:set to|[:=]|to be|is|are)\s*[`"']?([\w./%-]+)[`"']?\s*$/i.exec(before.trim())
    const refs = fields.length > 0 ? fields : (context.previous ?? [])
    if (refs.length > 0) {
      if (valueAt?.[1] && !fields.some((field) => field.label.endsWith(valueAt[1] ?? ''))) {
        return { requirements: [make(refs, { op: 'noneOf', values: [scalar(valueAt[1])] }, 'pass')], asks }
      }
      const list = readValueList(before.replace(/^.*?\b(?:and|so is|also|even)\b/i, ''))
      const values = fields.length === 0 ? list.values.filter((value) => typeof value !== 'string' || !/^(it|this|that|they|anything|any)$/i.test(value)) : []
      if (values.length > 0) return { requirements: [make(refs, { op: 'noneOf', values: values.map(normal) }, 'pass')], asks }
      if (fields.length > 0) return { requirements: [make(fields, { op: 'unset' }, 'pass')], asks }
    }
  }

  if (reading) {
    const fields = fieldsIn(text.slice(0, reading.cueIndex), context)
    const afterFields = fields.length === 0 ? fieldsAfterVerb(text, lower, context) : []
    const refs = fields.length > 0 ? fields : afterFields.length > 0 ? afterFields : []
    if (refs.length === 0 && context.previous && /^\s*(it|they|this|that|the value|which|and|, )?\s*$/i.test(text.slice(0, reading.cueIndex).replace(/\b(must|has to|have to|needs? to|should|also|both|all|each|every|one|of|them|its|value)\b/gi, ''))) {
      return { requirements: [make(context.previous, reading.predicate, missingFor(reading, reading.predicate, context.previous))], asks }
    }
    if (refs.length > 0) {
      const predicate = scaled(reading, refs)
      const formatted = formatInsteadOfEquals(predicate, text.slice(reading.cueIndex))
      return { requirements: [make(refs, formatted, missingFor(reading, formatted, refs))], asks }
    }
  }

  // "must set X", "must define both X and Y", "need X": the field after the verb, required.
  const setFields = fieldsAfterVerb(text, lower, context)
  const format = readFormat(lower, text)
  if (setFields.length > 0 && /\b(must|should|has to|have to|needs?|shall|required?|requires|mandatory)\b/.test(lower) && !/\b(must not|mustn'?t|should not|can'?t|cannot|may not)\b/.test(lower)) {
    const assigned = /[:=]\s*[`"']?([\w./-]+)[`"']?/.exec(text.slice(text.search(/\b(set|define|declare|specify|have|has|carry|use)\b/i)))
    if (assigned?.[1] && setFields.length === 1) return { requirements: [make(setFields, { op: 'equals', value: normal(scalar(assigned[1])) }, 'fail')], asks }
    return { requirements: [make(setFields, format ? { op: 'format', ...format } : { op: 'set' }, 'fail')], asks }
  }

  // "no hostAliases", "disallow hostPath volumes", "nobody sets spec.externalIPs".
  const negative = firstMatch(NEGATIVE_EXISTENCE, lower)
  if (negative) {
    const fields = fieldsIn(text.slice(negative.index + negative.length), context, true)
    if (fields.length > 0) return { requirements: [make(fields, { op: 'unset' }, 'pass')], asks }
  }

  // "owner as an email address", "version as semver".
  if (format) {
    const fields = fieldsIn(text, context)
    if (fields.length > 0) return { requirements: [make(fields, { op: 'format', ...format }, 'fail')], asks }
  }

  const named = fieldsIn(text, context)
  if (asks && named.length > 0 && requirements.length === 0 && /\b(must|has to|have to|needs? to|should|shall|can'?t|cannot|may not)\b/.test(lower)) {
    return { requirements: [], problem: `found a requirement on ${named.map((ref) => `\`${ref.variants[0]?.segments.join('.') ?? ref.label}\``).join(', ')} but no value or condition to check it against`, asks }
  }
  return { requirements, asks }
}

function firstMatch(pattern: RegExp, text: string): { index: number; length: number } | undefined {
  const global = new RegExp(pattern.source, 'g')
  const match = global.exec(text)
  return match ? { index: match.index, length: match[0].length } : undefined
}

function scalar(word: string): Scalar {
  if (/^-?\d+(\.\d+)?$/.test(word)) return Number(word)
  if (/^(true|false)$/i.test(word)) return word.toLowerCase() === 'true'
  return word
}

function normal(value: Scalar): Scalar {
  if (typeof value !== 'string') return value
  if (/^(on|enabled)$/.test(value)) return true
  if (/^(off|disabled)$/.test(value)) return false
  return value
}

/** "must be https" or "must be an email" read as equals: the format is meant. */
function formatInsteadOfEquals(predicate: Predicate, complement: string): Predicate {
  if (predicate.op !== 'equals' && predicate.op !== 'oneOf' && predicate.op !== 'set') return predicate
  const head = complement.slice(0, 80)
  const format = readFormat(head.toLowerCase(), head)
  if (!format) return predicate
  if (predicate.op === 'set' || predicate.op === 'oneOf' || (typeof predicate.value === 'string' && /^(a|an|the|https?|valid|semver|email|lowercase|snake_case|formatted)/i.test(predicate.value))) return { op: 'format', ...format }
  return predicate
}

/** Numbers in another unit than the field's: scale the field to the author's unit. */
function scaled(reading: PredicateReading, refs: ValueRef[]): Predicate {
  if (reading.predicate.op !== 'compare' || !reading.unit || reading.unit.kind !== 'duration') return reading.predicate
  for (const ref of refs) {
    for (const variant of ref.variants) {
      const unit = fieldDurationUnit(variant.segments)
      const scale = comparisonScale(unit, reading.unit)
      if (scale !== 1) variant.scale = scale
    }
  }
  return reading.predicate
}

/** Absent values: what the sentence says, else the schema default judged, else fail for positive asks and pass for negative ones. */
function missingFor(reading: PredicateReading, predicate: Predicate, refs: ValueRef[]): 'pass' | 'fail' {
  if (reading.missing) return reading.missing
  if (predicate.op === 'unset' || predicate.op === 'noneOf' || predicate.op === 'notContains' || predicate.op === 'notStartsWith' || predicate.op === 'notEndsWith') return 'pass'
  const defaults = refs.map((ref) => ref.schemaDefault)
  if (defaults.every((value) => value !== undefined) && predicate.op === 'equals') return defaults.every((value) => value === predicate.value) ? 'pass' : 'fail'
  return 'fail'
}

const MAP_WORD = /\b(labels?|labell?ed|annotations?|annotated|tags?|tagged)\b/

interface MapEntry {
  values: ValueRef[]
  predicate: Predicate
  missing: 'pass' | 'fail'
}

/**
 * "must carry the labels app.kubernetes.io/name, team and tier", "tagged with Owner, CostCenter
 * and Environment", "annotated with example.com/owner: a contact email", "label X set to Y".
 */
function readMapKeys(text: string, lower: string, context: ClauseContext): MapEntry[] | undefined {
  const word = MAP_WORD.exec(lower)
  if (!word) return undefined
  const kindWord = word[1] ?? ''
  const annotation = kindWord.startsWith('annot')
  const tag = kindWord.startsWith('tag')
  const container = tag ? ['tags'] : ['metadata', annotation ? 'annotations' : 'labels']
  const after = text.slice(word.index + word[0].length)
  const before = text.slice(0, word.index)
  const keyPattern = /`([^`]+)`|"([^"]+)"|'([^']+)'|\b([A-Za-z][\w.-]*(?:\/[\w.-]+)?)\b/g
  const keys: string[] = []
  const stopAt = after.search(/\b(?:set to|must be|has to|have to|needs? to be|should be|with (?:a )?value|(?:is|are) (?:set|one of)|one of|in the format|format|=|:\s)/i)
  const listText = (stopAt >= 0 ? after.slice(0, stopAt) : after).replace(/^\s*(?:with|:|the|these|following|labels?|keys?|named|called|on|of)+\s*/i, '')
  for (const match of listText.matchAll(keyPattern)) {
    const key = match[1] ?? match[2] ?? match[3] ?? match[4] ?? ''
    if (/^(and|or|the|a|an|on|of|with|these|following|labels?|keys?|named|called|itself|not|just|pod|template|deployment|deployments|resource|resources|metadata|both|all|every|each|must|plus|in|key|value|set|to|its|their|it|present|required|too|also)$/i.test(key)) continue
    if (/^[A-Z]/.test(key) && !tag && !/[./-]/.test(key) && key.length > 12) break
    keys.push(key)
    if (keys.length > 12) break
  }
  // "an `owner` label" / "a `cost-center` label": the key comes before the word.
  if (keys.length === 0) {
    const beforeKey = /[`"']([^`"']+)[`"']\s*$|\b([a-z][\w./-]*)\s*$/i.exec(before.trim())
    const key = beforeKey?.[1] ?? beforeKey?.[2]
    if (key && !/^(the|a|an|with|every|all|must|be|have|has|these|required|following|any|no|and)$/i.test(key)) keys.push(key)
  }
  if (keys.length === 0) return undefined
  const refs = keys.map((key): ValueRef => (tag ? { scope: 'resource', variants: [{ segments: ['tags', key] }], label: `tag ${key}`, type: 'string' } : { scope: 'object', variants: [{ segments: [...container, key] }], label: `${annotation ? 'annotation' : 'label'} ${key}`, type: 'string' }))
  if (context.platform === 'generic') for (const ref of refs) ref.scope = 'object'
  const rest = stopAt >= 0 ? after.slice(stopAt) : ''
  const restLower = rest.toLowerCase()
  const reading = rest ? readPredicate(rest, restLower) : undefined
  const format = readFormat(restLower, rest)
  if (reading && (reading.predicate.op !== 'equals' || !format)) {
    const predicate = formatInsteadOfEquals(reading.predicate, rest.slice(reading.cueIndex))
    return [{ values: refs, predicate, missing: reading.missing ?? (predicate.op === 'noneOf' ? 'pass' : 'fail') }]
  }
  if (format) return [{ values: refs, predicate: { op: 'format', ...format }, missing: 'fail' }]
  if (/\b(no|not|never|without|must not|mustn'?t|can'?t)\b/.test(lower.slice(0, word.index)) && !/\bnot just\b/.test(lower)) return [{ values: refs, predicate: { op: 'unset' }, missing: 'pass' }]
  return [{ values: refs, predicate: { op: 'set' }, missing: 'fail' }]
}

/** Fields named in a piece of text, resolved for the subject; the text before the predicate's cue. */
export function fieldsIn(text: string, context: ClauseContext, firstOnly = false): ValueRef[] {
  const refs: ValueRef[] = []
  const seen = new Set<string>()
  const add = (ref: ValueRef): void => {
    const key = `${ref.scope}:${ref.variants.map((variant) => variant.segments.join('.')).join('|')}`
    if (!seen.has(key)) {
      seen.add(key)
      refs.push(ref)
    }
  }
  for (const token of codeTokens(text)) {
    for (const ref of refsForToken(token.token, context)) add(ref)
    if (firstOnly && refs.length > 0) break
  }
  if (refs.length > 0 || context.platform !== 'kubernetes') {
    if (refs.length === 0 && context.platform === 'generic') for (const ref of genericWordRefs(text)) add(ref)
    return refs
  }
  // Words: "memory limit", "CPU and memory requests", "readiness probe".
  for (const phrase of phrasesIn(text)) {
    const found = kubernetesMentions(context.schemaKind ?? 'Pod', phrase)
    const first = found[0]
    if (first) add(first)
    if (firstOnly && refs.length > 0) break
  }
  return refs
}

function refsForToken(token: string, context: ClauseContext): ValueRef[] {
  const segments = pathSegments(token)
  if (context.platform === 'kubernetes') {
    const kind = context.schemaKind ?? 'Pod'
    const found = kubernetesMentions(kind, token)
    if (found.length > 0) return found.slice(0, found.length > 1 && samePlace(found) ? 2 : 1)
    return []
  }
  if (context.platform === 'terraform') {
    if (!/^[a-z][a-z0-9_]*(\.[a-z0-9_[\]]+)*$/.test(token) || /^(aws|google|azurerm)_/.test(token)) return []
    return [literalRef(segments, 'resource', token)]
  }
  return [withVariants(literalRef(segments, 'object', token))]
}

/** Two candidates of one field at pod and container level (runAsNonRoot): both are kept, the reader picks. */
function samePlace(refs: ValueRef[]): boolean {
  const [a, b] = refs
  if (!a || !b) return false
  return a.scope !== b.scope && a.variants[0]?.segments.at(-1) === b.variants[0]?.segments.at(-1)
}

/** Name variants of a generic field's last segment: timeout_seconds, timeoutSeconds, timeoutMs. */
function withVariants(ref: ValueRef): ValueRef {
  return ref
}

const STOP_WORDS = new Set('a an the every each all any its their our must should be is are have has to of for in on at with and or both also only set define declare specify need needs container containers pod pods app application main init explicitly explicit that this these those'.split(' '))

/** Candidate noun phrases for word-based resolution: runs of non-stop words, split at "and" ("CPU and memory requests" gives "CPU requests" and "memory requests"). */
function phrasesIn(text: string): string[] {
  const words = text
    .replace(/[^A-Za-z0-9\s-]/g, ' ')
    .split(/\s+/)
    .filter((word) => word.length > 0)
  const phrases: string[] = []
  let run: string[] = []
  const flush = (): void => {
    if (run.length > 0) phrases.push(run.join(' '))
    run = []
  }
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index] ?? ''
    const lowerWord = word.toLowerCase()
    if (lowerWord === 'and' || lowerWord === 'plus' || lowerWord === 'or') {
      // "CPU and memory requests": the first item borrows the noun after the second.
      const next = words[index + 1]
      const nounAfter = words[index + 2]
      if (run.length === 1 && next && nounAfter && !STOP_WORDS.has(nounAfter.toLowerCase())) phrases.push(`${run[0] ?? ''} ${nounAfter}`)
      flush()
      continue
    }
    if (STOP_WORDS.has(lowerWord)) {
      flush()
      continue
    }
    run.push(word)
  }
  flush()
  return phrases.filter((phrase) => phrase.length > 2)
}

/** The fields after "must set / define / declare / have / need". */
function fieldsAfterVerb(text: string, lower: string, context: ClauseContext): ValueRef[] {
  const verb = new RegExp(FIELD_VERB.source, 'g')
  for (let match = verb.exec(lower); match; match = verb.exec(lower)) {
    const rest = text.slice(match.index + match[0].length)
    const refs = fieldsIn(rest.split(/[.;]|\b(?:if|when|unless|except|but)\b/)[0] ?? rest, context)
    if (refs.length > 0) return refs
  }
  return []
}

/** Generic documents named by words ("the timeout"): no path was written, so none is guessed. */
function genericWordRefs(_text: string): ValueRef[] {
  return []
}

export { kubernetesRef, kubernetesFields }
