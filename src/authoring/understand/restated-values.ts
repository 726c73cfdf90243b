import { insideAside } from './coverage.js'

/**
 * A value written unquoted that can only be a value or a key: a path or a domain-qualified name
 * (`kubernetes.io/service-account-token`) or a dotted name. Hyphenated words ("hand-made") are
 * English, and names with digits ("IMDSv2", "EC2") name standards and services as often as values:
 * neither counts.
 */
const VALUE_LIKE = /(?<![\w`"'./-])([A-Za-z0-9]+(?:[./][A-Za-z0-9][\w-]*)+)(?![\w`"'/-]|\.[A-Za-z0-9])/g

/** A host or a name under one ("acme.io", "kubernetes.io/tls"): in a requirement sentence only these are surely values. */
const DOMAIN = /^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|io|net|org|dev|local|internal|cloud|app|co|uk|de|example|sh)(?:\/|$)/i

/**
 * The unquoted values a sentence writes that no rule uses. Taken as a restatement, "Secrets of
 * type kubernetes.io/service-account-token are banned" restates nothing when no rule reads the
 * type; it asks something of its own that was not read. With `domainsOnly` (a requirement
 * sentence, where paths and file names are fields as often as values), only hosts and names under
 * one count: "an email address at acme.io" read as any email drops the domain. Examples and
 * rationale are aside.
 */

export function unquotedValuesUnused(text: string, used: readonly string[], domainsOnly = false): string[] {
  const haystack = used.map((item) => item.toLowerCase())
  const unused: string[] = []
  for (const match of text.matchAll(VALUE_LIKE)) {
    const token = match[1] ?? ''
    if ((domainsOnly && !DOMAIN.test(token)) || /^(?:e\.g|i\.e|etc|vs)$/i.test(token) || /^v?\d+(?:\.\d+)*$/i.test(token) || insideAside(text, match.index)) continue
    const lower = token.toLowerCase()
    if (!haystack.some((item) => item.includes(lower))) unused.push(token)
  }
  return unused
}
