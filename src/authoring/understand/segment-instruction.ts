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
    const bullet = BULLET.test(line)
    if (!bullet) {
      if (head !== undefined || previousBlank) group += 1
      head = undefined
    } else if (head === undefined && previousBlank) {
      group += 1
    }
    previousBlank = false
    const body = bullet ? line.replace(BULLET, '') : line
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
    if (!bullet && /:\s*$/.test(body)) head = body.replace(/:\s*$/, '').trim()
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

/** Removes "( ... )" remarks (not brackets of a path like `ports[*]`) and returns them apart. */
function takeParentheticals(sentence: string): { text: string; parentheticals: string[] } {
  const parentheticals: string[] = []
  let text = ''
  let depth = 0
  let current = ''
  for (const char of sentence) {
    if (char === '(') {
      if (depth > 0) current += char
      depth += 1
      continue
    }
    if (char === ')' && depth > 0) {
      depth -= 1
      if (depth === 0) {
        parentheticals.push(current.trim())
        current = ''
        text += ' '
      } else {
        current += char
      }
      continue
    }
    if (depth > 0) current += char
    else text += char
  }
  if (depth > 0) text += `(${current}`
  return { text: text.replace(/\s+([,.;:!?])/g, '$1'), parentheticals: parentheticals.filter((item) => item.length > 0) }
}
