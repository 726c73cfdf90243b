import { kubernetesFields, type FieldInfo } from '../fields/kubernetes-fields.js'
import { kindsNamedIn, normalizeText } from '../text/clause.js'
import { kubernetesRef } from './find-fields.js'
import type { Predicate, ValueRef } from './requirement.js'

/**
 * The fields through which an object uses another kind: the schema's objects named after the kind,
 * alone or as a reference (`secret` in a volume or a projected source, `envFrom[].secretRef`,
 * `env[].valueFrom.secretKeyRef`; `configMap`, `persistentVolumeClaim`). Container paths are listed
 * once, as the regular containers' (a container-scoped rule reads init and ephemeral ones too); the
 * credentials a volume plugin reads for itself (`cephfs.secretRef`) are not the pod's use.
 */
export function kindUseFields(schemaKind: string, kind: string): FieldInfo[] {
  const own = kind.charAt(0).toLowerCase() + kind.slice(1)
  const pattern = new RegExp(`^${own}(?:Ref|KeyRef)?$`)
  return kubernetesFields(schemaKind).filter(
    (info) =>
      info.type === 'object' &&
      pattern.test(info.path.split('.').at(-1) ?? '') &&
      !/(?:^|\.)(?:initContainers|ephemeralContainers)\[\]/.test(info.path) &&
      !/\.(?:cephfs|cinder|flexVolume|iscsi|rbd|scaleIO|storageos|azureFile|csi)\./.test(info.path),
  )
}

/** "the use of", "using", "consume", "reference": any of the ways the object takes the other kind in. */
const USE = String.raw`(?:the\s+)?(?:use|usage|consumption|referencing|reference)\s+of|using|uses?|consum(?:e|es|ing)|referenc(?:e|es|ing)`
const BAN = String.raw`disallow(?:s|ed)?|disables?|forbids?|prohibits?|prevents?|blocks?|bans?|denies|deny|rejects?|(?:must|may|shall|should)\s+not|mustn'?t|cannot|can'?t|never|no\s+[A-Za-z]+\s+(?:may|can|shall|should)`
/** Nothing may follow the kind but the object it is used in: "as environment variables" would name one use only. */
const TAIL = String.raw`(?:\s+(?:in|by|from|within|inside)\s+(?:an?\s+|the\s+|any\s+|all\s+)?[A-Za-z]+(?:\s+(?:definitions?|specs?|specifications?|manifests?))?)?(?:\s+(?:at all|altogether|whatsoever))?\s*[.;]?\s*$`
const KIND_WORD = String.raw`(?:all\s+|any\s+|the\s+|an?\s+)?([A-Z][A-Za-z]+)`

/** "prevent Pods from using Secrets": who is kept from it, between the verb and the use. */
const KEPT_FROM = String.raw`(?:\s+(?:an?\s+|any\s+|all\s+)?[A-Za-z]+\s+from)?`
const BANNED_USE = new RegExp(String.raw`\b(?:${BAN})${KEPT_FROM}\s+(?:${USE})\s+${KIND_WORD}${TAIL}`, 'i')
/** "Secrets must not be used in Pods", "no Secret may be consumed". */
const BANNED_PASSIVE = new RegExp(String.raw`^\s*(?:no\s+)?${KIND_WORD}\s+(?:(?:must|may|shall|should|can)\s*(?:not|never)|mustn'?t|can'?t|cannot|may|can|shall)\s+be\s+(?:used|consumed|referenced)${TAIL}`, 'i')

/**
 * "disables the use of all Secrets in a Pod definition", "Pods must not consume ConfigMaps": every
 * field through which the object uses the kind must be absent. Read only where the kind is all the
 * sentence names after the verb; one named way ("Secrets as environment variables") is left to the
 * structural reader and the gate in kind-references.ts.
 */
export function readKindUseBan(text: string, schemaKind: string): { refs: ValueRef[]; predicate: Predicate } | undefined {
  const passive = BANNED_PASSIVE.exec(text)
  // "no Secret may be used" is a ban; "Secrets may be used" is not.
  const match = BANNED_USE.exec(text) ?? (passive && (/^\s*no\s/i.test(text) || /\b(?:not|never|mustn'?t|can'?t|cannot)\b/i.test(passive[0])) ? passive : null)
  const kind = match?.[1] ? namedKind(match[1], schemaKind) : undefined
  const uses = kind ? kindUseFields(schemaKind, kind) : []
  if (!kind || uses.length === 0) return undefined
  return { refs: uses.map((info) => ({ ...kubernetesRef(info, `${kind} ${leafOf(info.path)}`), explicit: true })), predicate: { op: 'unset' } }
}

/** A name as written: a code span or a quoted string. */
const WRITTEN = String.raw`\`([^\`\s]+)\`|"([^"\s]+)"|'([^'\s]+)'`

/** "beginning with the name `safe-`", "whose names start with `app-`", "named `a`", "ending in `-ro`". */
const NAME_TEST = new RegExp(
  String.raw`^(?:(?:whose|with\s+(?:a\s+)?|having\s+(?:a\s+)?)\s*names?\s+)?(?:(begin|start|beginning|starting|prefixed|end|ending|suffixed)(?:s|ed)?\s+(?:with|by|in)|(named|called))\s+(?:the\s+(?:name|prefix|suffix)\s+)?(?:${WRITTEN})$`,
  'i',
)

const ONLY_KIND_MAY = new RegExp(String.raw`^\s*(?:(?:and|but|so)\s+)?only\s+${KIND_WORD}\s+(.+?)\s+(?:may|can|shall|are\s+allowed\s+to|are\s+permitted\s+to)\s+be\s+(?:used|consumed|referenced|mounted\s+or\s+used|used\s+or\s+mounted)(?:\s+(?:by|in)\s+(?:an?\s+|the\s+|any\s+)?[A-Za-z]+)?\s*[.;]?\s*$`, 'i')
const MAY_ONLY_USE = new RegExp(String.raw`\b(?:may|can|must|shall)\s+only\s+(?:use|consume|reference)\s+${KIND_WORD}\s+(.+?)\s*[.;]?\s*$`, 'i')

/**
 * "only Secrets beginning with the name `safe-` can be consumed by Pods", "Pods may only use
 * ConfigMaps named `a`": every reference to the kind (kindUseFields) names one so described. The
 * name is the reference's `name` (or `<kind>Name`, `secret.secretName`); a reference that is not
 * there has nothing to judge.
 */
export function readKindUseNames(text: string, schemaKind: string): { refs: ValueRef[]; predicate: Predicate } | { problem: string } | undefined {
  const match = ONLY_KIND_MAY.exec(text) ?? MAY_ONLY_USE.exec(text)
  const kind = match?.[1] ? namedKind(match[1], schemaKind) : undefined
  const uses = kind ? kindUseFields(schemaKind, kind) : []
  if (!match?.[2] || !kind || uses.length === 0) return undefined
  const test = NAME_TEST.exec(match[2].trim())
  const value = test?.[3] ?? test?.[4] ?? test?.[5]
  const names = uses.map((use) => nameField(schemaKind, use.path))
  // Read otherwise, the words would land on the pod's own name or on one of the ways it uses the kind.
  if (!test || value === undefined || names.some((info) => info === undefined)) return { problem: `it limits the ${kind}s a ${schemaKind} may use to those "${match[2].trim()}", which is no name written in code or quotes with begins with, ends with or named; which names are allowed?` }
  const verb = (test[1] ?? '').toLowerCase()
  const predicate: Predicate = test[2] ? { op: 'equals', value } : /^(?:end|ending|suffixed)/.test(verb) ? { op: 'endsWith', values: [value] } : { op: 'startsWith', values: [value] }
  return { refs: names.map((info) => ({ ...kubernetesRef(info as FieldInfo, `${kind} name`), explicit: true })), predicate }
}

/** The one string that names the referenced object: `name`, or the one `<something>Name` (`secretName`, `claimName`). */
function nameField(schemaKind: string, path: string): FieldInfo | undefined {
  const children = kubernetesFields(schemaKind).filter((info) => info.type === 'string' && info.path.startsWith(`${path}.`) && !info.path.slice(path.length + 1).includes('.'))
  const plain = children.find((info) => info.path.endsWith('.name'))
  if (plain) return plain
  const named = children.filter((info) => /Name$/.test(info.path))
  return named.length === 1 ? named[0] : undefined
}

function namedKind(word: string, schemaKind: string): string | undefined {
  const [kind] = kindsNamedIn(normalizeText(word))
  return kind && kind !== schemaKind ? kind : undefined
}

const leafOf = (path: string): string => path.split('.').at(-1) ?? path

/**
 * Whether every value of a requirement is one of the ways its subject uses `kind` (or the name one
 * of them gives): "Secrets must not be used in Pods" names Secrets first, and judges Pods.
 */
export function readsUsesOf(requirement: { subject: { kinds: string[] }; values: ValueRef[] }, kind: string): boolean {
  const bare = (path: string): string => path.replace(/\.?\[\]/g, '')
  const uses = kindUseFields(requirement.subject.kinds[0] ?? 'Pod', kind).map((info) => bare(info.path))
  const isUse = (path: string): boolean => path !== '' && uses.some((use) => use === path || use.endsWith(`.${path}`))
  return (
    uses.length > 0 &&
    requirement.values.length > 0 &&
    requirement.values.every((ref) => ref.variants.some((variant) => {
      const path = bare(variant.segments.join('.'))
      return isUse(path) || isUse(path.split('.').slice(0, -1).join('.'))
    }))
  )
}
