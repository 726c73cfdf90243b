/**
 * A condition value given as a string may hold a JSON list of strings (`'["a", "b"]'`), as a
 * context variable or substitution often produces. Kyverno decodes it with Go's json.Unmarshal
 * into a []string: `null` is an empty list, a null element is an empty string, and anything else
 * that is not a list of strings fails.
 */
export type StringListDecoding = { readonly ok: true; readonly items: readonly string[] } | { readonly ok: false; readonly json: boolean }

export function decodeJsonStringList(text: string): StringListDecoding {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return { ok: false, json: false }
  }
  if (parsed === null) return { ok: true, items: [] }
  if (!Array.isArray(parsed)) return { ok: false, json: true }
  const items: string[] = []
  for (const item of parsed) {
    if (item === null) items.push('')
    else if (typeof item === 'string') items.push(item)
    else return { ok: false, json: true }
  }
  return { ok: true, items }
}
