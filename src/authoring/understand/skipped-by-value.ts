import { kubernetesFields } from '../fields/kubernetes-fields.js'
import { resolveKubernetesField } from '../fields/resolve-kubernetes-field.js'
import { kindsNamedIn, normalizeText } from '../text/clause.js'
import { editDistance } from '../text/typos.js'
import { kubernetesRef } from './find-fields.js'
import type { Comparison, Condition, Requirement, ValueRef } from './requirement.js'

/**
 * "Deployments or StatefulSets with fewer than 3 replicas are skipped": the objects whose numeric
 * field compares so with the number are exempt. The field is the one the noun after the number
 * names in the schema (one field, an integer); an absent field is compared as its schema default
 * (replicas default to 1), or else is not exempt. The kinds the sentence names are returned too:
 * naming the judged kinds and more ("Deployments or StatefulSets") says which are judged.
 */
export interface SkippedByValue {
  exemption: Condition
  kinds: string[]
  /** Where in the sentence the reading was taken from. */
  span: [number, number]
}

const SKIPPED = /\b(?:with|having|that have|that run|running|whose)\s+(?:(\w+)\s+than|(at least|at most|no more than|no fewer than|no less than))\s+(\d+)\s+([a-z][\w-]*)\s+(?:are|is|will be|gets?|get)\s+(?:skipped|exempt(?:ed)?|excluded|ignored|not (?:checked|validated|evaluated))\b/i

const COMPARATIVES: Readonly<Record<string, Comparison>> = { less: '<', fewer: '<', lower: '<', smaller: '<', more: '>', greater: '>', higher: '>', larger: '>' }
const BOUNDS: Readonly<Record<string, Comparison>> = { 'at least': '>=', 'no fewer than': '>=', 'no less than': '>=', 'at most': '<=', 'no more than': '<=' }

export function readSkippedByValue(text: string, schemaKind: string): SkippedByValue | undefined {
  const match = SKIPPED.exec(text)
  if (!match?.[3] || !match[4]) return undefined
  const cmp = match[1] !== undefined ? comparativeOf(match[1]) : BOUNDS[(match[2] ?? '').toLowerCase()]
  if (!cmp) return undefined
  const fields = resolveKubernetesField(schemaKind, match[4]).filter((info) => info.type === 'integer' || info.type === 'number')
  const [field] = fields
  if (!field || fields.length !== 1) return undefined
  const bound = Number(match[3])
  const ref = { ...kubernetesRef(field, match[4]), explicit: true }
  const defaulted = typeof field.default === 'number' ? compare(field.default, cmp, bound) : false
  const exemption: Condition = { value: ref, predicate: { op: 'compare', bounds: [{ cmp, value: bound, display: `${match[3]} ${match[4]}` }] }, missing: defaulted ? 'pass' : 'fail', text: match[0] }
  const kinds = kindsNamedIn(normalizeText(text.slice(0, match.index))).filter((kind) => kubernetesFields(kind).some((info) => info.path === field.path))
  return { exemption, kinds, span: [match.index, match.index + match[0].length] }
}

/** Before "than" only a comparative fits: a word one letter off exactly one of them is it ("leass than" is "less than"). */
function comparativeOf(word: string): Comparison | undefined {
  const lower = word.toLowerCase()
  const exact = COMPARATIVES[lower]
  if (exact) return exact
  const near = Object.keys(COMPARATIVES).filter((candidate) => lower.length >= 4 && editDistance(lower, candidate, 1) <= 1)
  return near.length === 1 && near[0] !== undefined ? COMPARATIVES[near[0]] : undefined
}

function compare(left: number, cmp: Comparison, right: number): boolean {
  return cmp === '<' ? left < right : cmp === '<=' ? left <= right : cmp === '>' ? left > right : left >= right
}

/**
 * The kinds a skip sentence names, when they include every kind the requirement judges and more
 * ("Deployments or StatefulSets ... are skipped" after a requirement read for Deployments): the
 * requirement judges the others too, where each of its fields has the same path there.
 */
export function judgeNamedKinds(requirement: Requirement, kinds: readonly string[]): void {
  const own = requirement.subject.kinds
  if (requirement.subject.platform !== 'kubernetes' || own.length === 0 || !own.every((kind) => kinds.includes(kind))) return
  for (const kind of kinds) {
    if (own.includes(kind)) continue
    const paths = new Set(kubernetesFields(kind).map((info) => info.path))
    if (requirement.values.every((ref) => paths.has(fullPath(ref)))) requirement.subject = { ...requirement.subject, kinds: [...requirement.subject.kinds, kind] }
  }
}

function fullPath(ref: ValueRef): string {
  const inside = (ref.variants[0]?.segments ?? []).join('.').replace(/\.\[\]/g, '[]')
  return ref.scope === 'container' ? `${(ref.containers?.podSpec ?? ['spec']).join('.')}.containers[].${inside}` : inside
}
