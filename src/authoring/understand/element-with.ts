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

export interface ElementContext {
  platform: 'kubernetes' | 'terraform' | 'generic'
  schemaKind?: string
  /** Finds the list the noun names ("toleration" is spec.tolerations). */
  listNamed: (noun: string) => ValueRef | undefined
}

const WITH = /(?:^|\b(?:must|should|has to|have to|needs? to|shall)\b[^.;]*?\b|:\s*)(?:an?|one|at least one)\s+[`"']?([A-Za-z][\w-]*)[`"']?\s+(?:(?:entry|element|item|block)\s+)?with\s+(.+)$/i
const FOR = /\b(?:must|should|has to|have to|needs? to|shall)\b[^.;]*?\b(?:an?|one|at least one)\s+[`"']?([A-Za-z][\w-]*)[`"']?\s+(?:entry|element|item|block)\s+for\s+(?:the\s+)?[`"']?([\w./:-]+)[`"']?\s+([A-Za-z][\w-]*)\b/i
const VERB = /\b(?:is|are|matches|match|must|should|can|may|will|gets?|has|have|fails?|means?|counts?)\b/i
/** "key nvidia.com/gpu", "effect: NoSchedule", "topologyKey = topology.kubernetes.io/zone". */
const PAIR = /^[`"']?([A-Za-z][\w]*)[`"']?\s*(?:[:=]|set to|of)?\s*[`"']([^`"']+)[`"']$|^[`"']?([A-Za-z][\w]*)[`"']?\s*(?:[:=]|set to|of)?\s*([\w./:*-]+)(?:\s+(?:on|in|inside|under|within)\s.*)?$/

export function readElementWith(text: string, context: ElementContext): ElementWith | undefined {
  const forMatch = FOR.exec(text)
  if (forMatch?.[1] && forMatch[2] && forMatch[3]) {
    const list = listOf(forMatch[1], context)
    if (!list) return undefined
    const field: ElementField = { segments: [forMatch[3]], predicate: { op: 'equals', value: scalarOf(forMatch[2]) }, ...(context.platform === 'generic' ? { loose: true } : {}) }
    return { list, predicate: { op: 'hasElement', noun: forMatch[1], where: [field] } }
  }
  const match = WITH.exec(text.trim())
  if (!match?.[1] || !match[2]) return undefined
  // "A toleration with operator Exists and no key matches every taint": a sentence about such elements, not one asked for.
  if (!/\b(?:must|should|has to|have to|needs? to|shall)\b|:/.test(text.slice(0, match.index + 1)) && VERB.test(match[2])) return undefined
  const list = listOf(match[1], context)
  if (!list) return undefined
  const where: ElementField[] = []
  // Pairs from the start, up to the first part that is not one ("..., using operator Exists").
  for (const part of match[2].replace(/[.;]\s*$/, '').split(/\s*,\s*(?:and\s+)?|\s+and\s+/)) {
    const pair = PAIR.exec(part.trim())
    const field = pair?.[1] ?? pair?.[3]
    const value = pair?.[2] ?? pair?.[4]
    if (!field || value === undefined || !isChild(list, field, context)) break
    where.push({ segments: [field], predicate: { op: 'equals', value: scalarOf(value) }, ...(context.platform === 'generic' && !/`/.test(part) ? { loose: true } : {}) })
  }
  return where.length > 0 ? { list, predicate: { op: 'hasElement', noun: match[1], where } } : undefined
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
