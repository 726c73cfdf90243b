import { kindsNamedIn, normalizeText } from '../text/clause.js'

/**
 * "Only pods in the kube-system namespace may use hostNetwork", "only Deployments labelled
 * `tier: edge` can set hostPort": what the sentence permits to some documents it forbids to every
 * other. The sentence is read as the ban ("must not use hostNetwork"), the scope its modifiers
 * read becomes the ban's exemption; a scope whose words were not read refuses, since the ban
 * without it would reject the very documents the sentence permits.
 */
export interface OnlyScopeMay {
  /** The ban the sentence implies, said as a requirement. */
  ban: string
  /** The words between the kind and the verb that narrow who may ("in kube-system or monitoring"), when any are left unread. */
  unreadScope?: string
}

const ONLY_SUBJECT_MAY = /^\W*(?:and\s+|but\s+)?only\s+(?:the\s+)?(.+?)\s+(?:may|can|are allowed to|is allowed to|are permitted to|is permitted to)\s+(?!be\b)(.+?)[.!]?\s*$/i

/**
 * `body` is the sentence; `blanked` the same with the spans its modifiers took replaced by spaces;
 * `scoped` says whether those modifiers hold a scope (a namespace, a label) that can exempt.
 */
export function readOnlyScopeMay(body: string, blanked: string, scoped: boolean): OnlyScopeMay | undefined {
  const match = ONLY_SUBJECT_MAY.exec(body)
  if (!match?.[1] || !match[2]) return undefined
  const subject = match[1].replace(/\s+/g, ' ').trim()
  const kinds = kindsNamedIn(normalizeText(subject))
  const noun = /^(?:pods?|workloads?|containers?)\b/i.exec(subject)?.[0] ?? (kinds.length > 0 ? subject.split(' ')[0] : undefined)
  // "Only these sysctls may appear": values permitted, not documents; only-permitted.ts reads those.
  if (noun === undefined) return undefined
  const ban = `${noun} must not ${match[2]}`
  // What of the subject the modifiers did not take: "only" and the kind aside, words that still narrow it.
  const before = /^(.*?)(?:^|\s)(?:may|can|are allowed to|is allowed to|are permitted to|is permitted to)\s/i.exec(blanked)?.[1] ?? blanked
  const leftover = before
    .replace(/\b(?:and|but|only|the)\b/gi, ' ')
    .replace(new RegExp(String.raw`\b${noun}\b`, 'i'), ' ')
    .replace(/[\s,.;:]+/g, ' ')
    .trim()
  if (leftover !== '') return { ban, unreadScope: leftover }
  return scoped ? { ban } : undefined
}
