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
 * letters and digits, case aside, with any spaces or punctuation between its words
 * ("run as user" is "run-as-user"), never inside a longer word. Quotes or backticks around it
 * belong to what was written. Undefined when it is not there.
 */
export function writtenSpan(wanted: string, text: string, from = 0): WrittenSpan | undefined {
  const pieces = wanted.split(/([A-Za-z0-9]+)/).filter((piece) => piece !== '')
  if (!pieces.some((piece) => /[A-Za-z0-9]/.test(piece))) return exactSpan(wanted, text, from)
  // Letters and digits as they are; what stands between them ("." in a path, "/" in a registry) may be written with any spacing.
  const source = pieces.map((piece) => (/[A-Za-z0-9]/.test(piece) ? escape(piece) : piece.trim() === '' ? String.raw`[\s_-]+` : String.raw`\s*${escape(piece.trim())}\s*`)).join('')
  const pattern = new RegExp(String.raw`(?<![A-Za-z0-9])${source}(?![A-Za-z0-9])`, 'gi')
  const found = firstFrom(pattern, text, from)
  return found === undefined ? undefined : quoted(text, found.index, found.index + found.length)
}

/** Punctuation alone ("*", "+"): the characters as they are. */
function exactSpan(wanted: string, text: string, from: number): WrittenSpan | undefined {
  const trimmed = wanted.trim()
  if (trimmed === '') return undefined
  const after = text.indexOf(trimmed, from)
  const index = after >= 0 ? after : text.indexOf(trimmed)
  return index < 0 ? undefined : quoted(text, index, index + trimmed.length)
}

function firstFrom(pattern: RegExp, text: string, from: number): { index: number; length: number } | undefined {
  const all = [...text.matchAll(pattern)].map((match) => ({ index: match.index, length: match[0].length }))
  return all.find((match) => match.index >= from) ?? all[0]
}

/** The span widened to the quotes or backticks written around it. */
function quoted(text: string, start: number, end: number): WrittenSpan {
  const before = text.charAt(start - 1)
  if (QUOTES.has(before) && text.charAt(end) === before) return { words: text.slice(start - 1, end + 1), index: start - 1 }
  return { words: text.slice(start, end), index: start }
}

/** Whether the words are written in backticks. */
export function inBackticks(words: string): boolean {
  return words.length > 1 && words.startsWith('`') && words.endsWith('`')
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
