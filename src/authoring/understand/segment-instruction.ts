/**
 * Cuts an instruction into the sentences it is made of, keeping what holds them together: the
 * head a bullet list hangs from ("Deployments must be annotated with:"), the paragraph a
 * sentence belongs to, and the parenthetical remarks inside a sentence.
 */
export interface Segment {
  /** The sentence without its parentheticals, with the list head it completes when it is a bullet. */
  text: string
  /** As written (for reports). */
  original: string
  /** Sentences of one paragraph or one list share a group. */
  group: number
  /** A bullet or numbered item. */
  bullet: boolean
  /** The head line the item hangs from, when it has one. */
  head?: string
  /** Text in parentheses inside the sentence, each read on its own. */
  parentheticals: string[]
  /** A line ending with a colon that the bullets under it complete: read through them, not alone. */
  headsList?: boolean
}

const BULLET = /^\s*(?:[-*•‣◦]|\d{1,2}[.)]|\(\d{1,2}\)|\(?[a-h][.)])\s+/
const ABBREVIATIONS = /\b(e\.g|i\.e|incl|etc|vs|approx|min|max|no|esp|resp|cf|ca)\.$/i

export function normalizeInstruction(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[’‘]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/[–—]/g, ' - ')
    .replace(/\u00a0/g, ' ')
    .split('')
    .map((char) => (isControl(char) ? ' ' : char))
    .join('')
}

/** Control characters other than tab and newlines: never part of a requirement. */
function isControl(char: string): boolean {
  const code = char.charCodeAt(0)
  return (code < 32 && code !== 9 && code !== 10 && code !== 13) || code === 127
}

export function segmentInstruction(instruction: string): Segment[] {
  const lines = normalizeInstruction(instruction).split('\n')
  const segments: Segment[] = []
  let group = 0
  let head: string | undefined
  let previousBlank = true
  for (const rawLine of lines) {
    const line = rawLine.trim()
    if (line === '') {
      previousBlank = true
      head = undefined
      continue
    }
    // Lines indented under a line ending with a colon are its items, with or without a bullet mark.
    const bullet = BULLET.test(line) || (head !== undefined && /^\s+\S/.test(rawLine))
    if (!bullet) {
      if (head !== undefined || previousBlank) group += 1
      head = undefined
    } else if (head === undefined && previousBlank) {
      group += 1
    }
    previousBlank = false
    const body = BULLET.test(line) ? line.replace(BULLET, '') : line
    // "(1) run as non-root; (2) ..." on one line: each numbered item is its own sentence.
    const items = splitInlineEnumeration(body)
    const sentences = items.flatMap(splitSentences)
    for (const sentence of sentences) {
      const { text, parentheticals } = takeParentheticals(sentence)
      const cleaned = text.replace(/\s+/g, ' ').trim()
      if (cleaned === '' && parentheticals.length === 0) continue
      const segment: Segment = { text: cleaned, original: sentence.trim(), group, bullet: bullet || items.length > 1, parentheticals }
      if (bullet && head !== undefined) segment.head = head
      segments.push(segment)
    }
    // A line ending with a colon heads the bullets under it.
    // Only its last sentence: "Feature flag file checks. Each entry in `flags` needs:" heads with "Each entry ...".
    const last = segments[segments.length - 1]
    if (!bullet && /:\s*$/.test(body) && last) head = last.text.replace(/:\s*$/, '').trim()
  }
  for (let index = 0; index + 1 < segments.length; index += 1) {
    const segment = segments[index]
    const next = segments[index + 1]
    if (segment && next?.head !== undefined && /:\s*$/.test(segment.text) && next.head === segment.text.replace(/:\s*$/, '').trim()) segment.headsList = true
  }
  return segments
}

function splitInlineEnumeration(text: string): string[] {
  const markers = [...text.matchAll(/(?:^|\s)\((\d{1,2})\)\s/g)]
  if (markers.length < 2) return [text]
  const parts: string[] = []
  let start = 0
  for (const marker of markers) {
    const index = (marker.index ?? 0) + (marker[0].startsWith(' ') ? 1 : 0)
    if (index > start) parts.push(text.slice(start, index))
    start = index + marker[0].trimStart().length
  }
  parts.push(text.slice(start))
  return parts.map((part) => part.trim().replace(/[;,]\s*(and)?\s*$/, '')).filter((part) => part.length > 0)
}

/** Sentence ends: . ! ? or ; followed by space, never inside dotted names (app.kubernetes.io) or after "e.g.". */
function splitSentences(text: string): string[] {
  const sentences: string[] = []
  let start = 0
  let depth = 0
  let quote: string | undefined
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index] ?? ''
    if (char === '`') quote = quote === '`' ? undefined : quote ?? '`'
    if (quote) continue
    if (char === '(') depth += 1
    if (char === ')') depth = Math.max(0, depth - 1)
    if (depth > 0) continue
    const next = text[index + 1]
    if ((char === '.' || char === '!' || char === '?' || char === ';') && (next === undefined || next === ' ')) {
      const candidate = text.slice(start, index + 1)
      if (char === '.' && ABBREVIATIONS.test(candidate)) continue
      sentences.push(text.slice(start, char === ';' ? index : index + 1))
      start = index + 1
    }
  }
  sentences.push(text.slice(start))
  return sentences.map((sentence) => sentence.trim()).filter((sentence) => sentence.length > 0)
}

/** Removes "( ... )" remarks (not brackets of a path like `ports[*]`) and returns them apart; remarks that say what the words before them mean precisely are read in place (see inlined). */
function takeParentheticals(sentence: string): { text: string; parentheticals: string[] } {
  const parentheticals: string[] = []
  let text = ''
  let depth = 0
  let current = ''
  let start = 0
  for (let index = 0; index < sentence.length; index += 1) {
    const char = sentence.charAt(index)
    if (char === '(') {
      if (depth > 0) current += char
      else start = index
      depth += 1
      continue
    }
    if (char === ')' && depth > 0) {
      depth -= 1
      if (depth === 0) {
        const remark = current.trim()
        const inline = inlined(text, remark, sentence.slice(index + 1))
        if (inline) text = inline
        else {
          parentheticals.push(remark)
          text += ' '
        }
        current = ''
      } else {
        current += char
      }
      continue
    }
    if (depth > 0) current += char
    else text += char
  }
  if (depth > 0) text += sentence.slice(start)
  return { text: text.replace(/\s+([,.;:!?])/g, '$1'), parentheticals: parentheticals.filter((item) => item.length > 0) }
}

const FORMAT_REMARK = /^(?:an?\s+)?(?:valid\s+)?(?:e-?mail(?: address)?|semver|semantic version|https?(?: url)?|url|dns(?:-| )(?:label|name)|iso ?8601(?: date)?|yyyy-mm-dd|snake_case|kebab-case|lowercase letters,? digits,? and (?:dashes|hyphens)(?: only)?)$/i
const ASSIGNMENT_REMARK = /^[`"']?([A-Za-z_][\w.\-/[\]']*)[`"']?\s*(?::|=|==)\s*[`"']?([\w./:@*-]+)[`"']?$/
/** "a catch-all toleration", "the GPU taint": an article, at most two describing words, and the noun they describe. */
const ELEMENT_NAMED = /\b(an?|the|any|one|every|each)\s+(?:[\w-]+\s+){0,2}?([A-Za-z]+)\s*$/i
const ELEMENT_PART = String.raw`(?:[\`"']?[A-Za-z]\w*[\`"']?\s*(?::|=)?\s*[\`"']?[\w./:@*-]+[\`"']?|(?:no|without(?:\s+(?:an?|any))?)\s+[\`"']?[A-Za-z]\w*[\`"']?)`
/** "operator: Exists without a key", "key node-role.kubernetes.io/control-plane, effect NoSchedule": fields and values, or a field left out. */
const ELEMENT_REMARK = new RegExp(String.raw`^${ELEMENT_PART}(?:\s*(?:,\s*(?:and\s+)?|\s+and\s+|\s+(?=without\b|with no\b)|\s+with\s+(?=no\b))${ELEMENT_PART})*$`, 'i')
const MODAL = /\b(must|mustn'?t|has to|have to|needs? to|should|shall|can'?t|cannot|may not|is required|are required)\b/i

/**
 * A remark that names precisely what the words before it mean is read in their place:
 * "an owner (email)" is "an owner as email"; "In production configs (environment: production)"
 * is "When environment is production,"; "must have TLS switched on (server.tls.enabled: true)"
 * is "server.tls.enabled must be true". Returns the new text before the remark, or undefined to
 * keep the remark apart.
 */
function inlined(before: string, remark: string, after: string): string | undefined {
  if (FORMAT_REMARK.test(remark) && /\w\s*$/.test(before)) return `${before.trimEnd()} as ${remark}`
  // "a catch-all toleration (operator: Exists without a key)": the remark says which elements the words before it mean.
  const element = ELEMENT_NAMED.exec(before)
  if (element?.[1] && element[2] && ELEMENT_REMARK.test(remark)) return `${before.slice(0, element.index)}${element[1]} ${element[2]} with ${remark}`
  const assignment = ASSIGNMENT_REMARK.exec(remark)
  if (!assignment?.[1] || !assignment[2]) return undefined
  const [, field, value] = assignment
  const clauseStart = Math.max(before.lastIndexOf(','), before.lastIndexOf(';'), before.lastIndexOf(':') > before.length - 3 ? -1 : before.lastIndexOf(': ')) + 1
  const clause = before.slice(clauseStart)
  // "In production configs (environment: production) ...": a scope, read as a condition.
  if (/^\s*(?:in|for|on|within)\s+[^,]{1,40}$/i.test(clause) && !MODAL.test(clause)) return `${before.slice(0, clauseStart)} When ${field} is ${value},`
  // "Contractors (contractor: true) can't be admins": the subject, narrowed by the remark.
  if (!MODAL.test(clause) && MODAL.test(after.split(/[.;]/)[0] ?? '') && clause.trim().split(/\s+/).length <= 4) return `${before.slice(0, clauseStart)} When ${field} is ${value}, ${clause.trim()}`
  // "... must have TLS switched on (server.tls.enabled: true)": the remark is the requirement itself.
  if (MODAL.test(clause) && /^\s*(?:$|[,.;]|and\b|but\b)/i.test(after)) {
    const negated = /\b(must not|mustn'?t|can'?t|cannot|may not|should not|never)\b/i.test(clause)
    return `${before.slice(0, clauseStart)} ${field} must ${negated ? 'not ' : ''}be ${value}`
  }
  return undefined
}
