import type { Requirement } from './requirement.js'

/**
 * Whether a requirement forbids a field every object of its kind has: "`spec.containers` must not
 * be set" for a Pod, "`rules` must not be set" for a Role. Such a rule rejects every object, so
 * the words that named the field meant something inside it ("CPU limits" in a container, a verb in
 * a rule's verbs); the sentence refuses rather than blocking every deploy. Requiring the kind the
 * rule judges is the mirror image: it passes every object and checks nothing.
 */
const EVERY_OBJECT_HAS: Readonly<Record<string, readonly string[]>> = {
  Pod: ['spec.containers', 'spec.containers.[]', 'metadata'],
  Role: ['rules', 'rules.[]', 'rules.[].verbs', 'rules.[].apiGroups', 'rules.[].resources'],
  ClusterRole: ['rules', 'rules.[]', 'rules.[].verbs'],
  Service: ['spec.ports', 'spec.ports.[]'],
  Deployment: ['spec.template', 'spec.template.spec.containers', 'spec.selector'],
}

/** Every container has a name and an image. */
const EVERY_CONTAINER_HAS = ['name', 'image']

export function forbidsWhatEveryObjectHas(requirement: Requirement): string | undefined {
  if (requirement.subject.platform !== 'kubernetes') return undefined
  // Where a condition or exemption narrows the rule, it does not reject every object.
  if (requirement.conditions.length > 0 || requirement.exemptions.length > 0) return undefined
  const kinds = requirement.subject.kinds.length > 0 ? requirement.subject.kinds : ['Pod']
  // "Containers in a Pod are forbidden from ...": `kind` must not be the kind the rule judges.
  const { predicate } = requirement
  if (predicate.op === 'noneOf' && requirement.values.some((ref) => ref.variants.some((variant) => variant.segments.join('.') === 'kind')) && kinds.every((kind) => predicate.values.includes(kind))) {
    return `it forbids the kind ${kinds.join(' and ')} itself, so it would reject everything it judges; what of a ${kinds.join(' or ')} is forbidden?`
  }
  // "`kind` must be one of Pod" for a rule judging Pods: it passes everything it judges, so the words meant something else.
  const requiredKinds = predicate.op === 'equals' ? [predicate.value] : predicate.op === 'oneOf' ? predicate.values : []
  if (requiredKinds.length > 0 && requirement.values.some((ref) => ref.variants.some((variant) => variant.segments.join('.') === 'kind')) && kinds.every((kind) => requiredKinds.includes(kind))) {
    return `it requires the kind ${kinds.join(' and ')} of what it judges, which every one has, so it would check nothing; what of a ${kinds.join(' or ')} is required?`
  }
  if (predicate.op !== 'unset') return undefined
  for (const ref of requirement.values) {
    for (const variant of ref.variants) {
      const path = variant.segments.join('.')
      const everywhere = ref.scope === 'container' ? EVERY_CONTAINER_HAS.includes(path) : kinds.some((kind) => EVERY_OBJECT_HAS[kind]?.includes(path))
      if (everywhere) return `it forbids \`${path}\`, which every ${ref.scope === 'container' ? 'container' : kinds.join(' and ')} has, so it would reject everything; what inside \`${path}\` is forbidden?`
    }
  }
  return undefined
}
