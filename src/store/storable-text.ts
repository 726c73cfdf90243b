/**
 * Text PostgreSQL cannot hold, and what the store writes instead.
 *
 * PostgreSQL `text` refuses U+0000, and `jsonb` refuses the escapes `\u0000` and an unpaired
 * UTF-16 surrogate (`\ud800` with no low half after it). A JavaScript string may hold both: a
 * document's strings, a rule message echoing them, an AdmissionReview uid or user name. Such
 * a value must neither fail the write nor lose the audit, so the store replaces each of those
 * code units with U+FFFD (the Unicode replacement character), as a decoder does with bytes it
 * cannot read. A document stored as JSON text keeps them exactly, since JSON.stringify and the
 * YAML dumper write both as escapes (`\u0000`, `\ud800`); only text that holds the raw
 * characters loses them. The REST API refuses them in parameters and bodies (400) before they
 * reach a query, except in the evaluated document, which is audited as it is.
 */

/** U+0000, or a surrogate without its other half. */
// eslint-disable-next-line no-control-regex -- U+0000 is exactly what must be found
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/
const UNSTORABLE_ALL = new RegExp(UNSTORABLE.source, 'g')
/** Any surrogate at all: a cheap first look, since almost no text holds one. */
const SURROGATE = /[\uD800-\uDFFF]/
/** In JSON.stringify's output both arrive as escapes (lowercase hex, as it writes them). */
const UNSTORABLE_ESCAPE = /\\u0000|\\ud[89a-f]/

/** The first code unit of `text` the store cannot hold, with its position; undefined when there is none. */
export function unstorableCharacterIn(text: string): { index: number; codeUnit: number } | undefined {
  if (!text.includes('\u0000') && !SURROGATE.test(text)) return undefined
  const found = UNSTORABLE.exec(text)
  return found ? { index: found.index, codeUnit: text.charCodeAt(found.index) } : undefined
}

/** How a code unit is named in messages: `U+0000 (NUL)`, `U+D800 (an unpaired surrogate)`. */
export function describeCodeUnit(codeUnit: number): string {
  const hex = `U+${codeUnit.toString(16).toUpperCase().padStart(4, '0')}`
  return codeUnit === 0 ? `${hex} (NUL)` : `${hex} (an unpaired UTF-16 surrogate)`
}

/** `text` with U+0000 and unpaired surrogates replaced by U+FFFD; the same string when it has none. */
export function storableText(text: string): string {
  if (!text.includes('\u0000') && !SURROGATE.test(text)) return text
  return text.replace(UNSTORABLE_ALL, '\uFFFD')
}

/** JSON text of `value` that jsonb accepts: every string and key made storable. */
export function storableJson(value: unknown): string {
  const json = JSON.stringify(value)
  // A match may be a false alarm (an escaped backslash before "u0000"); the slow path is then merely redundant.
  if (!UNSTORABLE_ESCAPE.test(json)) return json
  return JSON.stringify(storableValue(value))
}

function storableValue(value: unknown): unknown {
  if (typeof value === 'string') return storableText(value)
  if (Array.isArray(value)) return value.map(storableValue)
  if (typeof value !== 'object' || value === null) return value
  // As JSON.stringify would: a value with toJSON (a Date) is written as what it returns.
  const toJSON: unknown = (value as { toJSON?: unknown }).toJSON
  if (typeof toJSON === 'function') return storableValue((toJSON as () => unknown).call(value))
  // fromEntries defines keys as own properties, so a key such as "__proto__" stays a key.
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [storableText(key), storableValue(item)]))
}

/**
 * The path of the first key or string inside `value` that the store cannot hold (`spec.rules[0].message`),
 * with the code unit found; undefined when every string is storable. Walks with its own stack, so
 * the depth of `value` cannot overflow it.
 */
export function unstorableTextPath(value: unknown, root: string): { path: string; codeUnit: number } | undefined {
  const pending: Array<{ value: unknown; path: string }> = [{ value, path: root }]
  while (pending.length > 0) {
    const next = pending.pop() as { value: unknown; path: string }
    if (typeof next.value === 'string') {
      const found = unstorableCharacterIn(next.value)
      if (found) return { path: next.path, codeUnit: found.codeUnit }
      continue
    }
    if (typeof next.value !== 'object' || next.value === null) continue
    if (Array.isArray(next.value)) {
      for (let index = next.value.length - 1; index >= 0; index -= 1) pending.push({ value: next.value[index], path: `${next.path}[${index}]` })
      continue
    }
    const entries = Object.entries(next.value)
    for (let index = entries.length - 1; index >= 0; index -= 1) {
      const [key, item] = entries[index] as [string, unknown]
      const keyFound = unstorableCharacterIn(key)
      const path = /^[A-Za-z_$][\w$-]*$/.test(key) ? `${next.path}.${key}` : `${next.path}[${JSON.stringify(key)}]`
      if (keyFound) return { path, codeUnit: keyFound.codeUnit }
      pending.push({ value: item, path })
    }
  }
  return undefined
}
