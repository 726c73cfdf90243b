import { insideAside } from './coverage.js'

/**
 * A value written unquoted that can only be a value or a key: a path or a domain-qualified name
 * (`kubernetes.io/service-account-token`) or a dotted name. Hyphenated words ("hand-made") are
 * English, and names with digits ("IMDSv2", "EC2") name standards and services as often as values:
 * neither counts.
 */
const VALUE_LIKE = /(?<![\w`"'./-])([A-Za-z0-9]+(?:[./][A-Za-z0-9][\w-]*)+)(?![\w`"'/-]|\.[A-Za-z0-9])/g

/**
 * The unquoted values a sentence taken as a restatement writes that no rule uses: "Secrets of
 * type kubernetes.io/service-account-token are banned" restates nothing when no rule reads the
 * type; it asks something of its own that was not read. Examples and rationale are aside.
 */
export function unquotedValuesUnused(text: string, used: readonly string[]): string[] {
  const haystack = used.map((item) => item.toLowerCase())
  const unused: string[] = []
  for (const match of text.matchAll(VALUE_LIKE)) {
    const token = match[1] ?? ''
    if (/^(?:e\.g|i\.e|etc|vs)$/i.test(token) || /^v?\d+(?:\.\d+)*$/i.test(token) || insideAside(text, match.index)) continue
    const lower = token.toLowerCase()
    if (!haystack.some((item) => item.includes(lower))) unused.push(token)
  }
  return unused
}
