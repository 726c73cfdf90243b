import { kubernetesFields } from '../fields/kubernetes-fields.js'
import type { Predicate, ValueRef } from './requirement.js'

/**
 * "the accessModes must be set to ReadWriteOncePod", "policyTypes may only be Ingress": a list of
 * strings whose items the schema restricts to an enum, compared with values of that enum, is
 * judged entry by entry (every entry one of the values, or none of them). Undefined unless every
 * value is in the items' enum: a value the schema does not know there is no reading of the list.
 */
export function enumListReading(refs: readonly ValueRef[], predicate: Predicate, schemaKind: string): { refs: ValueRef[]; predicate: Predicate } | undefined {
  const values = predicate.op === 'equals' ? [predicate.value] : predicate.op === 'oneOf' || predicate.op === 'noneOf' ? predicate.values : undefined
  if (!values || values.length === 0 || !values.every((value) => typeof value === 'string') || !refs.some((ref) => ref.type === 'array')) return undefined
  const fields = kubernetesFields(schemaKind)
  const read: ValueRef[] = []
  for (const ref of refs) {
    if (ref.type !== 'array') {
      read.push(ref)
      continue
    }
    const inPod = ref.scope === 'container' ? `${(ref.containers?.podSpec ?? ['spec']).join('.')}.containers[].` : ref.scope === 'object' ? '' : undefined
    if (inPod === undefined) return undefined
    const items = fields.find((info) => info.path === `${inPod}${(ref.variants[0]?.segments ?? []).join('.').replace(/\.\[\]/g, '[]')}[]`)
    if (!items?.enum || !values.every((value) => items.enum?.includes(String(value)))) return undefined
    read.push({ ...ref, enum: items.enum })
  }
  // A list equal to one value is a list whose every entry is it.
  return { refs: read, predicate: predicate.op === 'equals' ? { op: 'oneOf', values: [predicate.value] } : predicate }
}
