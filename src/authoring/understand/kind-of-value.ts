import { kubernetesFields } from '../fields/kubernetes-fields.js'
import { kindsNamedIn, normalizeText } from '../text/clause.js'
import type { Condition } from './requirement.js'

/**
 * "LoadBalancer Services", "ExternalName Services": a value that one field of the kind can take,
 * written before the kind's name, says which objects of the kind are meant. Read as a condition
 * on that field; a value several fields of the kind take says nothing certain and is left alone
 * (coverage then refuses the sentence if nothing else uses it).
 */
export interface KindOfValue {
  condition: Condition
  span: [number, number]
}

const ASKS = /\b(?:must|should|has to|have to|needs? to|shall|(?:is|are) required to)\b/i
const JUDGES_THE_VALUE = /\b(?:not allowed|aren'?t allowed|isn'?t allowed|forbidden|banned|rejected|disallowed|prohibited|fine|ok|okay|in scope|out of scope|exempt|excluded|allowed)\b/i
const VALUE_BEFORE_NOUN = /\b([A-Z][a-z]+[A-Z][A-Za-z]*|[A-Z][a-z]{2,})\s+([A-Z]?[a-z]+[A-Za-z]*?s?)\b/g

export function readKindOfValue(text: string, kind: string): KindOfValue | undefined {
  // "NodePort services aren't allowed", "ClusterIP services are fine": the value itself is what is judged, not a scope.
  if (!ASKS.test(text) || JUDGES_THE_VALUE.test(text)) return undefined
  for (const match of text.matchAll(VALUE_BEFORE_NOUN)) {
    const [, value, noun] = match
    if (!value || !noun || !kindsNamedIn(normalizeText(noun)).includes(kind)) continue
    const holders = kubernetesFields(kind).filter((info) => info.enum?.includes(value) && !info.path.includes('[]') && info.path !== 'kind')
    if (holders.length !== 1 || !holders[0]) continue
    const segments = holders[0].path.split('.')
    const condition: Condition = {
      value: { scope: 'object', variants: [{ segments }], label: segments[segments.length - 1] ?? holders[0].path, type: 'string', explicit: true },
      predicate: { op: 'equals', value },
      missing: 'fail',
      text: `${value} ${noun}`,
    }
    return { condition, span: [match.index, match.index + value.length] }
  }
  return undefined
}
