/**
 * Maps how people name a Kubernetes field to its path in the kind's schema table
 * (`kubernetes-fields.ts`): a field name or path as written ("hostNetwork",
 * "securityContext.privileged", "containers[*].ports[*].hostPort", "spec.replicas"), or words
 * ("memory limit", "readiness probe", "pod anti-affinity", "successful jobs history limit").
 *
 * Written paths match as a suffix of schema paths, segment by segment, case-insensitively
 * (`object.` in front is dropped, `[*]`, `[0]` and `[]` all mean array items); an exact path wins
 * outright. Words are tokenized (camelCase, snake_case, dots and hyphens split, lowercased, lightly
 * singularized, a few synonyms such as "environment variables" for `env`), filler words dropped,
 * and every remaining word must be found among the path's segments, the last segment (the field
 * itself) among them; words naming the kind ("deployment") and "pod" may go unmatched. Candidates
 * rank by, in
 * order: not deprecated; not alpha/beta (feature-gated); the leaf named fully; fewest segments the
 * mention does not account for (`spec`, `template`, `jobTemplate`, `metadata` and a pod's
 * `containers[]` are free); "pod" meaning the pod level. Every candidate tied with the best on
 * these is returned, shortest path first, so a field that exists both for the pod and for each
 * container (`runAsNonRoot`, `seccompProfile`) comes back twice, pod level first.
 *
 * A pod's `initContainers[]` and `ephemeralContainers[]` repeat the container fields; they count
 * as unaccounted segments unless the mention says "init" or "ephemeral", so the `containers[]`
 * path is the representative (the compiler applies a container rule to all three lists itself).
 *
 * A written path that goes on past a map names one of its keys (`metadata.labels.team`); the
 * result's path carries the key, bracketed and quoted when it is not a plain name
 * (`metadata.annotations['example.com/owner']`).
 *
 * `resources.limits` and `resources.requests` are maps of quantities: their known keys
 * (`cpu`, `memory`, `ephemeral-storage`; `storage` for claims) are listed as fields of their own,
 * e.g. "memory limit" is `spec.containers[].resources.limits.memory`.
 */
import { KIND_WORDS } from '../text/kinds.js'
import { kubernetesFields, type FieldInfo } from './kubernetes-fields.js'

/** The fields a mention names in a kind's schema, best first; empty when nothing fits. */
export function resolveKubernetesField(kind: string, mention: string): FieldInfo[] {
  const index = indexFor(kind)
  if (index.entries.length === 0) return []
  const text = mention.trim()
  if (text === '') return []
  // "the `NodePort` type": Kubernetes field names are lowerCamelCase; one capitalized word is a kind or an enum value
  // (NodePort, Always, RuntimeDefault), never the namesake field it matches case-insensitively (`nodePort`).
  if (/^[`'"]?[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)*[`'"]?$/.test(text)) return []
  if (PATH_LIKE.test(text)) {
    const byPath = resolvePath(index, text)
    if (byPath.length > 0) return byPath
  }
  return resolveWords(index, text)
}

/** The keys of `resources.limits` and `resources.requests` listed as fields (with `storage` for claims). */
export const KNOWN_QUANTITY_KEYS: readonly string[] = ['cpu', 'memory', 'ephemeral-storage']

interface IndexedField {
  readonly info: FieldInfo
  /** Segment names, lowercased, without `[]`. */
  readonly names: readonly string[]
  /** The tokens of each segment. */
  readonly tokens: readonly (readonly string[])[]
  /** Whether each segment is free: never counted as unaccounted for. */
  readonly free: readonly boolean[]
  /** Every token of every segment. */
  readonly allTokens: ReadonlySet<string>
  /** The path is an array's items (`spec.policyTypes[]`). */
  readonly items: boolean
  /** Under a pod spec and not inside a container: "pod" names this level. */
  readonly podLevel: boolean
  /** The field or one of its parents is deprecated, or alpha/beta. */
  readonly deprecated: boolean
  readonly featureGated: boolean
}

interface KindIndex {
  readonly entries: readonly IndexedField[]
  /** Token to the entries (by position) that have it. */
  readonly postings: ReadonlyMap<string, readonly number[]>
  /** Words that name the kind itself ("deployment", "deploy"): they select nothing. */
  readonly kindWords: ReadonlySet<string>
}

const indexes = new Map<string, KindIndex>()

function indexFor(kind: string): KindIndex {
  let index = indexes.get(kind)
  if (!index) {
    index = buildIndex(kind)
    indexes.set(kind, index)
  }
  return index
}

const CONTAINER_LISTS = new Set(['containers', 'initContainers', 'ephemeralContainers'])
const FREE_SEGMENTS = new Set(['spec', 'template', 'jobTemplate', 'metadata'])

function buildIndex(kind: string): KindIndex {
  const fields = withKnownMapKeys(kind, kubernetesFields(kind))
  const paths = new Set(fields.map((field) => field.path))
  // A pod spec is wherever `containers[].image` sits: `spec`, `spec.template.spec`, ...
  const podSpecs = fields
    .filter((field) => field.path.endsWith('.containers[].image'))
    .map((field) => field.path.slice(0, -'.containers[].image'.length))
  const podSpecPrefixes = podSpecs.map((root) => ({ prefix: `${root}.`, segments: root.split('.').length }))
  const podMetadata = kind === 'Pod' ? ['metadata.'] : podSpecs.map((root) => `${root.slice(0, -'spec'.length)}metadata.`)
  const flagged = new Map<string, { deprecated: boolean; featureGated: boolean }>()
  const entries: IndexedField[] = []
  for (const info of fields) {
    const segments = info.path.split('.').map(segmentOf)
    const parent = flagged.get(parentPath(info.path, paths))
    const deprecated = (parent?.deprecated ?? false) || info.deprecated === true
    const featureGated = (parent?.featureGated ?? false) || info.featureGated === true
    flagged.set(info.path, { deprecated, featureGated })
    const podSegments = podSpecPrefixes.find(({ prefix }) => info.path.startsWith(prefix))?.segments ?? -1
    const list = podSegments < 0 ? undefined : segments[podSegments]?.name
    const inContainer = list !== undefined && CONTAINER_LISTS.has(list)
    entries.push({
      info,
      names: segments.map((segment) => segment.lower),
      tokens: segments.map((segment) => segment.tokens),
      free: segments.map((segment, i) => segment.free || (i === podSegments && segment.name === 'containers')),
      allTokens: new Set(segments.flatMap((segment) => segment.tokens)),
      items: info.path.endsWith('[]'),
      podLevel: (podSegments >= 0 && !inContainer) || podMetadata.some((prefix) => info.path.startsWith(prefix)),
      deprecated,
      featureGated,
    })
  }
  const postings = new Map<string, number[]>()
  entries.forEach((entry, position) => {
    if (entry.items) return
    for (const token of entry.allTokens) {
      const list = postings.get(token)
      if (list) list.push(position)
      else postings.set(token, [position])
    }
  })
  const kindWords = new Set(tokenize(kind))
  for (const [word, named] of KIND_WORDS) if (named === kind) kindWords.add(singular(word))
  return { entries, postings, kindWords }
}

/** The table's fields plus the known keys of resource limits and requests (maps of quantities). */
function withKnownMapKeys(kind: string, fields: readonly FieldInfo[]): FieldInfo[] {
  const out: FieldInfo[] = []
  for (const field of fields) {
    out.push(field)
    if (field.type !== 'map' || field.values !== 'quantity' || !/\.(limits|requests)$/.test(field.path)) continue
    const keys = [...KNOWN_QUANTITY_KEYS]
    if (kind === 'PersistentVolumeClaim' || field.path.includes('volumeClaimTemplate')) keys.push('storage')
    for (const key of keys) out.push(Object.freeze({ path: `${field.path}.${key}`, type: 'quantity' as const }))
  }
  return out
}

interface Segment {
  /** The name without `[]`. */
  readonly name: string
  readonly lower: string
  readonly tokens: readonly string[]
  readonly free: boolean
}

const segmentCache = new Map<string, Segment>()

/** A path segment's name, tokens and freedom, computed once for every kind. */
function segmentOf(raw: string): Segment {
  let segment = segmentCache.get(raw)
  if (!segment) {
    const name = bare(raw)
    segment = { name, lower: name.toLowerCase(), tokens: tokenize(name), free: FREE_SEGMENTS.has(name) }
    segmentCache.set(raw, segment)
  }
  return segment
}

function parentPath(path: string, paths: ReadonlySet<string>): string {
  let parent = path
  do {
    const cut = Math.max(parent.lastIndexOf('.'), parent.endsWith('[]') ? parent.length - 2 : -1)
    parent = cut < 0 ? '' : parent.slice(0, cut)
  } while (parent !== '' && !paths.has(parent))
  return parent
}

function bare(segment: string): string {
  return segment.replace(/(\[\])+$/, '')
}

// ---------------------------------------------------------------------------------------------
// Written paths

/** One word with no spaces (a field name), or anything with a dot or brackets (a path). */
const PATH_LIKE = /^[`'"]?[A-Za-z_$][\w$-]*(?:(?:\.|\[[^\]]*\]\.?)[\w$-]*)*[`'"]?$/

/**
 * The segments of a written path: dots and brackets split it, a quoted key is one segment
 * (`annotations['example.com/owner']`), `[*]`, `[0]` and `[]` are array items.
 */
function pathSegments(text: string): { written: string[]; items: boolean } {
  const cleaned = text.replace(/^[`'"]|[`'"]$/g, '').replace(/^(?:request\.)?(?:object|oldObject)\./, '')
  const written: string[] = []
  let items = false
  for (const match of cleaned.matchAll(/\[\s*(?:'([^']*)'|"([^"]*)"|([^\]]*))\]|([^.[\]]+)/g)) {
    const name = match[1] ?? match[2] ?? match[4]
    items = name === undefined
    if (name !== undefined && name !== '') written.push(name)
  }
  return { written, items }
}

function resolvePath(index: KindIndex, text: string): FieldInfo[] {
  const { written, items } = pathSegments(text)
  const names = written.map((name) => name.toLowerCase())
  if (names.length === 0) return []
  const exact = index.entries.find((entry) => entry.items === items && sameNames(entry.names, names))
  if (exact) return [exact.info]
  const matches = index.entries.filter(
    (entry) => entry.items === items && entry.names.length > names.length && endsWithNames(entry.names, names),
  )
  if (matches.length > 0) {
    return best(matches.map((entry) => ({ entry, key: pathKey(entry, entry.names.length - names.length) })))
  }
  // A key of a map: `metadata.labels.team`, `annotations['example.com/owner']`.
  if (names.length >= 2 && !items) {
    const key = written[written.length - 1] ?? ''
    const mapNames = names.slice(0, -1)
    const maps = index.entries.filter(
      (entry) => entry.info.type === 'map' && !entry.items && endsWithNames(entry.names, mapNames),
    )
    return best(maps.map((entry) => ({ entry, key: pathKey(entry, entry.names.length - mapNames.length) }))).map(
      (info) => ({ path: `${info.path}${mapKey(key)}`, type: info.values ?? 'string' }),
    )
  }
  return []
}

/** `.team`, or `['example.com/owner']` for a key that is not a plain name. */
function mapKey(key: string): string {
  return /^[A-Za-z_][\w-]*$/.test(key) ? `.${key}` : `['${key.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`
}

function pathKey(entry: IndexedField, prefixLength: number): number[] {
  let unaccounted = 0
  for (let i = 0; i < prefixLength; i++) if (!entry.free[i]) unaccounted++
  return [entry.deprecated ? 1 : 0, entry.featureGated ? 1 : 0, unaccounted]
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((name, i) => name === b[i])
}

function endsWithNames(names: readonly string[], suffix: readonly string[]): boolean {
  const offset = names.length - suffix.length
  return offset >= 0 && suffix.every((name, i) => names[offset + i] === name)
}

// ---------------------------------------------------------------------------------------------
// Words

const STOPWORDS = new Set([
  'the', 'a', 'an', 'of', 'for', 'to', 'in', 'on', 'at', 'by', 'with', 'and', 'or', 'is', 'are', 'be',
  'must', 'should', 'its', 'their', 'each', 'every', 'all', 'any', 'field', 'setting', 'number', 'count',
])

/** Words authors use for a token the schema spells differently. */
const SYNONYMS: ReadonlyMap<string, string> = new Map([
  ['environment', 'env'],
  ['var', 'env'],
  ['variable', 'env'],
  ['argument', 'arg'],
  ['cmd', 'command'],
  ['mem', 'memory'],
  ['ns', 'namespace'],
  ['uid', 'user'],
  ['gid', 'group'],
])

function resolveWords(index: KindIndex, text: string): FieldInfo[] {
  const words = [...new Set(tokenize(text).map((token) => SYNONYMS.get(token) ?? token))]
    .filter((token) => !STOPWORDS.has(token))
    .flatMap((token) => (index.postings.has(token) ? [token] : unknownToken(index, token)))
  const pod = words.includes('pod')
  const hard = words.filter((token) => token !== 'pod' && !index.kindWords.has(token))
  if (hard.length === 0) return []
  const positions = intersect(hard.map((token) => index.postings.get(token) ?? []))
  const mentioned = new Set(words)
  const scored: Array<{ entry: IndexedField; key: number[] }> = []
  for (const position of positions) {
    const entry = index.entries[position]
    if (!entry) continue
    const leaf = entry.tokens[entry.tokens.length - 1] ?? []
    if (!leaf.some((token) => mentioned.has(token))) continue // the mention must name the field itself
    let unaccounted = 0
    for (let i = 0; i < entry.tokens.length - 1; i++) {
      if (!entry.free[i] && !(entry.tokens[i] ?? []).every((token) => mentioned.has(token))) unaccounted++
    }
    const leafMissing = leaf.filter((token) => !mentioned.has(token)).length
    const podMissing = pod && !entry.podLevel && !entry.allTokens.has('pod') ? 1 : 0
    scored.push({
      entry,
      key: [entry.deprecated ? 1 : 0, entry.featureGated ? 1 : 0, leafMissing, unaccounted, podMissing],
    })
  }
  return best(scored)
}

/**
 * A token the kind does not know, as tokens it does: a past participle ("added" is add,
 * "dropped" is drop), or a compound split in two ("antiaffinity" is anti + affinity).
 */
const MAX_COMPOUND_LENGTH = 48

function unknownToken(index: KindIndex, token: string): string[] {
  if (token.endsWith('ed')) {
    const stem = token.slice(0, -2)
    for (const candidate of [stem, stem.slice(0, -1), `${stem}e`]) {
      if (candidate.length >= 2 && index.postings.has(candidate)) return [candidate]
    }
  }
  // Each cut copies the token, so a long one would cost its length squared; no compound of two field words is this long.
  if (token.length > MAX_COMPOUND_LENGTH) return [token]
  for (let cut = 2; cut <= token.length - 2; cut++) {
    const head = token.slice(0, cut)
    const tail = singular(token.slice(cut))
    if (index.postings.has(head) && index.postings.has(tail)) return [head, tail]
  }
  return [token]
}

function intersect(lists: ReadonlyArray<readonly number[]>): number[] {
  const sorted = [...lists].sort((a, b) => a.length - b.length)
  const [first, ...rest] = sorted
  if (!first) return []
  const sets = rest.map((list) => new Set(list))
  return first.filter((position) => sets.every((set) => set.has(position)))
}

/** The candidates tied with the best key, shortest path first, then by path. */
function best(scored: ReadonlyArray<{ entry: IndexedField; key: readonly number[] }>): FieldInfo[] {
  if (scored.length === 0) return []
  let top: readonly number[] | undefined
  for (const { key } of scored) if (!top || compareKeys(key, top) < 0) top = key
  return scored
    .filter(({ key }) => top !== undefined && compareKeys(key, top) === 0)
    .map(({ entry }) => entry)
    .sort((a, b) => a.names.length - b.names.length || (a.info.path < b.info.path ? -1 : a.info.path > b.info.path ? 1 : 0))
    .map((entry) => entry.info)
}

function compareKeys(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const difference = (a[i] ?? 0) - (b[i] ?? 0)
    if (difference !== 0) return difference
  }
  return 0
}

// ---------------------------------------------------------------------------------------------
// Tokens

/**
 * Lowercased word tokens of a name or phrase: camelCase, snake_case, dots, hyphens and spaces
 * split ("ttlSecondsAfterFinished" is ttl, second, after, finished; "externalIPs" is external, ip).
 */
export function tokenize(text: string): string[] {
  const tokens: string[] = []
  for (const word of text.replace(/'s\b/g, '').split(/[^A-Za-z0-9]+/)) {
    for (const part of word.match(/[A-Z]{2,}s(?![a-z])|[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g) ?? []) {
      tokens.push(singular(part.toLowerCase()))
    }
  }
  return tokens
}

/** Light singularization, the same for schema names and mentions: limits, policies, aliases, IPs. */
export function singular(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`
  if (/(ss|x|ch|sh|ias|us)es$/.test(word)) return word.slice(0, -2)
  // "replicas", "quotas" are plurals; "alias", "has", "was" are not.
  if (word.length >= 3 && word.endsWith('s') && !/(ss|us|is|ias)$/.test(word) && !/^(?:has|was|gas|atlas|canvas)$/.test(word)) return word.slice(0, -1)
  return word
}
