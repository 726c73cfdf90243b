import { nameWords } from './name-words.js'
import { kubernetesFieldKinds, kubernetesFields, type FieldInfo } from '../fields/kubernetes-fields.js'
import { kindsNamedIn, normalizeText } from '../text/clause.js'
import { canonicalKind } from '../text/kinds.js'
import { kubernetesRef } from './find-fields.js'
import type { Predicate, ValueRef } from './requirement.js'

/**
 * What an object says about other objects, by their kind and name: "binding to the cluster-admin
 * ClusterRole" (the field that references a ClusterRole by name, `roleRef.name`), "Pods must not
 * use the `default` ServiceAccount" (`serviceAccountName`), "bindings to the groups
 * system:masters and system:anonymous" (the names of a binding's `subjects`), "Jobs may only be
 * created by a CronJob" (an owner reference of that kind). The field is the schema's: one whose
 * name says the kind it refers to (`<kind>Name`, `<kind>Ref.name`), the subjects of a binding, the
 * owner references every object has. The names are those written as names: in code or quotes, or
 * tokens no English word looks like (`cluster-admin`, `system:masters`).
 */
export interface ReferenceReading {
  refs: ValueRef[]
  predicate: Predicate
  missing: 'pass' | 'fail'
  /** Other kinds the sentence names whose schema has the same field ("RoleBinding or ClusterRoleBinding resources"). */
  alsoKinds: string[]
}

const FORBIDS = /\b(?:neither|must not|mustn'?t|may not|cannot|can'?t|never|disallow(?:s|ed)?|prevents?|blocks?|forbids?|bans?|denies|deny|prohibits?|no)\b/i
const ONLY = /\b(?:may|can|must|should|shall)\s+only\b|\bonly\s+(?:be\s+)?(?:allowed|permitted)\b|\bmust\b/i

/** A name as written: code span, quotes, or a token with a hyphen, dot or colon inside (`cluster-admin`, `system:masters`). */
const NAME = String.raw`\`[^\`\s]+\`|"[^"\s]+"|[a-z0-9]+(?:[-.:][a-z0-9]+)+`
const NAME_PATTERN = new RegExp(NAME, 'g')

export function readReference(text: string, schemaKind: string | undefined): ReferenceReading | undefined {
  if (!schemaKind) return undefined
  return readOwner(text, schemaKind) ?? readSubjectNames(text, schemaKind) ?? readNamedObject(text, schemaKind)
}

/**
 * "Jobs may only be created by a CronJob", "Pods must be owned by a ReplicaSet": the object has an
 * owner reference of that kind (what a controller that creates an object records on it).
 */
const OWNED_BY = /\b(?:created|owned|managed|controlled|spawned)\s+(?:only\s+)?(?:by|via|through)\s+(?:an?\s+|the\s+|its\s+)?([A-Z][A-Za-z]+)\b/

function readOwner(text: string, schemaKind: string): ReferenceReading | undefined {
  const match = OWNED_BY.exec(text)
  const owner = match?.[1] ? canonicalKind(match[1]) : undefined
  if (!match || !owner || FORBIDS.test(text) || !ONLY.test(text.slice(0, match.index))) return undefined
  const list = field(schemaKind, 'metadata.ownerReferences')
  if (!list) return undefined
  const ref = { ...kubernetesRef(list, 'ownerReferences'), explicit: true }
  return { refs: [ref], predicate: { op: 'hasElement', noun: 'owner reference', where: [{ segments: ['kind'], predicate: { op: 'equals', value: owner } }] }, missing: 'fail', alsoKinds: [] }
}

/**
 * The kinds a binding's subjects are (RBAC's Subject.kind: "User", "Group", "ServiceAccount"):
 * "bindings to the groups X and Y" names subjects, whatever kind each of them is recorded as.
 */
const SUBJECT_NOUN = String.raw`\b(?:groups?|users?|service ?accounts?|subjects?)`
/** The noun, then the names right after it: "the groups `a` or `b`", "groups including system:masters, system:anonymous". */
const SUBJECTS_NAMED = new RegExp(String.raw`${SUBJECT_NOUN}\s*,?\s*(?:(?:including|such as|named|called|like)\s+|:\s*)?((?:${NAME})(?:(?:\s*,\s*|\s+(?:and|or)\s+|\s*,\s*(?:and|or)\s+)(?:${NAME}))*)`, 'i')

function readSubjectNames(text: string, schemaKind: string): ReferenceReading | undefined {
  const names = field(schemaKind, 'subjects[].name')
  const named = SUBJECTS_NAMED.exec(text)
  if (!names || !named?.[1] || !FORBIDS.test(text.slice(0, named.index))) return undefined
  const written = namesIn(named[1])
  if (written.length === 0) return undefined
  const ref = { ...kubernetesRef(names, 'subject name'), explicit: true }
  return { refs: [ref], predicate: { op: 'noneOf', values: written }, missing: 'pass', alsoKinds: sameField(text, schemaKind, names.path) }
}

/**
 * "the cluster-admin ClusterRole", "the `default` ServiceAccount": a name written beside a kind,
 * read on the one field of the subject that references that kind by name.
 */
function readNamedObject(text: string, schemaKind: string): ReferenceReading | undefined {
  const forbids = FORBIDS.test(text)
  if (!forbids && !ONLY.test(text)) return undefined
  const pair = new RegExp(String.raw`(?:^|[\s(])(${NAME})\s+([A-Z][A-Za-z]+)\b|\b([A-Z][A-Za-z]+)\s+(?:named\s+|called\s+)?(${NAME})(?=[\s,.;)]|$)`).exec(text)
  const name = unquote(pair?.[1] ?? pair?.[4] ?? '')
  const kind = canonicalKind(pair?.[2] ?? pair?.[3] ?? '')
  if (!pair || name === '' || !kind || kind === schemaKind) return undefined
  const target = referenceField(schemaKind, kind)
  if (!target) return undefined
  const ref = { ...kubernetesRef(target, `${kind} name`), explicit: true }
  const predicate: Predicate = forbids ? { op: 'noneOf', values: [name] } : { op: 'equals', value: name }
  return { refs: [ref], predicate, missing: forbids ? 'pass' : 'fail', alsoKinds: sameField(text, schemaKind, target.path).filter((other) => other !== kind) }
}

/** The one field naming an object of `kind`: `<words>Name` or `<words>Ref.name` whose words are all words of the kind. */
function referenceField(schemaKind: string, kind: string): FieldInfo | undefined {
  const kindWords = new Set(nameWords(kind))
  const found = kubernetesFields(schemaKind).filter((info) => {
    if (info.type !== 'string' || info.deprecated) return false
    const segments = info.path.split(/[.[\]]+/).filter(Boolean)
    const leaf = segments.at(-1) ?? ''
    const named = /^(.+)Name$/.exec(leaf)?.[1] ?? (leaf === 'name' ? /^(.+)Ref$/.exec(segments.at(-2) ?? '')?.[1] : undefined)
    if (!named || info.path.includes('[]')) return false
    const fieldWords = nameWords(named)
    return fieldWords.length > 0 && fieldWords.every((word) => kindWords.has(word))
  })
  return found.length === 1 ? found[0] : undefined
}

function field(schemaKind: string, path: string): FieldInfo | undefined {
  return kubernetesFields(schemaKind).find((info) => info.path === path)
}

/**
 * Other kinds the sentence names that have the same field: by name, or by the word their names
 * end with ("bindings" are RoleBindings and ClusterRoleBindings).
 */
function sameField(text: string, schemaKind: string, path: string): string[] {
  // Words of their own, not the parts of a kind's name ("PersistentVolumeClaims" says nothing of PersistentVolumes).
  const said = new Set((text.match(/(?<![\w`])[a-z]+(?![\w`])/g) ?? []).map((word) => word.replace(/s$/, '')))
  const byLastWord = kubernetesFieldKinds().filter((kind) => said.has(nameWords(kind).at(-1) ?? ''))
  return [...new Set([...kindsNamedIn(normalizeText(text)), ...byLastWord])].filter((kind) => kind !== schemaKind && field(kind, path) !== undefined)
}

function namesIn(text: string): string[] {
  return [...new Set([...text.matchAll(NAME_PATTERN)].map((match) => unquote(match[0])))]
}

const unquote = (name: string): string => name.replace(/^[`"]|[`"]$/g, '')

