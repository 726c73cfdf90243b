import { kubernetesFields } from '../fields/kubernetes-fields.js'
import { scalarOf } from './read-values.js'
import type { ElementField, Predicate, ValueRef } from './requirement.js'

/**
 * "a toleration with key nvidia.com/gpu and effect NoSchedule", "a topologySpreadConstraint with
 * topologyKey topology.kubernetes.io/zone", "an `updates` entry for the `github-actions`
 * ecosystem": a list that must hold at least one element whose fields have these values.
 */
export interface ElementWith {
  list: ValueRef
  predicate: Extract<Predicate, { op: 'hasElement' }>
}

/** The element form was read, but part of the element's description was not: nothing may be dropped from it. */
export interface ElementUnread {
  problem: string
}

export interface ElementContext {
  platform: 'kubernetes' | 'terraform' | 'generic'
  schemaKind?: string
  /** Finds the list the noun names ("toleration" is spec.tolerations). */
  listNamed: (noun: string) => ValueRef | undefined
}

const WITH = /(?:^|\b(?:must|should|has to|have to|needs? to|shall|may|can)\b[^.;]*?\b|:\s*)(?:an?|one|at least one|any)\s+[`"']?([A-Za-z][\w-]*)[`"']?\s+(?:(?:entry|element|item|block)\s+)?with\s+(.+)$/i
const FOR = /\b(?:must|should|has to|have to|needs? to|shall)\b[^.;]*?\b(?:an?|one|at least one)\s+[`"']?([A-Za-z][\w-]*)[`"']?\s+(?:entry|element|item|block)\s+for\s+(?:the\s+)?[`"']?([\w./:-]+)[`"']?\s+([A-Za-z][\w-]*)\b/i
/** "must not have", "nobody may use", "no pod can carry": the element is forbidden rather than asked for. */
const NEGATED = /\b(?:not|never|no|nobody|none|no one)\b|n't\b/i
/** "no key", "without a key", "without any value": the element's field left unset. */
const ABSENT = /^(?:(?:and|but|with)\s+)?(?:no|without(?:\s+(?:an?|any))?)\s+[`"']?([A-Za-z]\w*)[`"']?(?:\s+(?:set|at all))?$/i
/** "using operator Exists", "whose effect is NoSchedule": a pair after a joining word. */
const JOINED = /^(?:using|with|whose|having|where)\s+(.+?)(?:\s+(?:is|are|equals?))?(\s+\S+)?$/i
/** The key is written as one (a dotted or slashed name, or quoted); "the GPU taint" names no key. */
const TOLERATES = /\btolerates?\s+(?:the|a|an|any)\s+(?:taint\s+with\s+(?:the\s+)?key\s+([`"']?[\w./-]*[./][\w./-]*[`"']?|[`"'][^`"']+[`"'])|([`"']?[\w-]*[./][\w./-]*[`"']?|[`"'][^`"']+[`"'])\s+taint)/gi
const AFTERTHOUGHT = /^(?:that'?s|that is|this is|because|since|so that|as|which is why)\b/i
const VERB = /\b(?:is|are|matches|match|must|should|can|may|will|gets?|has|have|fails?|means?|counts?)\b/i
/** "key nvidia.com/gpu", "effect: NoSchedule", "topologyKey = topology.kubernetes.io/zone". */
const PAIR = /^[`"']?([A-Za-z][\w]*)[`"']?\s*(?:[:=]|set to|of)?\s*[`"']([^`"']+)[`"']$|^[`"']?([A-Za-z][\w]*)[`"']?\s*(?:[:=]|set to|of)?\s*([\w./:*-]+)(?:\s+(?:on|in|inside|under|within)\s.*)?$/

export function readElementWith(text: string, context: ElementContext): ElementWith | ElementUnread | undefined {
  const forMatch = FOR.exec(text)
  if (forMatch?.[1] && forMatch[2] && forMatch[3]) {
    const list = listOf(forMatch[1], context)
    if (!list) return undefined
    const field: ElementField = { segments: [forMatch[3]], predicate: { op: 'equals', value: scalarOf(forMatch[2]) }, ...(context.platform === 'generic' ? { loose: true } : {}) }
    return { list, predicate: { op: 'hasElement', noun: forMatch[1], where: [field] } }
  }
  // "may tolerate the taint with key K", "must not tolerate the `K` taint": a toleration of that key, said with the verb.
  const trimmed = text.trim().replace(TOLERATES, (_, key?: string, other?: string) => `have a toleration with key ${key ?? other ?? ''}`)
  const match = WITH.exec(trimmed)
  if (!match?.[1] || !match[2]) return undefined
  const lead = trimmed.slice(0, match.index + match[0].indexOf(match[1]))
  const negated = NEGATED.test(lead)
  // "may have a toleration with ...", "any toleration with ...": a permission or a remark unless it forbids.
  if (!negated && (/\b(?:may|can)\b/i.test(lead) || /\bany\s+[`"']?\w+[`"']?\s+(?:(?:entry|element|item|block)\s+)?with\b/i.test(match[0]))) return undefined
  // "A toleration with operator Exists and no key matches every taint": a sentence about such elements, not one asked for.
  if (!/\b(?:must|should|has to|have to|needs? to|shall|may|can)\b|:/.test(text.slice(0, match.index + 1)) && VERB.test(match[2])) return undefined
  const list = listOf(match[1], context)
  if (!list) return undefined
  const where: ElementField[] = []
  for (const written of match[2].replace(/[.;]\s*$/, '').split(/\s*,\s*(?:and\s+)?|\s+and\s+|\s+(?=(?:without|but no|with no)\b)/)) {
    // "..., that's how the incident started": why, after the description, not part of it.
    if (where.length > 0 && AFTERTHOUGHT.test(written.trim())) break
    const field = elementField(written.trim(), list, context)
    if (field) {
      where.push(field)
      continue
    }
    // Pairs read so far and a part that is not one: the element would be described by less than the text says.
    if (where.length > 0) return { problem: `it describes the ${match[1]} as "${written.trim()}" too, which was not read as a field and value; which field of the ${match[1]} must hold what?` }
    return undefined
  }
  if (where.length === 0) return undefined
  return { list, predicate: { op: 'hasElement', noun: match[1], where, ...(negated ? { negated: true } : {}) } }
}

/** One part of an element's description: "key nvidia.com/gpu", "operator: Exists", "no key". */
function elementField(part: string, list: ValueRef, context: ElementContext): ElementField | undefined {
  const absent = ABSENT.exec(part)
  if (absent?.[1]) return isChild(list, absent[1], context) ? { segments: [absent[1]], predicate: { op: 'unset' } } : undefined
  const joined = JOINED.exec(part)
  const pair = PAIR.exec(part) ?? (joined?.[1] ? PAIR.exec(`${joined[1]}${joined[2] ?? ''}`.trim()) : null)
  const field = pair?.[1] ?? pair?.[3]
  const value = pair?.[2] ?? pair?.[4]
  if (!field || value === undefined || !isChild(list, field, context)) return undefined
  return { segments: [field], predicate: { op: 'equals', value: scalarOf(value) }, ...(context.platform === 'generic' && !/`/.test(part) ? { loose: true } : {}) }
}

function listOf(noun: string, context: ElementContext): ValueRef | undefined {
  const list = context.listNamed(noun)
  if (!list) return undefined
  if (context.platform === 'kubernetes') return list.type === 'array' ? list : undefined
  return list
}

/** In Kubernetes the element's field must be in the schema; other documents have none to ask. */
function isChild(list: ValueRef, field: string, context: ElementContext): boolean {
  if (context.platform !== 'kubernetes') return true
  const inPod = list.scope === 'container' ? `${(list.containers?.podSpec ?? ['spec']).join('.')}.containers[].` : ''
  const path = `${inPod}${(list.variants[0]?.segments ?? []).join('.')}[].${field}`
  return kubernetesFields(context.schemaKind ?? 'Pod').some((info) => info.path === path)
}
