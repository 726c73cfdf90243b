/**
 * Parameter extractors: pure functions from a clause's original text to values. Each returns
 * values in the order written, without duplicates.
 */

const unique = <T>(values: T[]): T[] => [...new Set(values)]

/** Words that join list items; never values themselves. */
const LIST_FILLER = new Set(['and', 'or', 'plus', 'also', 'both', 'either', 'the', 'a', 'an', 'of', 'with', 'as', 'well', 'nor', 'only'])

/**
 * Host names with an optional port and path: registry.acme.io, ghcr.io/acme, 10.0.0.5:5000,
 * localhost:5000. A trailing dot (end of sentence) is not part of the name. Matching is on the
 * exact name: registry.acme.io.evil.com is a different host.
 */
export function hostNames(text: string): string[] {
  const pattern = /(?<![\w@/.-])((?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z][a-z0-9-]*[a-z0-9](?::\d{1,5})?|localhost:\d{1,5}|(?:\d{1,3}\.){3}\d{1,3}(?::\d{1,5})?)((?:\/[a-z0-9][a-z0-9._-]*)*)(?![\w-]|\.[a-z0-9])/gi
  const found: string[] = []
  for (const match of text.matchAll(pattern)) {
    const host = (match[1] ?? '').toLowerCase()
    const path = (match[2] ?? '').replace(/\.+$/, '')
    // File names and field paths look like hosts; a host ends in a letter TLD or has a port.
    if (/\.(ya?ml|json|txt|md)$/.test(host)) continue
    found.push(host + path)
  }
  return unique(found)
}

/** A Kubernetes quantity as written ("500m", "0.5", "1Gi", "2 cores", "512 MiB", "1 GB") in canonical form. */
export interface QuantityMention {
  /** Canonical Kubernetes quantity: 500m, 0.5, 2, 1Gi, 512Mi, 1G. */
  quantity: string
  /** 'cpu' for m / cores / cpu units, 'memory' for byte units, undefined for a bare number. */
  unit: 'cpu' | 'memory' | undefined
  /** Position in the text, to pair quantities with the words near them. */
  index: number
}

const MEMORY_UNITS: Record<string, string> = {
  ki: 'Ki', kib: 'Ki', mi: 'Mi', mib: 'Mi', gi: 'Gi', gib: 'Gi', ti: 'Ti', tib: 'Ti',
  k: 'k', kb: 'k', m: 'M', mb: 'M', g: 'G', gb: 'G', t: 'T', tb: 'T',
}

export function quantities(text: string): QuantityMention[] {
  const pattern = /(?<![\w.])(\d+(?:\.\d+)?)\s*(millicores?|millicpus?|m(?![a-z])|cores?|vcpus?|cpus?|kib|mib|gib|tib|ki|mi|gi|ti|kb|mb|gb|tb|k|g|t)?(?![\w])/gi
  const found: QuantityMention[] = []
  for (const match of text.matchAll(pattern)) {
    const number = match[1] ?? ''
    const rawUnit = (match[2] ?? '').toLowerCase()
    const index = match.index ?? 0
    if (rawUnit === '') {
      found.push({ quantity: number, unit: undefined, index })
    } else if (/^(millicores?|millicpus?)$/.test(rawUnit) || (rawUnit === 'm' && (match[2] ?? '') === 'm')) {
      found.push({ quantity: `${number}m`, unit: 'cpu', index })
    } else if (/^(cores?|vcpus?|cpus?)$/.test(rawUnit)) {
      found.push({ quantity: number, unit: 'cpu', index })
    } else {
      // "M" (capital, alone) is megabytes; "m" lower-case was handled above as millicores.
      const unit = MEMORY_UNITS[rawUnit]
      if (unit) found.push({ quantity: `${number}${unit}`, unit: 'memory', index })
    }
  }
  return found
}

/** Whole and decimal numbers, in order. */
export function numbers(text: string): number[] {
  return [...text.matchAll(/(?<![\w.:-])(\d+(?:\.\d+)?)(?!\w|\.\w)/gi)].map((match) => Number(match[1]))
}

/** Ports and port ranges ("22", "3389", "30000-32767"), as [from, to] pairs. */
export function portRanges(text: string): Array<[number, number]> {
  const found: Array<[number, number]> = []
  for (const match of text.matchAll(/(?<![\w.:/])(\d{1,5})(?:\s*(?:-|–|to|through)\s*(\d{1,5}))?(?![\w.:/])/g)) {
    const from = Number(match[1])
    const to = match[2] === undefined ? from : Number(match[2])
    if (from >= 1 && to <= 65535 && from <= to) found.push([from, to])
  }
  return found
}

/** Strings in quotes or backticks, as written. */
export function quoted(text: string): string[] {
  return unique([...text.matchAll(/"([^"]+)"|'([^']+)'|`([^`]+)`/g)].map((match) => match[1] ?? match[2] ?? match[3] ?? ''))
}

/**
 * The items of a list that follows `after` (a pattern ending where the list starts):
 * "labels team, cost-center and owner" -> team, cost-center, owner. The list ends at a word
 * that cannot be an item (a verb, a preposition) or at the end of the clause.
 */
export function listAfter(text: string, after: RegExp, isItem: (word: string) => boolean): string[] {
  const match = after.exec(text)
  if (!match) return []
  return itemsFrom(text.slice((match.index ?? 0) + match[0].length), isItem)
}

/** The items of a list that ends at `before`: "team and cost-center labels" -> team, cost-center. */
export function listBefore(text: string, before: RegExp, isItem: (word: string) => boolean): string[] {
  const match = before.exec(text)
  if (!match) return []
  const words = tokens(text.slice(0, match.index))
  const items: string[] = []
  for (let index = words.length - 1; index >= 0; index -= 1) {
    const word = words[index] ?? ''
    if (LIST_FILLER.has(word.toLowerCase())) continue
    if (!isItem(word)) break
    items.unshift(stripQuotes(word))
  }
  return unique(items)
}

function itemsFrom(rest: string, isItem: (word: string) => boolean): string[] {
  const items: string[] = []
  for (const word of tokens(rest)) {
    if (LIST_FILLER.has(word.toLowerCase())) continue
    if (!isItem(word)) break
    items.push(stripQuotes(word))
  }
  return unique(items)
}

/** Words split on spaces, commas, `+`, `&` and slashes between spaces; trailing periods dropped. */
function tokens(text: string): string[] {
  return text
    .split(/[\s,;+&]+|\s\/\s/)
    .map((word) => word.replace(/^[(:]+|[):.!?]+$/g, ''))
    .filter((word) => word.length > 0)
}

function stripQuotes(word: string): string {
  return word.replace(/^["'`]|["'`]$/g, '')
}

/** A Kubernetes label or annotation key: optional DNS prefix and `/`, then a name of letters, digits, -, _ and . */
export function isLabelKey(word: string): boolean {
  const bare = stripQuotes(word)
  return /^([a-z0-9]([-a-z0-9.]*[a-z0-9])?\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/.test(bare) && bare.length <= 316
}

/**
 * Dotted field paths (spec.replicas, metadata.labels.team, server.tls.enabled). A host name is
 * also a dotted path; the template decides from the words around it which one the author meant.
 */
export function fieldPaths(text: string): string[] {
  return unique([...text.matchAll(/(?<![\w./-])([A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*|\[\d+\])+)(?![\w/-])/g)].map((match) => (match[1] ?? '').replace(/\.+$/, '')))
}
