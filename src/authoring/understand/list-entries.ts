import { nameWords } from './name-words.js'
import { kubernetesFields, type FieldInfo } from '../fields/kubernetes-fields.js'
import { kindsNamedIn, normalizeText } from '../text/clause.js'
import { canonicalKind } from '../text/kinds.js'
import { kubernetesRef } from './find-fields.js'
import type { Condition, Predicate, ValueRef } from './requirement.js'
import { pairedResource } from './paired-resource.js'

/**
 * "blocks any Role that contains a wildcard entry in the verbs list", "prevents a ClusterRole if it
 * contains the nodes/proxy resource", "disallow the commands `jcmd`, `ps` or `ls` in a liveness
 * exec probe": entries a list of strings must not hold. The list is the schema's list of strings
 * whose name the sentence says ("verbs", "resource", "exec probe ... commands"; of several, the
 * one whose path the sentence's words name most fully, and only when one does); the entries are
 * the literals the sentence writes, or `*` when it speaks of a wildcard (RBAC's word for it).
 * Nothing is read unless the sentence forbids, names exactly one such list and writes an entry.
 */
export interface ListEntries {
  refs: ValueRef[]
  predicate: Predicate
  /** "... in tandem with Secret resources": the same element's other list must hold the kind's resource. */
  conditions: Condition[]
  /** Other kinds the sentence names whose schema has the same list ("any Role or ClusterRole"): judged too. */
  alsoKinds: string[]
}

const FORBIDS = /\b(?:must not|mustn'?t|may not|cannot|can'?t|never|disallow(?:s|ed)?|prevents?|blocks?|forbids?|bans?|denies|deny|prohibits?|no)\b/i

/** Literals as written: backticked or quoted, or a name with a slash or colon (`nodes/proxy`, `system:masters`). */
const LITERAL = /`([^`]+)`|"([^"]+)"|(?<![\w'])'([^'\s][^']*)'(?![\w])|(?<![\w./:-])([a-z][\w.-]*(?:[/:][\w.*-]+)+)(?![\w/:-])/g

export function readListEntries(text: string, schemaKind: string | undefined, instruction?: string): ListEntries | undefined {
  if (!schemaKind || !FORBIDS.test(text)) return undefined
  const fieldNames = new Set(kubernetesFields(schemaKind).map((info) => (leafOf(info.path) ?? '').toLowerCase()))
  // `externalIPs` in backticks names the field, not an entry of it.
  const written = entriesWritten(text)
  const values = (written.length > 0 ? written : entriesNamedBefore(text, instruction)).filter((value) => !fieldNames.has(value.toLowerCase()))
  const wildcard = /\bwildcards?\b/i.test(text)
  if (values.length === 0 && !wildcard) return undefined
  const list = listNamed(text, schemaKind)
  if (!list) return undefined
  const leaf = leafOf(list.path) ?? list.path
  const refs = [{ ...kubernetesRef(list, leaf), explicit: true }]
  const alsoKinds = kindsNamedIn(normalizeText(text)).filter((kind) => kind !== schemaKind && kubernetesFields(kind).some((info) => info.path === list.path))
  const paired = pairedResource(text, schemaKind, list.path)
  if (paired === null) return undefined
  const conditions = paired ? [paired] : []
  // "commands `jcmd` or `ps` in a liveness exec probe": a command line's entries are whole shell lines; the command is a word in one.
  if (COMMAND_LINES.has(leaf) && values.length > 0 && !wildcard) {
    const words = values.map((value) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    return { refs, alsoKinds, conditions, predicate: { op: 'listNoneMatching', values, pattern: `(^|[^\\w./-])(${words.join('|')})([^\\w./-]|$)`, description: `running ${values.map((value) => `"${value}"`).join(', ')}` } }
  }
  // A wildcard entry holds `*`: all of RBAC's verbs or resources, or a host such as `*.example.com`.
  if (wildcard && values.every((value) => value === '*')) return { refs, alsoKinds, conditions, predicate: { op: 'listNoneMatching', values: ['*'], pattern: '[*]', description: 'holding a wildcard (*)' } }
  if (wildcard) return undefined
  return { refs, alsoKinds, conditions, predicate: { op: 'listNoneOf', values } }
}

/**
 * "The verbs `impersonate`, `bind`, and `escalate` may ... This policy prevents use of these verbs":
 * "these <noun>" stands for the literals the one other sentence that names the noun lists.
 */
function entriesNamedBefore(text: string, instruction: string | undefined): string[] {
  const listed = antecedentsListing(text, instruction)
  // Two sentences listing such entries do not say which "these" are.
  return listed.length === 1 ? (listed[0]?.entries ?? []) : []
}

/**
 * The sentence "these <noun>" points back to, when exactly one sentence before it names the noun
 * and writes entries: its entries are written there, so the grounding gate reads it as well.
 */
export function antecedentOf(text: string, instruction: string | undefined): string | undefined {
  const listed = antecedentsListing(text, instruction)
  return listed.length === 1 ? listed[0]?.sentence : undefined
}

function antecedentsListing(text: string, instruction: string | undefined): Array<{ sentence: string; entries: string[] }> {
  const noun = /\bthese\s+([a-z]+)\b/i.exec(text)?.[1]
  if (!noun || instruction === undefined) return []
  const all = instruction.split(/(?<=[.!?])\s+/)
  // "these" points back: to a sentence before its own, when its own is found in the instruction.
  const own = all.findIndex((sentence) => new RegExp(String.raw`\bthese\s+${noun}\b`, 'i').test(sentence))
  const sentences = (own > 0 ? all.slice(0, own) : all).filter((sentence) => new RegExp(String.raw`\b${noun}\b`, 'i').test(sentence) && !/\bthese\b/i.test(sentence))
  return sentences.map((sentence) => ({ sentence, entries: entriesWritten(sentence) })).filter((listed) => listed.entries.length > 0)
}

/** Lists whose entries are command lines, where a command named is a word inside an entry. */
const COMMAND_LINES = new Set(['command', 'args'])

const leafOf = (path: string): string | undefined => path.split(/[.[\]]+/).filter(Boolean).at(-1)

function entriesWritten(text: string): string[] {
  const values: string[] = []
  for (const match of text.matchAll(LITERAL)) {
    const value = (match[1] ?? match[2] ?? match[3] ?? match[4] ?? '').trim()
    if (value !== '' && !/^https?:/.test(value) && !values.includes(value)) values.push(value)
  }
  return values
}


/**
 * The one list of strings whose own name the sentence says, best named by the rest of its path.
 * A field that is no list of strings, named as well or better ("host" of an Ingress rule beside
 * its TLS `hosts`), makes the sentence not about a list: nothing is read.
 */
const singularWords = (text: string): string[] => nameWords(text, { singular: true })

function listNamed(text: string, kind: string): FieldInfo | undefined {
  // "Role or ClusterRole resources": objects of those kinds, not RBAC's `resources` list.
  const said = new Set(singularWords(text.replace(/\b([A-Z][A-Za-z]+)\s+(?:resources|objects)\b/g, (whole, name: string) => (canonicalKind(name) ? name : whole))))
  const fields = kubernetesFields(kind)
  const stringLists = new Set(fields.filter((info) => info.type === 'array' && fields.some((item) => item.path === `${info.path}[]` && item.type === 'string')).map((info) => info.path))
  let best: Array<{ info: FieldInfo; score: number }> = []
  for (const info of fields) {
    if (info.deprecated || info.featureGated || /^metadata\./.test(info.path) || info.path.endsWith('[]') || info.type === 'object') continue
    const segments = info.path.split(/[.[\]]+/).filter(Boolean)
    const leaf = singularWords(segments.at(-1) ?? '')
    if (leaf.length === 0 || !leaf.every((word) => said.has(word))) continue
    // Init and ephemeral containers repeat the containers' fields: the containers' path stands for all three.
    if (segments.some((segment) => segment === 'initContainers' || segment === 'ephemeralContainers')) continue
    const score = new Set(segments.slice(0, -1).flatMap(singularWords).filter((word) => said.has(word))).size
    if (best.length === 0 || score > (best[0]?.score ?? 0)) best = [{ info, score }]
    else if (score === best[0]?.score) best.push({ info, score })
  }
  const [only] = best
  return best.length === 1 && only && stringLists.has(only.info.path) ? only.info : undefined
}
