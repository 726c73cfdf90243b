import { kubernetesFields, type FieldInfo } from '../fields/kubernetes-fields.js'
import { tokenize } from '../fields/resolve-kubernetes-field.js'
import { kubernetesMentions, kubernetesRef } from './find-fields.js'
import type { Condition, ValueRef } from './requirement.js'

/**
 * "Each rule must have a hostname" on an Ingress, "each containerPort must have a name": every
 * element of a list must set one of its own fields. The first noun names the list (`spec.rules`)
 * or a field of its elements (`ports[].containerPort`, then only elements that set it are judged);
 * the second names a field of the same element by its own name ("name"), or, for a text field,
 * by what it holds the name of ("hostname" is `host`). Undefined unless both are found that way in
 * the schema: a noun that names no element field leaves the clause to the other readings.
 */
const EACH_HAS = /^\s*(?:each|every|all)\s+(?:single\s+)?([\w`"'-]+(?:\s+[\w`"'-]+)?)\s+(?:defined\s+|listed\s+|declared\s+)?(?:(?:must|has to|have to|should|shall|needs? to)\s+(?:also\s+)?(?:have|define|specify|set|declare|carry)|needs|need|requires|require)\s+(?:an?\s+|its\s+|their\s+|its own\s+)?[`"']?([A-Za-z][\w-]*(?:\s+name)?)[`"']?(?:\s+(?:field|key|value))?(?:\s+(?:specified|defined|set|declared))?\s*[.!]?$/i

export interface EachElementHas {
  ref: ValueRef
  /** The element must set this field to be judged ("each containerPort": ports without one are not). */
  condition?: Condition
}

export function readEachElementHas(text: string, schemaKind: string, resolve: (noun: string) => ValueRef[]): EachElementHas | undefined {
  const match = EACH_HAS.exec(text)
  if (!match?.[1] || !match[2]) return undefined
  // "each port" on a Service is an element of `spec.ports`, not the `port` inside one: a list the noun names wins.
  const list = listNamed(match[1], schemaKind)
  if (list === null) return undefined
  const [owner, ...others] = list ? [list] : resolve(match[1]).filter((ref) => !ref.weak && (ref.scope === 'object' || ref.scope === 'container'))
  if (!owner || others.length > 0) return undefined
  const segments = owner.variants[0]?.segments ?? []
  // The list itself ("each rule": `spec.rules`), or a field its elements hold ("each containerPort": `ports[].containerPort`).
  const named = owner.type === 'array' ? undefined : segments.lastIndexOf('[]')
  if (named !== undefined && (named < 0 || named !== segments.length - 2 || owner.explicit !== true)) return undefined
  const element = named === undefined ? [...segments, '[]'] : segments.slice(0, named + 1)
  const inPod = owner.scope === 'container' ? `${(owner.containers?.podSpec ?? ['spec']).join('.')}.containers[].` : ''
  const prefix = `${inPod}${element.join('.').replace(/\.\[\]/g, '[]')}.`
  const children = kubernetesFields(schemaKind).filter((info) => info.path.startsWith(prefix) && !info.path.slice(prefix.length).includes('.') && !info.path.slice(prefix.length).includes('['))
  const child = childNamed(children, prefix, match[2])
  if (!child) return undefined
  const found = kubernetesRef(child, match[2])
  const ref: ValueRef = owner.scope === 'container' ? { ...found, scope: 'container', variants: [{ segments: [...element, child.path.slice(prefix.length)] }], ...(owner.containers ? { containers: owner.containers } : {}) } : found
  if (named === undefined) return { ref: { ...ref, explicit: true } }
  return { ref: { ...ref, explicit: true }, condition: { value: owner, predicate: { op: 'set' }, missing: 'fail', text: `${match[1]} is set` } }
}

/** Whether a noun names a list of the kind by its own name ("volume" for `spec.volumes`), or a pod's containers. */
export function namesList(noun: string, schemaKind: string): boolean {
  return listNamed(noun, schemaKind) !== undefined
}

/**
 * The list a noun names by its own name ("port" for `spec.ports`), nearest the top; null for a pod's
 * containers, which container rules judge (init and ephemeral ones included) rather than this reading.
 */
function listNamed(noun: string, schemaKind: string): ValueRef | null | undefined {
  const words = tokenize(noun).join(' ')
  if (/^(?:init |ephemeral )?container$/.test(words)) return null
  const lists = kubernetesFields(schemaKind).filter((info) => info.type === 'array' && tokenize(info.path.split('.').at(-1) ?? '').join(' ') === words)
  const nearest = lists.filter((info) => info.path.split('.').length === Math.min(...lists.map((other) => other.path.split('.').length)))
  const [only] = nearest
  if (only) return nearest.length === 1 ? kubernetesRef(only, noun) : undefined
  // "container port": the last word names the list, the words before say where it is (`containers[].ports`).
  const last = tokenize(noun).at(-1)
  const placed = kubernetesMentions(schemaKind, noun).filter((ref) => ref.type === 'array' && tokenize(ref.variants[0]?.segments.at(-1) ?? '').join(' ') === last)
  return placed.length === 1 ? placed[0] : undefined
}

/** The element field a noun names: its own name, or for a text field the thing it holds the name of ("hostname" is `host`). */
function childNamed(children: readonly FieldInfo[], prefix: string, noun: string): FieldInfo | undefined {
  const wanted = tokenize(noun).join(' ')
  const leafWords = (info: FieldInfo): string => tokenize(info.path.slice(prefix.length)).join(' ')
  const exact = children.filter((info) => leafWords(info) === wanted || info.path.slice(prefix.length).toLowerCase() === noun.toLowerCase())
  if (exact.length > 0) return exact.length === 1 ? exact[0] : undefined
  const holder = /^(.+?)\s?name$/i.exec(noun)?.[1]
  if (holder === undefined) return undefined
  const named = children.filter((info) => info.type === 'string' && leafWords(info) === tokenize(holder).join(' '))
  return named.length === 1 ? named[0] : undefined
}
