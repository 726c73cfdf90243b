/**
 * "IMDSv2 is mandatory, i.e. metadata_options with http_tokens = "required"", "must not be
 * internet-facing. On EKS that means the Service carries ...": the words after "i.e." or "that
 * means" say precisely what the sentence before said loosely. The precise reading is the one kept.
 */
const MARKER = /(?:^|[\s,;:(])(?:i\.\s?e\.?|ie\.|that means|which means|this means|meaning|in other words|concretely|specifically|in practice)[,:]?\s+/i

const HAS_MODAL = /\b(must|mustn'?t|has to|have to|needs? to|should|shall|can'?t|cannot|may not|never|required|mandatory|not allowed|rejected|forbidden|banned)\b/i

/** What the loose sentence forbids: a noun phrase restating it names the thing forbidden. */
const FORBIDS = /\b(?:no|nobody|no one|none|never|not|cannot|can'?t|mustn'?t|may not|forbid(?:s|den)?|disallow(?:s|ed)?|ban(?:s|ned)?|prohibit(?:s|ed)?|reject(?:s|ed)?)\b/i

/** Third-person verbs a precise restatement states its requirement with, and their base form. */
const STATING_VERB = /\b(carries|has|sets|uses|is|are|specifies|includes|contains|lists|points|runs|defines|declares|enables|disables)\b/i

const BASE: Readonly<Record<string, string>> = {
  carries: 'carry', has: 'have', sets: 'set', uses: 'use', is: 'be', are: 'be', specifies: 'specify', includes: 'include',
  contains: 'contain', lists: 'list', points: 'point', runs: 'run', defines: 'define', declares: 'declare', enables: 'enable', disables: 'disable',
}

/**
 * The precise restatement in a sentence, as a requirement the clause reader can take, and what
 * came before it when that states a requirement of its own ("IMDSv2 is mandatory, i.e. ...").
 */
export function splitRestatement(sentence: string): { head: string; precise: string } | undefined {
  const marker = MARKER.exec(sentence)
  if (!marker) return undefined
  const before = sentence.slice(0, marker.index).replace(/[\s,;:(]+$/, '')
  const head = HAS_MODAL.test(before) ? before : ''
  const tail = sentence.slice(marker.index + marker[0].length).trim().replace(/\)\s*([.!]?)$/, '$1')
  if (tail === '') return undefined
  if (HAS_MODAL.test(tail)) return { head, precise: tail }
  const verb = STATING_VERB.exec(tail)
  // "nobody may tolerate every taint, i.e. a toleration with operator Exists and no key": the thing named is the one forbidden.
  if (!verb?.[1]) return { head, precise: `${FORBIDS.test(before) ? 'must not have' : 'must have'} ${tail}` }
  return { head, precise: `${tail.slice(0, verb.index)}must ${BASE[verb[1].toLowerCase()] ?? verb[1]}${tail.slice(verb.index + verb[1].length)}` }
}
