import { kubernetesFields } from '../fields/kubernetes-fields.js'
import { resolveKubernetesField } from '../fields/resolve-kubernetes-field.js'
import { kubernetesRef } from './find-fields.js'
import type { Predicate, ValueRef } from './requirement.js'

/**
 * "disallow sysctl settings with + or = in their value", "forbid env vars containing `$(` in
 * their value": elements of a list are banned only when a field of theirs holds one of the
 * pieces of text written; so that field of every element must not contain any of them. The
 * pieces are quoted or are characters standing alone (`+`, `=`, `*`), never words of the prose;
 * the list and its element's field come from the schema.
 */
export interface BannedCharacters {
  refs: ValueRef[]
  predicate: Predicate
}

const BANNED = /\b(?:disallow|forbid|prohibit|block|deny|reject|prevent|ban|no)\s+(?:the\s+(?:use\s+of\s+)?|any\s+|all\s+)?((?:[A-Za-z][\w-]*\s+){0,2}?[A-Za-z][\w-]*)\s+(?:with|containing|that contain|which contain|holding)\s+(.+?)\s+(?:in|inside|within|anywhere in)\s+(?:its|their|the)\s+([a-z][A-Za-z0-9]*)\b/i

/** One piece: in quotes or backticks, or one to three characters that are neither letters, digits nor spaces. */
const PIECE = /^(?:`([^`]+)`|"([^"]+)"|'([^']+)'|([^\w\s`"']{1,3}))$/

export function readBannedCharacters(text: string, schemaKind: string): BannedCharacters | undefined {
  const match = BANNED.exec(text)
  if (!match?.[1] || !match[2] || !match[3]) return undefined
  const pieces: string[] = []
  for (const item of match[2].trim().split(/\s*,\s*(?:or\s+|and\s+)?|\s+(?:or|and)\s+/)) {
    const piece = PIECE.exec(item.trim())
    const value = piece?.[1] ?? piece?.[2] ?? piece?.[3] ?? piece?.[4]
    if (value === undefined) return undefined
    pieces.push(value)
  }
  if (pieces.length === 0) return undefined
  const fields = kubernetesFields(schemaKind)
  const lists = listsNamed(match[1], schemaKind).filter((path) => fields.some((info) => info.path === `${path}[].${match[3] ?? ''}` && info.type === 'string'))
  const [list] = lists
  if (!list || lists.length !== 1) return undefined
  const child = fields.find((info) => info.path === `${list}[].${match[3] ?? ''}`)
  if (!child) return undefined
  return { refs: [{ ...kubernetesRef(child, `${match[1]} ${match[3]}`), explicit: true }], predicate: { op: 'notContains', values: pieces } }
}

/** The array fields the noun names, as written or in the plural ("sysctl settings", "port"). */
function listsNamed(noun: string, schemaKind: string): string[] {
  for (const candidate of [noun, ...(/s$/i.test(noun) ? [] : [`${noun}s`])]) {
    const paths = [...new Set(resolveKubernetesField(schemaKind, candidate).filter((info) => info.type === 'array').map((info) => info.path))]
    if (paths.length > 0) return paths
  }
  return []
}
