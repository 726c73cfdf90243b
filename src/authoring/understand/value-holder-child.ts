import { kubernetesFields } from '../fields/kubernetes-fields.js'
import { kubernetesRef } from './find-fields.js'
import type { Predicate, ValueRef } from './requirement.js'

/**
 * "the hostPath must be /data": an object (`spec.hostPath`) compared with a written value is the one
 * field of it that can hold that value: a text field the schema leaves open (`path`), not one
 * whose enum lacks the value (`type`), nor a number, flag, list or object. Undefined when none or
 * several can: which one is meant is then not said.
 */
export function valueHolderChild(ref: ValueRef, predicate: Predicate, schemaKind: string): ValueRef | undefined {
  if (ref.type !== 'object' || (ref.scope !== 'object' && ref.scope !== 'container')) return undefined
  const values = predicate.op === 'equals' ? [predicate.value] : predicate.op === 'oneOf' || predicate.op === 'noneOf' ? predicate.values : []
  if (values.length === 0 || !values.every((value) => typeof value === 'string')) return undefined
  const inPod = ref.scope === 'container' ? `${(ref.containers?.podSpec ?? ['spec']).join('.')}.containers[].` : ''
  const prefix = `${inPod}${(ref.variants[0]?.segments ?? []).join('.').replace(/\.\[\]/g, '[]')}.`
  const holders = kubernetesFields(schemaKind).filter((info) => {
    const rest = info.path.slice(prefix.length)
    if (!info.path.startsWith(prefix) || rest.includes('.') || rest.includes('[') || info.type !== 'string') return false
    return info.enum === undefined || values.every((value) => info.enum?.includes(String(value)))
  })
  const [holder, ...others] = holders
  if (!holder || others.length > 0) return undefined
  const found = kubernetesRef(holder, `${ref.label} ${holder.path.slice(prefix.length)}`)
  if (ref.scope === 'container') return { ...found, scope: 'container', variants: [{ segments: [...(ref.variants[0]?.segments ?? []), holder.path.slice(prefix.length)] }], ...(ref.containers ? { containers: ref.containers } : {}), explicit: ref.explicit === true }
  return { ...found, explicit: ref.explicit === true }
}
