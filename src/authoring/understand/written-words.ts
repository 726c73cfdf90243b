/**
 * Where words a reader worked with stand in the text the author wrote, returned exactly as
 * written (case, hyphens, quotes and backticks kept), so the author can find them: the reader
 * lowercases, joins and strips the words it compares, and the reading shown must not.
 */

/** A piece of the text, as written, and where it starts. */
export interface WrittenSpan {
  words: string
  index: number
}

const QUOTES = new Set(['`', '"', "'"])

/**
 * The first place `wanted` is written in `text` (from `from` on, else anywhere): the same
 * letters and digits, case aside, with any spaces, dashes or quotes between its words
 * ("run as user" is "run-as-user", `is production` is `is "production"`), never inside a longer word. Quotes or backticks around it
 * belong to what was written. Undefined when it is not there.
 */
export function writtenSpan(wanted: string, text: string, from = 0): WrittenSpan | undefined {
  const pieces = wanted.split(/([A-Za-z0-9]+)/).filter((piece) => piece !== '')
  if (!pieces.some((piece) => /[A-Za-z0-9]/.test(piece))) return exactSpan(wanted, text, from)
  // Letters and digits as they are; what stands between them ("." in a path, "/" in a registry) may be written with any spacing.
  const source = pieces.map((piece) => (/[A-Za-z0-9]/.test(piece) ? escape(piece) : piece.trim() === '' ? String.raw`[\s_\-"'\`]+` : String.raw`\s*${escape(piece.trim())}\s*`)).join('')
  // Never inside a longer word, unless what is wanted starts or ends on punctuation (".t2." of "db.t2.*"); a plural is the word ("namespaces").
  const start = /^[A-Za-z0-9]/.test(wanted) ? '(?<![A-Za-z0-9])' : ''
  const end = /[A-Za-z]$/.test(wanted) ? '(?:e?s)?(?![A-Za-z0-9])' : /[0-9]$/.test(wanted) ? '(?![A-Za-z0-9])' : ''
  const pattern = new RegExp(`${start}${source}${end}`, 'gi')
  const found = firstFrom(pattern, text, from)
  if (found === undefined) return undefined
  // Spaces at either end are not words; a quote opened inside and closed right after belongs to them.
  const first = found.index + (/^\s*/.exec(text.slice(found.index, found.index + found.length))?.[0].length ?? 0)
  let last = first + text.slice(first, found.index + found.length).trimEnd().length
  const next = text.charAt(last)
  if (QUOTES.has(next) && (text.slice(first, last).split(next).length - 1) % 2 === 1) last += 1
  return { words: quotedAround(text, first, last), index: quotedStart(text, first, last) }
}

/** Punctuation alone ("*", "+"): the characters as they are. */
function exactSpan(wanted: string, text: string, from: number): WrittenSpan | undefined {
  const trimmed = wanted.trim()
  if (trimmed === '') return undefined
  const after = text.indexOf(trimmed, from)
  const index = after >= 0 ? after : text.indexOf(trimmed)
  return index < 0 ? undefined : { words: quotedAround(text, index, index + trimmed.length), index: quotedStart(text, index, index + trimmed.length) }
}

function firstFrom(pattern: RegExp, text: string, from: number): { index: number; length: number } | undefined {
  const all = [...text.matchAll(pattern)].map((match) => ({ index: match.index, length: match[0].length }))
  return all.find((match) => match.index >= from) ?? all[0]
}

/** The text from `start` to `end`, widened to the quotes or backticks written around it. */
export function quotedAround(text: string, start: number, end: number): string {
  const widened = quotedStart(text, start, end)
  return text.slice(widened, widened === start ? end : end + 1)
}

function quotedStart(text: string, start: number, end: number): number {
  const before = text.charAt(start - 1)
  return QUOTES.has(before) && text.charAt(end) === before ? start - 1 : start
}

/** Whether the words are written in backticks. */
export function inBackticks(words: string): boolean {
  return words.length > 1 && words.startsWith('`') && words.endsWith('`')
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * Where words are looked for: the texts the rule was read from, nearest first (a condition's own
 * words, then its sentence), then the whole instruction (a list head, an earlier sentence).
 */
export interface WhereWritten {
  near: readonly string[]
  instruction: string
}

/** Words looked for in the texts the rule was read from (in the first, after `from` first), then anywhere in the instruction. */
export function writtenNear(wanted: string, where: WhereWritten, from: number): (WrittenSpan & { near: boolean }) | undefined {
  for (const [index, text] of where.near.entries()) {
    const found = writtenSpan(wanted, text, index === 0 ? from : 0)
    if (found) return { ...found, near: true }
  }
  const elsewhere = writtenSpan(wanted, where.instruction)
  return elsewhere ? { ...elsewhere, near: false } : undefined
}
