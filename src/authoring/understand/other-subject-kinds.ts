import { kubernetesFields } from '../fields/kubernetes-fields.js'
import { resolveKubernetesField } from '../fields/resolve-kubernetes-field.js'
import { kubernetesRef } from './find-fields.js'
import type { Requirement, ValueRef } from './requirement.js'

/**
 * "PVCs and StatefulSets containing volumeClaimTemplates must define the storageClassName field":
 * the requirement read for the first kind holds for each other kind the sentence names as its
 * subject, on that kind's own field of the same name (`spec.storageClassName` of a claim,
 * `spec.volumeClaimTemplates[].spec.storageClassName` of a StatefulSet). Read only when every
 * field of the requirement has exactly one namesake in the other kind's schema and nothing else
 * (a condition, an exemption) would need one; otherwise undefined, and the sentence is refused.
 */
export function forOtherKinds(requirements: readonly Requirement[], kinds: readonly string[]): Requirement[] | undefined {
  const made: Requirement[] = []
  for (const kind of kinds) {
    for (const requirement of requirements) {
      if (requirement.subject.platform !== 'kubernetes' || requirement.conditions.length > 0 || requirement.exemptions.length > 0) return undefined
      if (requirement.predicate.op === 'compareField' || requirement.predicate.op === 'hasElement') return undefined
      const values: ValueRef[] = []
      for (const ref of requirement.values) {
        if (ref.scope !== 'object') return undefined
        const leaf = ref.variants[0]?.segments.at(-1)
        if (leaf === undefined || ref.variants.length !== 1) return undefined
        const found = resolveKubernetesField(kind, leaf).filter((info) => info.path.split(/[.[\]]+/).filter(Boolean).at(-1) === leaf)
        const [only] = found
        if (found.length !== 1 || !only || only.type !== (ref.type === 'int-or-string' ? only.type : (ref.type ?? only.type))) return undefined
        const other = kubernetesRef(only, ref.label)
        if (other.scope !== 'object') return undefined
        values.push({ ...other, ...(ref.explicit ? { explicit: true } : {}) })
      }
      made.push({ ...requirement, subject: { ...requirement.subject, kinds: [kind] }, values })
    }
  }
  return made
}

/**
 * "Services and Deployments must define the externalTrafficPolicy field": a kind the requirement
 * judges whose schema has no such field would fail every object of it. Returns the first kind and
 * field that do not fit, or undefined. Values read in each container are left to the pod kinds.
 */
export function kindWithoutField(requirement: Requirement): { kind: string; field: string } | undefined {
  if (requirement.subject.platform !== 'kubernetes' || requirement.subject.kinds.length < 2) return undefined
  for (const kind of requirement.subject.kinds) {
    const fields = kubernetesFields(kind)
    if (fields.length === 0) continue
    for (const ref of requirement.values) {
      if (ref.scope !== 'object') continue
      const path = (ref.variants[0]?.segments ?? []).join('.').replace(/\.\[\]/g, '[]')
      const known = fields.some((info) => info.path === path || (info.type === 'map' && path.startsWith(`${info.path}.`)))
      if (!known) return { kind, field: path }
    }
  }
  return undefined
}
