import { kubernetesFields, type FieldInfo } from '../fields/kubernetes-fields.js'
import { kubernetesRef, pathSegments } from './find-fields.js'
import type { Condition, ElementField, Predicate, ValueRef } from './requirement.js'

/**
 * Which volumes a container mounts: its `volumeMounts[]` name volumes of the pod
 * (`spec.volumes[]`), and a volume's type is the one source field it sets (`hostPath`,
 * `emptyDir`, `secret`, `nfs`: the object fields of a volume in the schema). "<type> volume" in a
 * sentence names the type; "containers mounting an emptyDir volume" are those with a mount whose
 * name names such a volume, and "hostPath volumes must be mounted read-only" asks it of each
 * mount of one.
 */
interface VolumeType {
  /** The pod's volumes, from the object's root (`spec.volumes`, `spec.template.spec.volumes`). */
  volumes: string[]
  /** The container field listing the mounts (`spec.containers[].volumeMounts`). */
  mounts: FieldInfo
  /** The volume's source field (`hostPath`). */
  type: string
}

/** "hostPath volumes", "an emptyDir volume", "a `secret` volume", "NFS volumes": a word right before "volume". */
const TYPE_BEFORE_VOLUME = /(?<![\w./-])`?([A-Za-z][A-Za-z]*)`?\s+volumes?\b/g

/** The one volume type a piece of text names, when it names exactly one. */
export function volumeTypeNamed(text: string, schemaKind: string): VolumeType | undefined {
  const fields = kubernetesFields(schemaKind)
  const list = fields.find((info) => info.type === 'array' && /(?:^|\.)volumes$/.test(info.path) && !info.path.includes('[]') && fields.some((child) => child.path === `${info.path}[].name`))
  const mounts = fields.find((info) => info.type === 'array' && /(?:^|\.)containers\[\]\.volumeMounts$/.test(info.path) && !/(?:init|ephemeral)Containers/.test(info.path))
  if (!list || !mounts) return undefined
  const types = new Map(fields.filter((info) => info.type === 'object' && info.path.startsWith(`${list.path}[].`) && !info.path.slice(list.path.length + 3).includes('.')).map((info) => [(info.path.split('.').at(-1) ?? '').toLowerCase(), info.path.split('.').at(-1) ?? '']))
  const named = new Set<string>()
  for (const match of text.matchAll(TYPE_BEFORE_VOLUME)) {
    const type = types.get((match[1] ?? '').toLowerCase())
    if (type) named.add(type)
  }
  const [type] = named
  return named.size === 1 && type ? { volumes: pathSegments(list.path), mounts, type } : undefined
}

/** A mount's `name` names a volume of the type. */
function namesVolumeOf(volume: VolumeType, extra: readonly ElementField[] = []): Predicate {
  return { op: 'namesElement', list: volume.volumes, noun: `${volume.type} volume`, where: [{ segments: [volume.type], predicate: { op: 'set' }, keyPresent: true }, ...extra] }
}

const CONTAINERS = /\b(?:containers?|initContainers|ephemeralContainers|init containers?|ephemeral containers?)\b/i
const MOUNTING = /^\s*(?:mounting|that mounts?|which mounts?)\s+(?:an?\s+|the\s+|any\s+)?(.+?)\s*$/i

/**
 * "containers mounting an emptyDir volume" (each container judged on its own mounts), "Pods that
 * mount a hostPath volume" (the pod declares one). `subject` is what the words before name.
 */
export function mountsVolumeCondition(phrase: string, subject: string, schemaKind: string): Condition | undefined {
  const what = MOUNTING.exec(phrase)?.[1]
  if (!what || !/^`?[A-Za-z]+`?\s+volumes?$/i.test(what)) return undefined
  const volume = volumeTypeNamed(what, schemaKind)
  if (!volume) return undefined
  if (CONTAINERS.test(subject)) {
    const ref: ValueRef = { ...kubernetesRef(volume.mounts, 'volumeMounts'), explicit: true }
    return { value: ref, predicate: { op: 'hasElement', noun: 'volume mount', where: [{ segments: ['name'], predicate: namesVolumeOf(volume) }] }, missing: 'fail', text: phrase.trim() }
  }
  const list = kubernetesFields(schemaKind).find((info) => info.path === volume.volumes.join('.'))
  if (!list) return undefined
  return { value: { ...kubernetesRef(list, 'volumes'), explicit: true }, predicate: { op: 'hasElement', noun: 'volume', where: [{ segments: [volume.type], predicate: { op: 'set' }, keyPresent: true }] }, missing: 'fail', text: phrase.trim() }
}

/** "mounted read-only", "mount them as read-only", "mounted in readOnly mode": how the mount is made, not a "read-only root filesystem". */
const READ_ONLY = /\bmount(?:ed|s|ing)?\s+(?:\w+ly\s+)?(?:(?:them|it|those|these|such volumes?|(?:all\s+|any\s+|the\s+)?`?[A-Za-z]+`?\s+volumes?)\s+)?(?:(?:in|as|with)\s+)?(?:a\s+)?(?:read[- ]?only|`?readOnly`?)(?:\s+mode)?(?:\s+set\s+to\s+`?true`?|\s*[:=]\s*`?true`?)?(?=\s*(?:[.,;)]|$)|\s+(?:and|or)\b)/i
const NEGATED = /\b(?:not|never|no|nor|neither|without|unless|except)\b|n't\b/i

/**
 * "hostPath volumes must be mounted read-only", "ensures they are mounted in readOnly mode",
 * "containers must mount hostPath volumes as read-only": every mount of a volume of the type sets
 * `readOnly: true` (the field's default is false, so an unset one fails).
 */
export function readMountedReadOnly(text: string, schemaKind: string): { refs: ValueRef[]; predicate: Predicate; condition: Condition } | undefined {
  if (!READ_ONLY.test(text) || NEGATED.test(text)) return undefined
  const volume = volumeTypeNamed(text, schemaKind)
  const fields = kubernetesFields(schemaKind)
  const readOnly = volume ? fields.find((info) => info.path === `${volume.mounts.path}[].readOnly`) : undefined
  const name = volume ? fields.find((info) => info.path === `${volume.mounts.path}[].name`) : undefined
  if (!volume || !readOnly || !name) return undefined
  const condition: Condition = { value: { ...kubernetesRef(name, 'volume mount name'), explicit: true }, predicate: namesVolumeOf(volume), missing: 'fail', text: `${volume.type} volumes` }
  return { refs: [{ ...kubernetesRef(readOnly, 'readOnly'), explicit: true }], predicate: { op: 'equals', value: true }, condition }
}

/** "Policy will be skipped if the volume has already a sizeLimit set": the volume a condition picked, by a field of it. */
const PICKED_SKIP = /\b(?:skip(?:ped)?|exempt(?:ed)?|excluded|ignored|not (?:checked|applied|enforced|evaluated)|(?:does|do)\s+not\s+apply)\b[^.;]*?\b(?:if|when|where)\s+(?:the|that|this|its|their)\s+volumes?\s+(?:already\s+)?(?:has|have|sets?|defines?|specifies|specify|declares?)\s+(?:already\s+)?(?:an?\s+|the\s+|its\s+)?`?([A-Za-z]\w*(?:\.\w+)*)`?(?:\s+field)?(?:\s+already)?(?:\s+(?:set|defined|specified|declared))?/i

export function readPickedVolumeExemption(text: string, schemaKind: string): { exemption: Condition; span: [number, number] } | undefined {
  const match = PICKED_SKIP.exec(text)
  const field = match?.[1]
  const fields = kubernetesFields(schemaKind)
  const list = fields.find((info) => info.type === 'array' && /(?:^|\.)volumes$/.test(info.path) && !info.path.includes('[]'))
  if (!match || !field || !list) return undefined
  const found = fields.find((info) => info.path.startsWith(`${list.path}[].`) && info.path.endsWith(`.${field}`) && info.path.slice(list.path.length + 3).split('.').length === field.split('.').length + 1)
  if (!found) return undefined
  const exemption: Condition = { value: { ...kubernetesRef(found, field), explicit: true }, predicate: { op: 'set' }, missing: 'fail', text: match[0].replace(/^.*?\b(?=if|when|where)/i, ''), ofPicked: { list: pathSegments(list.path), field } }
  return { exemption, span: [match.index, match.index + match[0].length] }
}

/**
 * Joins each exemption said of "the volume" to the condition that picks a volume of the pod: the
 * requirement holds for mounts of volumes of the type that do not set the field. Returns the
 * problem when no condition picks one (the words would otherwise skip a pod for any volume).
 */
export function joinPickedVolume(requirement: { conditions: Condition[]; exemptions: Condition[]; subject: { kinds: string[] } }): string | undefined {
  for (const exemption of requirement.exemptions.filter((condition) => condition.ofPicked)) {
    const picked = exemption.ofPicked
    // A container's mount naming a volume, or (a pod "mounting" one) the pod's volumes themselves.
    const ownVolumes = (condition: Condition): Extract<Predicate, { op: 'hasElement' }> | undefined =>
      condition.predicate.op === 'hasElement' && condition.predicate.where[0]?.keyPresent === true && condition.value.variants[0]?.segments.join('.') === picked?.list.join('.') ? condition.predicate : undefined
    const namer = picked ? requirement.conditions.map((condition) => namesElementIn(condition.predicate) ?? ownVolumes(condition)).find((predicate) => predicate !== undefined && (predicate.op === 'hasElement' || predicate.list.join('.') === picked.list.join('.'))) : undefined
    const type = namer?.where[0]?.segments[0]
    const schemaKind = requirement.subject.kinds[0] ?? 'Pod'
    if (!picked || !namer || !type || !kubernetesFields(schemaKind).some((info) => info.path === `${picked.list.join('.')}[].${type}.${picked.field}`)) {
      return `it skips what "${exemption.text}" says, and no requirement it qualifies picks a volume with a \`${picked?.field ?? ''}\`; which volume is meant?`
    }
    namer.where.push({ segments: [type, ...picked.field.split('.')], predicate: { op: 'unset' } })
    joined.add(exemption)
    requirement.exemptions = requirement.exemptions.filter((condition) => condition !== exemption)
  }
  return undefined
}

const joined = new WeakSet<Condition>()

/** An exemption said of "the volume" that no requirement took (a named rule, or none picking a volume): it would skip too much. */
export function unjoinedPickedVolume(exemptions: readonly Condition[]): Condition | undefined {
  return exemptions.find((condition) => condition.ofPicked !== undefined && !joined.has(condition))
}

function namesElementIn(predicate: Predicate): Extract<Predicate, { op: 'namesElement' }> | undefined {
  if (predicate.op === 'namesElement') return predicate
  if (predicate.op === 'hasElement') return predicate.where.map((field) => namesElementIn(field.predicate)).find((found) => found !== undefined)
  return undefined
}
