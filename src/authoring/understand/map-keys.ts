/**
 * The keys a sentence names for a map of labels, annotations or tags, around the word that says
 * which map: "the labels `team`, `tier` and app", "an `owner` label naming the owning team",
 * "the nginx.ingress.kubernetes.io/server-snippet annotation". Quoted keys are what authors mean
 * when they quote any; bare words count only as a list (separated by commas, "and", "or") of
 * words that look like keys, so "are banned outright" or "naming the owning team" are not keys.
 */
const KEY = /`([^`]+)`|"([^"]+)"|'([^']+)'|([A-Za-z0-9][\w.-]*(?:\/[\w.-]+)?)/g

/** Words around a key list that are never keys themselves. */
const FILLER = /^(and|or|the|a|an|on|of|with|these|following|labels?|keys?|annotations?|tags?|named|called|itself|both|all|every|each|plus|key)$/i

/** Words that end a list of keys: verbs, adjectives and prepositions that describe rather than name. */
const NOT_A_KEY = /^(are|is|was|were|be|been|being|not|just|pod|template|deployment|deployments|resource|resources|metadata|must|in|value|values|set|to|its|their|it|present|required|too|also|match|matches|matching|should|need|needs|has|have|like|for|from|that|which|whose|where|so|as|at|by|if|when|unless|then|than|but|non-empty|nonempty|empty|missing|mandatory|optional|valid|proper|always|never|any|some|no|only|whatever|saying|naming|holding|containing|carrying|giving|showing|pointing|listing|set to|equal|banned|forbidden|allowed|rejected|outright|too)$/i

const SEPARATOR = /^\s*(?:,\s*(?:and|or)?|and|or|\/|&|\+)\s*$/i

export interface KeyToken {
  key: string
  quoted: boolean
}

function tokens(text: string): Array<KeyToken & { index: number; end: number }> {
  return [...text.matchAll(KEY)].map((match) => {
    const quotedKey = match[1] ?? match[2] ?? match[3]
    // A bare key ends before the sentence's full stop: "team and tier."
    const key = quotedKey !== undefined ? quotedKey.trim() : (match[4] ?? '').replace(/[.-]+$/, '')
    return { key, quoted: quotedKey !== undefined, index: match.index ?? 0, end: (match.index ?? 0) + match[0].length }
  })
}

/** Keys listed from the start of `text`: quoted ones when any is quoted, else a separated list of key-like words. */
export function keysListedAfter(text: string): string[] {
  const found = tokens(text)
  // Quoted keys: every one before a word that starts a description ("whose", "with").
  const quoted: string[] = []
  for (const token of found) {
    if (!token.quoted && /^(whose|which|that|where|so|set|must|should|has|have|needs?|is|are)$/i.test(token.key)) break
    if (token.quoted) quoted.push(token.key)
  }
  if (quoted.length > 0) return quoted
  const keys: string[] = []
  let last: (typeof found)[number] | undefined
  for (const token of found) {
    if (keys.length === 0 && FILLER.test(token.key)) continue
    if (NOT_A_KEY.test(token.key) || FILLER.test(token.key)) {
      if (/^(and|or)$/i.test(token.key)) continue
      break
    }
    // "app.kubernetes.io/name, team and tier": after the first, a key comes only after a separator.
    if (last && !SEPARATOR.test(text.slice(last.end, token.index).replace(/\b(?:the|a|an)\b/gi, ' '))) break
    if (/^[A-Z]/.test(token.key) && !/[./-]/.test(token.key) && token.key.length > 12) break
    keys.push(token.key)
    last = token
    if (keys.length > 12) break
  }
  return keys
}

/** Keys right before the word ("an `owner` label", "team and cost-center labels"), read backwards. */
export function keysListedBefore(text: string): KeyToken[] {
  const words = text.trim().split(/\s+/)
  const keys: KeyToken[] = []
  for (let index = words.length - 1; index >= 0; index -= 1) {
    const raw = words[index] ?? ''
    const word = raw.replace(/^[`"'(]+|[`"',)]+$/g, '')
    if (/^(and|or|\+|&)$/i.test(word)) continue
    if (word === '' || FILLER.test(word) || NOT_A_KEY.test(word) || /^(with|every|these|following|carry|set|required)$/i.test(word) || !/^[A-Za-z0-9][\w./-]*$/.test(word)) break
    keys.unshift({ key: word, quoted: /^[`"']/.test(raw) })
  }
  return keys
}
