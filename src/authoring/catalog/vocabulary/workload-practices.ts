import { mentions, type Clause } from '../../text/clause.js'
import { hostNames, listAfter, listBefore, portRanges, quantities, quoted } from '../../text/extract.js'
import { containersOf, firstContainerOf, mapIn, podSpecsOf } from '../../samples/document-parts.js'
import type { JsonValue } from '../named-requirement.js'
import { celString, celStringList } from '../pod-rule.js'
import type { SampleEdit, TemplateSamples } from '../rule-template.js'
import type { Options, Values, Vocabulary } from '../vocabulary.js'
import { optionText as text, stringsOf } from '../vocabulary.js'
import { firstInitContainerOf } from './places.js'

/**
 * The pieces the workload best practices (entries/workload-practices.ts) name: parsers of
 * registries, resource bounds, probes, pull policies, priority classes and ports from a clause;
 * CEL built from those values; image references taken apart for sample edits. The generic pieces
 * these entries share with others (container and pod rules, `choose`...) are in common.ts.
 */

type Json = Record<string, unknown>



// ---------------------------------------------------------------------------------------------
// Image references, in CEL and for sample edits. Parsed as the container runtimes do: an
// optional @digest, then an optional :tag after the last slash, then a registry only when the
// first path component has a dot or a port or is localhost; without one the image is on Docker
// Hub, and a one-component Docker Hub name is under library/.

/** CEL: the tag of image `i`, '' when it has none. */
function celTagOf(image: string): string {
  return `cel.bind(n, ${image}.split('@')[0], n.lastIndexOf(':') > n.lastIndexOf('/') ? n.substring(n.lastIndexOf(':') + 1) : '')`
}

/** CEL: whether image `i` runs whatever :latest is now (the tag latest, or no tag and no digest). */
function celRunsLatest(image: string): string {
  return `cel.bind(t, ${celTagOf(image)}, t == 'latest' || (t == '' && !${image}.contains('@')))`
}

/** CEL: the repository of image `i` as registry/path without tag and digest: nginx -> docker.io/library/nginx. */
function celRepositoryOf(image: string): string {
  const name = `cel.bind(n, ${image}.split('@')[0], n.lastIndexOf(':') > n.lastIndexOf('/') ? n.substring(0, n.lastIndexOf(':')) : n)`
  const qualified =
    `cel.bind(name, ${name}, cel.bind(first, name.split('/')[0], ` +
    `name.contains('/') && (first.contains('.') || first.contains(':') || first == 'localhost') ? first.lowerAscii() + name.substring(first.size()) : 'docker.io/' + name))`
  const dockerHub = `cel.bind(q, ${qualified}, q.startsWith('index.docker.io/') ? 'docker.io/' + q.substring(16) : q)`
  return `cel.bind(r, ${dockerHub}, r.startsWith('docker.io/') && !r.substring(10).contains('/') ? 'docker.io/library/' + r.substring(10) : r)`
}

/**
 * CEL: whether repository `r` is under one of the registry entries: a host (with its port, if
 * any) and optional path prefix, matched whole component by whole component, or *.domain for
 * any host under that domain.
 */
function celRepositoryIn(repository: string, entries: readonly string[]): string {
  const exact = entries.filter((entry) => !entry.startsWith('*.'))
  const wildcards = entries.filter((entry) => entry.startsWith('*.')).map((entry) => entry.slice(1))
  const tests = [
    ...(exact.length > 0 ? [`${celStringList(exact)}.exists(e, ${repository} == e || ${repository}.startsWith(e + '/'))`] : []),
    ...(wildcards.length > 0 ? [`${celStringList(wildcards)}.exists(d, ${repository}.split('/')[0].endsWith(d))`] : []),
  ]
  return tests.length > 0 ? `(${tests.join(' || ')})` : 'false'
}

interface ImageReference {
  /** As written; undefined when the image names no registry. */
  host: string | undefined
  path: string
  tag: string | undefined
  digest: string | undefined
}

function parseImage(image: string): ImageReference {
  const at = image.indexOf('@')
  const digest = at >= 0 ? image.slice(at + 1) : undefined
  let name = at >= 0 ? image.slice(0, at) : image
  let tag: string | undefined
  const colon = name.lastIndexOf(':')
  if (colon > name.lastIndexOf('/')) {
    tag = name.slice(colon + 1)
    name = name.slice(0, colon)
  }
  const slash = name.indexOf('/')
  const first = slash >= 0 ? name.slice(0, slash) : ''
  const host = slash >= 0 && (first.includes('.') || first.includes(':') || first === 'localhost') ? first : undefined
  return { host, path: host ? name.slice(slash + 1) : name, tag, digest }
}

function formatImage(reference: ImageReference): string {
  return `${reference.host ? `${reference.host}/` : ''}${reference.path}${reference.tag !== undefined ? `:${reference.tag}` : ''}${reference.digest !== undefined ? `@${reference.digest}` : ''}`
}

/** The same normalization as celRepositoryOf. */
function repositoryOf(image: string): string {
  const { host, path } = parseImage(image)
  let repository = host ? `${host.toLowerCase()}/${path}` : `docker.io/${path}`
  if (repository.startsWith('index.docker.io/')) repository = `docker.io/${repository.slice(16)}`
  if (repository.startsWith('docker.io/') && !repository.slice(10).includes('/')) repository = `docker.io/library/${repository.slice(10)}`
  return repository
}

function repositoryIn(repository: string, entries: readonly string[]): boolean {
  return entries.some((entry) =>
    entry.startsWith('*.') ? (repository.split('/')[0] ?? '').endsWith(entry.slice(1)) : repository === entry || repository.startsWith(`${entry}/`),
  )
}

/** A concrete host for an entry, for samples: *.acme.io -> registry.acme.io. */
function sampleEntry(entry: string): string {
  return entry.replace(/^\*\./, 'registry.')
}

/** The image moved under a registry entry (host or host/path), tag and digest kept. */
function imageUnder(image: string, entry: string): string {
  const reference = parseImage(image)
  const [host = entry, ...prefix] = entry.split('/')
  return formatImage({ ...reference, host, path: [...prefix, reference.path].join('/') })
}

/** Whether the image runs whatever :latest is (tagged latest, or neither tag nor digest), as celRunsLatest. */
function runsLatest(image: unknown): boolean {
  const reference = parseImage(typeof image === 'string' ? image : '')
  return reference.tag === 'latest' || (reference.tag === undefined && reference.digest === undefined)
}

/**
 * A part of the reference (`tag`, `digest`, `host`) set to a string or removed with null; `under`
 * moves the image under a registry entry; `default-tag` and `default-digest` apply only when the
 * image has none. `missing`: the image a container without one starts from (null: leave it alone).
 */
function changeImage(container: Json, options: Options): void {
  const missing = options.missing === undefined ? 'registry.example.com/payments/web:1.0.0' : options.missing
  const image = typeof container.image === 'string' ? container.image : missing
  if (typeof image !== 'string') return
  let reference = parseImage(image)
  const part = (name: string, current: string | undefined): string | undefined => {
    const given = options[name]
    return given === null ? undefined : typeof given === 'string' ? given : current
  }
  reference = { ...reference, host: part('host', reference.host), tag: part('tag', reference.tag), digest: part('digest', reference.digest) }
  if (typeof options.under === 'string') reference = parseImage(imageUnder(formatImage(reference), options.under))
  if (typeof options['default-tag'] === 'string') reference.tag ??= options['default-tag']
  if (typeof options['default-digest'] === 'string') reference.digest ??= options['default-digest']
  container.image = formatImage(reference)
}

/** `into`: an image outside these registries moves under `under`. `out-of`: an image inside them moves to a registry none of them names. */
function moveImage(container: Json, options: Options): void {
  const image = container.image
  if (typeof image !== 'string') return
  const inside = (entries: JsonValue | undefined, candidate = image) => repositoryIn(repositoryOf(candidate), stringsOf(entries))
  if ('into' in options && !inside(options.into)) container.image = imageUnder(image, text(options, 'under'))
  if ('out-of' in options && inside(options['out-of'])) {
    const candidates = ['registry.example.com', 'registry.example.org', 'images.example.net']
    const host = candidates.find((candidate) => !inside(options['out-of'], imageUnder(image, candidate))) ?? 'images.example.net'
    container.image = imageUnder(image, host)
  }
}

// ---------------------------------------------------------------------------------------------
// Registries

const IMAGE_WORDS = /\b(images?|container images?)\b/
const PULL_POLICY_WORDS = /imagepullpolic(y|ies)|\bpull[\s-]*polic(y|ies)\b/
const DOCKER_HUB_WORDS = /\bdocker[\s-]*hub\b|\bdockerhub\b/
/** Words that make a negated clause name the values allowed ("no images except from X", "must not use any class but X"). */
const ONLY_WORDS = /\b(only|exclusively|solely|except|excluding|other than|besides|apart from|anywhere but|anything but|allow ?list(ed)?|white ?list(ed)?|trusted|approved)\b/

/** The registry entries the clause names: hosts with optional port and path, Docker Hub by name. */
function registryEntries(clause: Clause): string[] {
  const text = clause.text.replace(/\bhttps?:\/\//gi, '')
  const wildcard = /\*\.((?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z][a-z0-9-]*[a-z0-9])(?![\w.-])/gi
  const wildcards = [...text.matchAll(wildcard)].map((match) => `*.${(match[1] ?? '').toLowerCase()}`)
  const hosts = hostNames(text.replace(wildcard, ' ')).map((entry) => {
    const [host = '', ...path] = entry.replace(/\/+$/, '').split('/')
    const canonicalHost = host === 'index.docker.io' || host === 'hub.docker.com' || host === 'registry-1.docker.io' ? 'docker.io' : host
    // Repository paths are lower-case by the image reference grammar; hosts compare case-insensitively.
    return [canonicalHost, ...path].join('/').toLowerCase()
  })
  const entries = [...wildcards, ...hosts]
  if (mentions(clause, DOCKER_HUB_WORDS)) entries.push('docker.io')
  return [...new Set(entries)]
}

/**
 * For samples of an allow list: an image from a registry that looks like the first one allowed
 * (a longer path, a longer or prefixed host, another port), and one from elsewhere, each only
 * when the list does not happen to allow it.
 */
function registryLookAlikes(values: Values): Record<string, JsonValue> {
  const registries = stringsOf(values.registries)
  const first = sampleEntry(registries[0] ?? 'registry.acme.io')
  const [firstHost = first, ...firstPath] = first.split('/')
  const notAllowed = (candidates: string[]): string | null => candidates.find((image) => !repositoryIn(repositoryOf(image), registries)) ?? null
  return {
    'look-alike': notAllowed([
      firstPath.length > 0 ? `${firstHost}/${firstPath.join('/')}-evil/payments/web:1.4.2` : `${firstHost}.evil.example/payments/web:1.4.2`,
      `evil${(registries[0] ?? '').startsWith('*.') ? firstHost.replace(/^registry\./, '') : firstHost}/payments/web:1.4.2`,
      firstHost.includes(':') ? `${firstHost.split(':')[0] ?? firstHost}:5001/payments/web:1.4.2` : `${firstHost}:5000/payments/web:1.4.2`,
    ]),
    elsewhere: notAllowed(['payments/migrate:1.4.2', 'quay.io/payments/migrate:1.4.2', 'registry.example.net/payments/migrate:1.4.2']),
  }
}

// ---------------------------------------------------------------------------------------------
// Resources

type ResourceName = 'cpu' | 'memory' | 'ephemeral-storage'
type ResourceField = 'requests' | 'limits'
type Comparison = 'max' | 'min' | 'lessThan' | 'greaterThan'

const RESOURCE_WORDS: ReadonlyArray<[RegExp, ResourceName]> = [
  [/\b(cpus?|vcpus?|cores?|millicores?|processors?)\b/g, 'cpu'],
  [/\b(memory|mem|ram)\b/g, 'memory'],
  [/\bephemeral[\s-]*storage\b/g, 'ephemeral-storage'],
]
const FIELD_WORDS: ReadonlyArray<[RegExp, ResourceField]> = [
  [/\brequests?\b/g, 'requests'],
  [/\blimits?\b/g, 'limits'],
]

/** Longer phrases first: "no more than" must win over "more than" at the same place. */
const COMPARATORS: ReadonlyArray<[string, Comparison | 'between']> = [
  ['no more than', 'max'], ['not more than', 'max'], ['no greater than', 'max'], ['not greater than', 'max'], ['no higher than', 'max'],
  ['not higher than', 'max'], ['no larger than', 'max'], ['no bigger than', 'max'], ['must not exceed', 'max'], ['should not exceed', 'max'],
  ['may not exceed', 'max'], ['not to exceed', 'max'], ['not exceed', 'max'], ['never exceed', 'max'], ['at most', 'max'], ['up to', 'max'],
  ['maximum of', 'max'], ['maximum', 'max'], ['max', 'max'], ['capped at', 'max'], ['or less', 'max'], ['or lower', 'max'], ['or below', 'max'],
  ['or smaller', 'max'], ['<=', 'max'], ['≤', 'max'],
  ['no less than', 'min'], ['not less than', 'min'], ['no lower than', 'min'], ['not lower than', 'min'], ['no smaller than', 'min'],
  ['not below', 'min'], ['at least', 'min'], ['minimum of', 'min'], ['minimum', 'min'], ['min', 'min'], ['or more', 'min'], ['or higher', 'min'],
  ['or above', 'min'], ['or greater', 'min'], ['>=', 'min'], ['≥', 'min'],
  ['less than', 'lessThan'], ['lower than', 'lessThan'], ['smaller than', 'lessThan'], ['below', 'lessThan'], ['under', 'lessThan'], ['<', 'lessThan'],
  ['more than', 'greaterThan'], ['greater than', 'greaterThan'], ['higher than', 'greaterThan'], ['larger than', 'greaterThan'], ['above', 'greaterThan'],
  ['exceeding', 'greaterThan'], ['>', 'greaterThan'],
  ['between', 'between'],
]

const COMPARATOR_PATTERN = new RegExp(
  `(?<![a-z])(${COMPARATORS.map(([phrase]) => phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+')).join('|')})(?![a-z])`,
  'g',
)

/** Where one item of a list ends: "512Mi memory and 1 cpu", but not "2Gi or less". */
const SEGMENT_BREAK = /,|;|\band\b|\bbut\b|\bor\b(?!\s+(less|lower|below|smaller|more|higher|above|greater)\b)/g

interface Found<T> {
  index: number
  end: number
  value: T
}

function findAll<T>(text: string, table: ReadonlyArray<[RegExp, T]>): Found<T>[] {
  const found: Found<T>[] = []
  for (const [pattern, value] of table) {
    for (const match of text.matchAll(new RegExp(pattern.source, 'g'))) found.push({ index: match.index, end: match.index + match[0].length, value })
  }
  return found.sort((a, b) => a.index - b.index)
}

function comparatorsIn(text: string): Found<Comparison | 'between'>[] {
  const byPhrase = new Map(COMPARATORS)
  return [...text.matchAll(COMPARATOR_PATTERN)].map((match) => ({
    index: match.index,
    end: match.index + match[0].length,
    value: byPhrase.get(match[0].replace(/\s+/g, ' ')) ?? 'max',
  }))
}

/** "must not have more than 2 cpus" is "at most 2". */
const INVERTED: Record<Comparison | 'between', Comparison | 'between'> = { max: 'greaterThan', min: 'lessThan', lessThan: 'min', greaterThan: 'max', between: 'between' }

function negatedBefore(text: string): boolean {
  return /\b(no|not|never|cannot|can't|mustn't|shouldn't)\b/.test(text)
}

/** Bounds per field.resource ("limits.memory"): { max: '2Gi' }. */
type ResourceBounds = Record<string, Partial<Record<Comparison, string>>>

const QUANTITY_AT = /^\d+(?:\.\d+)?\s*(?:millicores?|millicpus?|m(?![a-z])|cores?|vcpus?|cpus?|kib|mib|gib|tib|ki|mi|gi|ti|kb|mb|gb|tb|k|g|t)?(?![\w])/i

/** The quantities of the text, with where each ends; percentages are not resource quantities. */
function quantitiesMentioned(text: string) {
  return quantities(text)
    .map((found) => ({ ...found, end: found.index + (QUANTITY_AT.exec(text.slice(found.index))?.[0].length ?? 1) }))
    .filter((found) => !text.slice(found.end).trimStart().startsWith('%'))
}

interface BoundReading {
  bounds: ResourceBounds
  /** False when a quantity's resource or comparison could not be told, or memory had no unit. */
  complete: boolean
}

/**
 * Reads "limits of at most 512Mi memory and 1 cpu" as limits.memory <= 512Mi and limits.cpu <= 1.
 * Each quantity takes its resource from its unit or the nearest resource word, its field and
 * comparison from the words before it (or just after: "2Gi or less"), and otherwise from the
 * quantity before it, so a list shares what was said once.
 */
function readBounds(text: string): BoundReading {
  const lower = text.toLowerCase()
  const mentioned = quantitiesMentioned(text)
  const resources = findAll(lower, RESOURCE_WORDS)
  const fields = findAll(lower, FIELD_WORDS)
  const comparators = comparatorsIn(lower)
  const breaks = [...lower.matchAll(SEGMENT_BREAK)].map((match) => match.index)
  const distinctResources = [...new Set(resources.map((found) => found.value))]
  const within = <T>(list: Found<T>[], from: number, to: number): Found<T>[] => list.filter((found) => found.index >= from && found.end <= to)
  const bounds: ResourceBounds = {}
  let complete = mentioned.length > 0
  let previous: { resource: ResourceName | undefined; fields: ResourceField[]; comparison: Comparison | 'between' | undefined } | undefined
  mentioned.forEach((quantity, position) => {
    const previousEnd = mentioned[position - 1]?.end
    // The first quantity reads everything before it; a later one only its own list item.
    const beforeStart = previousEnd === undefined ? 0 : Math.max(previousEnd, ...breaks.filter((index) => index < quantity.index))
    const afterEnd = Math.min(mentioned[position + 1]?.index ?? text.length, ...breaks.filter((index) => index >= quantity.end))
    const before = { resources: within(resources, beforeStart, quantity.index), fields: within(fields, beforeStart, quantity.index), comparators: within(comparators, beforeStart, quantity.index) }
    const after = { resources: within(resources, quantity.end, afterEnd), fields: within(fields, quantity.end, afterEnd), comparators: within(comparators, quantity.end, afterEnd) }

    const named = before.resources.at(-1)?.value ?? after.resources[0]?.value
    // Byte units say memory, unless the words say ephemeral storage.
    const resource: ResourceName | undefined =
      (quantity.unit === 'memory' && named === 'ephemeral-storage' ? named : quantity.unit) ??
      named ??
      previous?.resource ??
      (distinctResources.length === 1 ? distinctResources[0] : undefined)
    let fieldList: ResourceField[] = [...new Set(before.fields.map((found) => found.value))]
    if (fieldList.length === 0 && after.fields[0]) fieldList = [after.fields[0].value]
    if (fieldList.length === 0) fieldList = previous?.fields ?? [...new Set(fields.map((found) => found.value))]
    if (fieldList.length === 0) fieldList = ['limits']
    // "between 100m and 2": the first is the minimum, the one after "and" the maximum.
    const stated = before.comparators.at(-1)
    const comparison =
      (stated && negatedBefore(lower.slice(beforeStart, stated.index)) ? INVERTED[stated.value] : stated?.value) ??
      after.comparators[0]?.value ??
      (previous?.comparison === 'between' ? 'max' : previous?.comparison)
    const effective: Comparison | undefined = comparison === 'between' ? 'min' : comparison
    // A bare number is cores for cpu but bytes for memory, which nobody means: ask for the unit.
    const unitless = resource !== undefined && resource !== 'cpu' && quantity.unit === undefined && quantity.quantity !== '0'
    if (!resource || !effective || unitless) {
      complete = false
    } else {
      for (const field of fieldList) {
        const bound = (bounds[`${field}.${resource}`] ??= {})
        bound[effective] ??= quantity.quantity
      }
    }
    previous = { resource, fields: fieldList, comparison }
  })
  return { bounds, complete }
}

/** Multipliers of Kubernetes quantity suffixes, to pick sample values that pass or fail a bound. */
const SUFFIXES: Record<string, number> = {
  '': 1, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60,
}

function quantityValue(value: unknown): number | undefined {
  const match = /^(\d+(?:\.\d+)?)([a-zA-Z]*)$/.exec(String(value))
  const multiplier = match ? SUFFIXES[match[2] ?? ''] : undefined
  return match && multiplier !== undefined ? Number(match[1]) * multiplier : undefined
}

function scaledQuantity(quantity: string, factor: number): string {
  const match = /^(\d+(?:\.\d+)?)([a-zA-Z]*)$/.exec(quantity)
  if (!match) return quantity
  return `${Number((Number(match[1]) * factor).toPrecision(12))}${match[2] ?? ''}`
}

function satisfies(value: unknown, bound: Partial<Record<Comparison, string>>): boolean {
  const actual = quantityValue(value)
  if (actual === undefined) return false
  const check = (limit: string | undefined, test: (a: number, b: number) => boolean): boolean => {
    const expected = limit === undefined ? undefined : quantityValue(limit)
    return expected === undefined || test(actual, expected)
  }
  return check(bound.max, (a, b) => a <= b) && check(bound.min, (a, b) => a >= b) && check(bound.lessThan, (a, b) => a < b) && check(bound.greaterThan, (a, b) => a > b)
}

/** A value inside the bound, for good samples. */
function compliantQuantity(bound: Partial<Record<Comparison, string>>): string {
  const candidates = [bound.min, bound.max, bound.greaterThan && scaledQuantity(bound.greaterThan, 2), bound.lessThan && scaledQuantity(bound.lessThan, 0.5)]
  const defined = candidates.filter((candidate): candidate is string => typeof candidate === 'string')
  return defined.find((candidate) => satisfies(candidate, bound)) ?? defined[0] ?? '1'
}

/** A value outside the bound, for bad samples; undefined when only a missing field can break it. */
function offendingQuantity(bound: Partial<Record<Comparison, string>>): string | undefined {
  const candidates = [
    bound.max && (quantityValue(bound.max) === 0 ? '1' : scaledQuantity(bound.max, 2)),
    bound.lessThan,
    bound.min && quantityValue(bound.min) !== 0 ? '0' : undefined,
    bound.greaterThan,
  ]
  return candidates.find((candidate): candidate is string => typeof candidate === 'string' && !satisfies(candidate, bound))
}

const COMPARISON_WORDS: Record<Comparison, string> = { max: 'at most', min: 'at least', lessThan: 'less than', greaterThan: 'more than' }
const COMPARISON_CEL: Record<Comparison, string> = { max: '<= 0', min: '>= 0', lessThan: '< 0', greaterThan: '> 0' }

function boundsOf(value: JsonValue | undefined): ResourceBounds {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {}
  const bounds: ResourceBounds = {}
  for (const [key, bound] of Object.entries(value)) {
    if (typeof bound !== 'object' || bound === null || Array.isArray(bound)) continue
    const entry: Partial<Record<Comparison, string>> = {}
    for (const comparison of ['max', 'min', 'lessThan', 'greaterThan'] as const) {
      const limit = (bound as Record<string, JsonValue>)[comparison]
      if (typeof limit === 'string' || typeof limit === 'number') entry[comparison] = String(limit)
    }
    bounds[key] = entry
  }
  return bounds
}

function resourceKey(key: string): [string, string] {
  const [field = 'limits', resource = 'cpu'] = key.split('.')
  return [field, resource]
}

/** The bounds in words, in CEL over container `c`, as a rule name, and the fields they bound. */
function resourceBoundValues(values: Values): Record<string, JsonValue> {
  const bounds = Object.entries(boundsOf(values.bounds))
  const checks = bounds.map(([key, bound]) => {
    const [field, resource] = resourceKey(key)
    const tests = (Object.entries(bound) as Array<[Comparison, string]>).map(([comparison, limit]) => `quantity(q).compareTo(quantity(${celString(limit)})) ${COMPARISON_CEL[comparison]}`)
    return `cel.bind(q, string(c.?resources.?${field}[?${celString(resource)}].orValue('')), isQuantity(q) && ${tests.join(' && ')})`
  })
  const words = bounds.map(([key, bound]) => {
    const [field, resource] = resourceKey(key)
    const limits = (Object.entries(bound) as Array<[Comparison, string]>).map(([comparison, limit]) => `${COMPARISON_WORDS[comparison]} ${limit}`)
    return `${resource} ${field} ${limits.join(' and ')}`
  })
  const names = bounds.flatMap(([key, bound]) => {
    const [field, resource] = resourceKey(key)
    return Object.entries(bound).map(([comparison, limit]) => `${resource}-${field}-${comparison === 'max' ? 'at-most' : comparison === 'min' ? 'at-least' : comparison}-${limit}`)
  })
  return {
    'bounds-text': words.join(', '),
    'bounds-cel': checks.length > 0 ? checks.join(' && ') : 'true',
    'bounds-name': names.join('-'),
    'bounded-paths': bounds.map(([key]) => `resources.${key}`),
  }
}

function resourceValue(container: Json, field: string, resource: string): unknown {
  const resources = container.resources as Json | undefined
  return (resources?.[field] as Json | undefined)?.[resource]
}

function setResource(container: Json, field: string, resource: string, value: string | undefined): void {
  const values = mapIn(mapIn(container, 'resources'), field)
  if (value === undefined) delete values[resource]
  else values[resource] = value
}

/**
 * Bad samples: a value outside each bound on the app container and, for the first bound, an init
 * container without the field (a missing bounded field fails). Good: values within every bound.
 */
function resourceBoundSamples(values: Values): TemplateSamples {
  const entries = Object.entries(boundsOf(values.bounds))
  const bad: { description: string; edit: SampleEdit }[] = []
  for (const [index, [key, bound]] of entries.entries()) {
    const [field, resource] = resourceKey(key)
    const offending = offendingQuantity(bound)
    if (offending !== undefined) {
      bad.push({ description: `an app container with resources.${key}: ${offending}`, edit: (document) => setResource(firstContainerOf(document), field, resource, offending) })
    }
    if (index === 0) {
      bad.push({ description: `an init container without resources.${key}`, edit: (document) => setResource(firstInitContainerOf(document), field, resource, undefined) })
    }
  }
  return {
    good: [
      (document) => {
        for (const container of containersOf(document, ['containers', 'initContainers'])) {
          for (const [key, bound] of entries) {
            const [field, resource] = resourceKey(key)
            if (!satisfies(resourceValue(container, field, resource), bound)) setResource(container, field, resource, compliantQuantity(bound))
          }
        }
      },
    ],
    bad,
  }
}

const RESOURCE_FIELD_WORDS = /\b(limits?|requests?)\b/
const RESOURCE_NAME_WORDS = /\b(cpus?|vcpus?|cores?|millicores?|memory|mem|ram)\b|\bephemeral[\s-]*storage\b/

/** Each resource field required, as a path, in CEL over container `c`, with a default value for good samples; the first and last for bad ones. */
function requiredResourceValues(values: Values, options: Options): Record<string, JsonValue> {
  const resources = stringsOf(values.resources)
  const fields = stringsOf(values.fields)
  const defaults = typeof options.defaults === 'object' && options.defaults !== null && !Array.isArray(options.defaults) ? (options.defaults as Options) : {}
  const pairs = fields.flatMap((field) => resources.map((resource) => [field, resource] as const))
  const firstField = fields[0] ?? 'limits'
  const firstResource = resources[0] ?? 'cpu'
  return {
    'resource-paths': pairs.map(([field, resource]) => `resources.${field}.${resource}`),
    'resources-cel': pairs.length > 0 ? pairs.map(([field, resource]) => `c.?resources.?${field}[?${celString(resource)}].hasValue()`).join(' && ') : 'true',
    'resource-defaults': Object.fromEntries(pairs.map(([field, resource]) => [`resources.${field}.${resource}`, defaults[resource] ?? '1'])),
    'first-field': firstField,
    'first-resource': firstResource,
    'last-field': fields.at(-1) ?? firstField,
    'last-resource': resources.at(-1) ?? firstResource,
  }
}

// ---------------------------------------------------------------------------------------------
// Probes

type Probe = 'liveness' | 'readiness' | 'startup'
const PROBE_FIELDS: Record<Probe, string> = { liveness: 'livenessProbe', readiness: 'readinessProbe', startup: 'startupProbe' }

/** The probes the clause names, in a fixed order; "startup" counts only next to a probe word ("startup" alone is ordinary). */
function probesNamed(clause: Clause): Probe[] {
  const named: Probe[] = []
  if (mentions(clause, /\bliveness\b|livenessprobe/)) named.push('liveness')
  if (mentions(clause, /\breadiness\b|readinessprobe/)) named.push('readiness')
  const probeWord = mentions(clause, /\bprobes?\b|\bhealth[\s-]*checks?\b|\bhealthchecks?\b/)
  if (mentions(clause, /startupprobe/) || (mentions(clause, /\bstartup\b|\bstart[\s-]up\b/) && (probeWord || named.length > 0))) named.push('startup')
  return named
}

/** The probes known, their fields, CEL over container `c`, and the probe each field gets in good samples (`probe`, plus `startup` for the startup probe). */
function probeValues(values: Values, options: Options): Record<string, JsonValue> {
  const probes = stringsOf(values.probes).filter((probe): probe is Probe => probe in PROBE_FIELDS)
  const fields = probes.map((probe) => PROBE_FIELDS[probe])
  const probe = typeof options.probe === 'object' && options.probe !== null && !Array.isArray(options.probe) ? (options.probe as Options) : {}
  const startup = typeof options.startup === 'object' && options.startup !== null && !Array.isArray(options.startup) ? (options.startup as Options) : {}
  return {
    'probe-names': probes,
    'probe-fields': fields,
    'probes-cel': fields.map((field) => `has(c.${field})`).join(' && ') || 'true',
    'probe-defaults': Object.fromEntries(probes.map((name) => [PROBE_FIELDS[name], { ...probe, ...(name === 'startup' ? startup : {}) }])),
  }
}

// ---------------------------------------------------------------------------------------------
// Image pull policy

const POLICY_WORDS = /\b(always|if[\s-]*not[\s-]*present|ifnotpresent|never)\b/g
const NEGATION_WORDS = /\b(no|not|never|dont|don't|do not|must not|mustn't|should not|shouldn't|cannot|can't|disallow(ed)?|forbid(den)?|avoid)\b/

/** The policy named last, and whether the clause forbids it rather than requires it. */
function pullPolicyOf(clause: Clause): { policy: string; forbidden: boolean } {
  const words = [...clause.normalized.matchAll(POLICY_WORDS)]
  const last = words.at(-1)
  const word = last?.[0].replace(/[\s-]/g, '') ?? 'always'
  const policy = word === 'ifnotpresent' ? 'IfNotPresent' : word === 'never' ? 'Never' : 'Always'
  // "never" can be the value itself ("must be Never"): negation is read without it.
  const rest = last ? clause.normalized.slice(0, last.index) + clause.normalized.slice(last.index + last[0].length) : clause.normalized
  // "is set to Always when ... a tag is not defined at all": a negation inside the "when" clause says which images, not the policy's polarity.
  const mainClause = rest.split(/\b(?:when|where|whenever|if|unless|whose)\b/)[0] ?? rest
  return { policy, forbidden: NEGATION_WORDS.test(mainClause) }
}

// ---------------------------------------------------------------------------------------------
// Priority classes

/** Words around class names that are not names themselves. */
const NOT_CLASS_NAMES = new Set(
  (
    'must be set one of any a an the is are required require requires mandatory class classes name priority pods pod to in either defined present given ' +
    'specified non empty use uses using have has need needs not no never only with without every all their its our workloads workload containers ' +
    'deployments deployment run runs forbidden banned disallowed allowed denied blocked may can should'
  ).split(' '),
)

const PRIORITY_CLASS_WORDS = /priorityclass(name)?|\bpriority[\s-]*class(es|[\s-]*names?)?\b/i

function priorityClassNames(text: string): string[] {
  const isName = (word: string): boolean => /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(word) && !NOT_CLASS_NAMES.has(word)
  const fromQuotes = quoted(text).filter(isName)
  if (fromQuotes.length > 0) return fromQuotes
  const rest = text.replace(new RegExp(PRIORITY_CLASS_WORDS.source, 'gi'), ' ')
  const listed = listAfter(rest, /\b(one of|any of|among|either)\b\s*:?\s*/i, isName)
  if (listed.length > 0) return listed
  const stated = listAfter(rest, /(?:\b(?:must be|should be|be set to|set to|equal to|is)\b|[=:])\s*/i, isName)
  if (stated.length > 0) return stated
  // "must not use the system-node-critical priority class"
  return listBefore(text, PRIORITY_CLASS_WORDS, isName)
}

// ---------------------------------------------------------------------------------------------
// Container ports

function portStrings(ranges: ReadonlyArray<readonly [number, number]>): string[] {
  return ranges.map(([from, to]) => (from === to ? String(from) : `${from}-${to}`))
}

function portRangesOf(value: JsonValue | undefined): Array<[number, number]> {
  return stringsOf(value).flatMap((text) => {
    const [from, to = from] = text.split('-').map(Number)
    return from !== undefined && Number.isInteger(from) && Number.isInteger(to) ? [[from, to] as [number, number]] : []
  })
}

const inRanges = (port: number, ranges: ReadonlyArray<readonly [number, number]>): boolean => ranges.some(([from, to]) => port >= from && port <= to)

/** The ports as written back, in CEL over container `c`, whether there is one port (not a range), the first and last for bad samples and one outside them for good ones. */
function portValues(values: Values): Record<string, JsonValue> {
  const ranges = portRangesOf(values.ports)
  const ports = portStrings(ranges)
  const port = 'p.?containerPort.orValue(0)'
  const tests = ranges.map(([from, to]) => (from === to ? `${port} == ${from}` : `(${port} >= ${from} && ${port} <= ${to})`))
  const first = ranges[0]?.[0] ?? 22
  return {
    'port-list': ports,
    'one-port': ports.length === 1 && !ports[0]?.includes('-'),
    'ports-cel': tests.length > 0 ? `c.?ports.orValue([]).all(p, !(${tests.join(' || ')}))` : 'true',
    'first-port': first,
    'last-port': ranges.at(-1)?.[1] ?? first,
    'free-port': [8080, 8443, 9090, 10080, 18080, 40000, 50000, 60000].find((candidate) => !inRanges(candidate, ranges)) ?? 1,
  }
}

/** Ports of the container inside the listed ranges (`ports`) move to `to`. */
function freePorts(container: Json, options: Options): void {
  const ranges = portRangesOf(options.ports)
  if (!Array.isArray(container.ports)) return
  for (const entry of container.ports as Json[]) if (typeof entry.containerPort === 'number' && inRanges(entry.containerPort, ranges)) entry.containerPort = options.to
}

// ---------------------------------------------------------------------------------------------
// Generic values and changes

export const WORKLOAD_PRACTICES_VOCABULARY: Vocabulary = {
  words: {
    'image-words': IMAGE_WORDS,
    'registry-words': /\bregistr(y|ies)\b/,
    'latest-tag': /(^|[^a-z0-9])latest\b/,
    'digest-words': /\b(digests?|sha256|sha512)\b|@sha/,
    /** "a version tag or a sha256 digest": either one will do, so what is asked is only that the image is not bare. */
    'tag-or-digest': /\btag(?:s|ged)?\b[^.;]{0,30}\bor\b[^.;]{0,20}(\bdigests?\b|\bsha(256|512)\b|@sha)|(\bdigests?\b|\bsha(256|512)\b|@sha)[^.;]{0,20}\bor\b[^.;]{0,30}\btag(?:s|ged)?\b/,
    'pull-policy-words': PULL_POLICY_WORDS,
    'always-pull': /\balways[\s-]+(be[\s-]+)?pull(s|ed|ing)?\b|\bpull(s|ed)?[\s-]+(images?[\s-]+)?always\b/,
    'only-words': ONLY_WORDS,
    'registry-deny-words': /\b(deny ?list(ed)?|block ?list(ed)?|black ?list(ed)?|banned)\b/,
    'resource-field-words': RESOURCE_FIELD_WORDS,
    'resource-name-words': RESOURCE_NAME_WORDS,
    'env-words': /\b(env|envs|environment|env[\s-]*vars?|variables?|vars?)\b|envfrom/,
    'credential-words': /\b(secrets?|passwords?|passwd|passphrases?|tokens?|credentials?|api[\s-]*keys?|private[\s-]*keys?|access[\s-]*keys?|sensitive)\b/,
    'secret-ref-words': /secretkeyref|secret[\s-]*key[\s-]*ref|valuefrom|secretref|\bsecret[\s-]*ref(erence)?s?\b/,
    'literal-words': /\b(plain|plaintext|plain[\s-]*text|literal(s|ly)?|hard[\s-]*coded|inline(d)?|clear[\s-]*text|cleartext|raw|values?)\b/,
    'priority-class-words': PRIORITY_CLASS_WORDS,
  },
  tests: {
    /** Any quantity (10m, 2Gi, 50%): a clause giving one is about a bound, not a bare requirement. */
    quantities: (clause) => quantities(clause.text).length > 0,
    /** A quantity that can bound a resource (not a percentage). */
    'resource-quantities': (clause) => quantitiesMentioned(clause.text).length > 0,
    /** A quantity in bytes: memory, whatever the words say. */
    'memory-quantities': (clause) => quantities(clause.text).some((found) => found.unit === 'memory'),
    /** A comparison: at most, no more than, >=, between... */
    comparisons: (clause) => comparatorsIn(clause.normalized).length > 0,
  },
  readers: {
    registries: (clause) => {
      const entries = registryEntries(clause)
      return entries.length > 0 ? entries : undefined
    },
    'resource-bounds': (clause) => {
      const reading = readBounds(clause.text)
      return reading.complete && Object.keys(reading.bounds).length > 0 ? reading.bounds : undefined
    },
    /** The resources (cpu, memory, ephemeral-storage) or fields (requests, limits) named, in the clause's order, else `otherwise`. */
    'resource-words': (clause, options) => {
      const named = findAll(clause.normalized, options.of === 'fields' ? FIELD_WORDS : RESOURCE_WORDS).map((found) => found.value as string)
      return named.length > 0 ? [...new Set(named)] : stringsOf(options.otherwise)
    },
    probes: (clause, options) => {
      const named = probesNamed(clause)
      return named.length > 0 ? named : stringsOf(options.otherwise)
    },
    'pull-policy': (clause) => pullPolicyOf(clause).policy,
    'pull-policy-forbidden': (clause) => pullPolicyOf(clause).forbidden,
    /** Class names, as the `allowed` ones or, when the clause forbids them without "only"/"except", the `forbidden` ones (`listed`). */
    'priority-classes': (clause, options) => {
      const names = priorityClassNames(clause.text)
      const forbidden = clause.negated && !mentions(clause, ONLY_WORDS)
      return names.length > 0 && forbidden === (options.listed === 'forbidden') ? names : undefined
    },
    ports: (clause) => {
      const ports = portStrings(portRanges(clause.text))
      return ports.length > 0 ? ports : undefined
    },
  },
  samples: {
    'resource-bounds': (parameters) => resourceBoundSamples(parameters),
  },
  values: {
    /** CEL over an image `i`: its tag, whether it runs :latest, its repository (registry/path). */
    'image-cel': () => ({ 'image-tag': celTagOf('i'), 'image-runs-latest': celRunsLatest('i'), 'image-repository': celRepositoryOf('i') }),
    /** CEL: whether repository `repo` is under one of `registries`; and the registry samples use (`otherwise` for none). */
    registries: (values, options) => {
      const registries = stringsOf(values.registries)
      return { 'registries-cel': celRepositoryIn('repo', registries), 'sample-registry': sampleEntry(registries[0] ?? text(options, 'otherwise')) }
    },
    'registry-look-alikes': registryLookAlikes,
    'resource-bounds': resourceBoundValues,
    'required-resources': requiredResourceValues,
    probes: probeValues,
    ports: portValues,
  },
  places: {
    /** Where automountServiceAccountToken lives: on a ServiceAccount, and in the pod spec, which wins. */
    'service-account-and-pod-specs': (document) => [...(document.kind === 'ServiceAccount' ? [document] : []), ...podSpecsOf(document)],
    'containers-running-latest': (document) => containersOf(document).filter((container) => runsLatest(container.image)),
  },
  changes: {
    image: changeImage,
    'move-image': moveImage,
    'free-ports': freePorts,
  },
}
