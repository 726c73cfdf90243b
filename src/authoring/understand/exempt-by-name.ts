import { canonicalKind } from '../text/kinds.js'
import type { Condition } from './requirement.js'

/**
 * "all NetworkPolicies other than that of `default-deny`", "every ClusterRole except the one named
 * `admin`", "Secrets apart from `registry-creds` and `tls-cert`": objects of a kind, less those
 * whose name is written right after the exception word. The names must be written as names (code
 * spans, quotes, or a hyphenated or dotted token): an ordinary word after "except" names no object.
 */
export interface NameExemption {
  exemption: Condition
  index: number
  length: number
}

/** A name written as one: in a code span or quotes, or a token no English word looks like (`allow-dns`, `web.v2`). */
const LITERAL = String.raw`(?:\`[^\`\s]+\`|"[^"\s]+"|[a-z0-9]+(?:[-.][a-z0-9]+)+(?![\w.-]))`
const EXCEPT_NAMED = new RegExp(
  String.raw`\b([A-Z][A-Za-z]+)\s+(?:other than|except(?: for)?|apart from|besides|excluding|but not)\s+(?:(?:that|those|the ones?|the objects?) (?:of|named|called)\s+|named\s+|called\s+)?(${LITERAL}(?:(?:\s*,\s*|\s+(?:and|or)\s+|\s*,\s*(?:and|or)\s+)${LITERAL})*)`,
)

export function readNameExemption(text: string): NameExemption | undefined {
  const match = EXCEPT_NAMED.exec(text)
  if (!match?.[1] || !match[2] || !canonicalKind(match[1])) return undefined
  const names = [...match[2].matchAll(/`([^`]+)`|"([^"]+)"|([a-z0-9]+(?:[-.][a-z0-9]+)+)/g)].map((name) => name[1] ?? name[2] ?? name[3] ?? '')
  if (names.length === 0 || names.some((name) => !/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/.test(name))) return undefined
  // Only the exception's words are taken: the kind before them stays the subject.
  const from = match.index + match[0].search(/\s(?:other than|except|apart from|besides|excluding|but not)\b/) + 1
  const end = match.index + match[0].length
  const exemption: Condition = {
    value: { scope: 'object', variants: [{ segments: ['metadata', 'name'] }], label: 'name', type: 'string', explicit: true },
    predicate: names.length === 1 ? { op: 'equals', value: names[0] ?? '' } : { op: 'oneOf', values: names },
    missing: 'fail',
    text: text.slice(from, end).trim(),
  }
  return { exemption, index: from, length: end - from }
}

const EXCEPT_AFTER_KIND = /\b([A-Z][A-Za-z]+)\s+(other than|except(?: for)?|apart from|besides|excluding|but not)\s+(.+?)(?=\s+(?:must|should|shall|has to|have to|needs? to|may|can|cannot|can't|are|is|will)\b|[,.;:]|$)/
/** Words that only point back ("those", "the ones"): what they stood for was taken by another reading. */
const POINTING = /\b(?:those|these|that|ones?|the|of|in|which|them|objects?)\b/g

/**
 * "every NetworkPolicy except the default one must ...": an exception after a kind that no reading
 * took (its words are still in the clause once modifiers are blanked). Dropping it would judge the
 * objects it exempts; the sentence is refused with the words instead.
 */
export function unreadKindException(blanked: string): string | undefined {
  const match = EXCEPT_AFTER_KIND.exec(blanked)
  if (!match?.[1] || !match[2] || !match[3] || !canonicalKind(match[1])) return undefined
  if (match[3].replace(POINTING, '').trim() === '') return undefined
  return `${match[2]} ${match[3].trim()}`
}
