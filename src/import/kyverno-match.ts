import type { Match, MatchFilter, ResourceFilter, Subject } from '../engine/model/match.js'
import { ImportError, Unsupported } from './import-error.js'
import {
  isObject,
  object,
  optionalLabelSelector,
  optionalList,
  optionalObject,
  optionalOperations,
  optionalTextList,
  text,
  type JsonObject,
} from './read.js'
import { checkSameObjectSubresources, kindEntry, SAME_OBJECT, subresourceObject, type KindList } from './resource-kinds.js'

/**
 * Kyverno `match` / `exclude` blocks (kyverno.io/v1 MatchResources) as Verdict matches, with
 * Kyverno's reading of them: a non-empty `any` wins over `all`, which wins over the legacy
 * top-level `resources`; within one filter every part must hold.
 */

/** A parsed Kyverno kind selector; `*` where a part was left out. */
export interface KyvernoKind {
  group: string
  version: string
  kind: string
  subresource: string
}

const VERSION = /^(v\d+((alpha|beta)\d+)?|\*)$/

/**
 * Kyverno's ParseKindSelector: `Kind`, `version/Kind`, `group/version/Kind`, each optionally
 * followed by `/subresource` or `.subresource` (`Pod/exec`, `v1/Pod.status`), and `*` / `*\/*`.
 */
export function parseKyvernoKind(input: string): KyvernoKind | undefined {
  const slashParts = input.split('/')
  const parts = [...slashParts.slice(0, -1), ...(slashParts.at(-1) ?? '').split('.')]
  const [a = '', b = '', c = '', d = ''] = parts
  switch (parts.length) {
    case 1:
      return { group: '*', version: '*', kind: a, subresource: '' }
    case 2:
      if (a === '*' && b === '*') return { group: '*', version: '*', kind: '*', subresource: '*' }
      if (a === '*' && b.toLowerCase() === b) return { group: '*', version: '*', kind: '*', subresource: b }
      if (VERSION.test(a)) return { group: '*', version: a, kind: b, subresource: '' }
      // Kyverno would read `apps/Deployment` as kind "apps" with subresource "Deployment" and never
      // match anything; a capitalised second part can only mean group/Kind.
      if (/^[A-Z]/.test(b)) return { group: a, version: '*', kind: b, subresource: '' }
      return { group: '*', version: '*', kind: a, subresource: b }
    case 3:
      if (VERSION.test(a)) return { group: '*', version: a, kind: b, subresource: c }
      return { group: a, version: b, kind: c, subresource: '' }
    case 4:
      return { group: a, version: b, kind: c, subresource: d }
    default:
      return undefined
  }
}

const WILDCARD = /[*?]/

/** Kyverno kinds as Verdict kind entries. */
export function translateKyvernoKinds(kinds: readonly string[], field: string): KindList {
  const out: KindList = { kinds: [], parents: [], sameObject: [] }
  kinds.forEach((input, i) => {
    const path = `${field}[${i}]`
    if (input === '*') {
      out.kinds.push('*')
      out.parents.push('*')
      return
    }
    const parsed = parseKyvernoKind(input)
    if (!parsed || parsed.kind === '') throw new Unsupported(`${path}: "${input}" is not a kind`)
    const { group, version, kind, subresource } = parsed
    if (kind === '*' && subresource === '*') {
      out.kinds.push('*')
      out.parents.push('*')
      return
    }
    // Kyverno matches each part as a wildcard pattern; Verdict only knows the whole-part `*`.
    for (const part of [group, version, kind]) {
      if (part !== '*' && WILDCARD.test(part)) throw new Unsupported(`${path}: kind patterns such as "${input}" are not supported`)
    }
    if (subresource === '') {
      out.kinds.push(entry(group, version, kind))
      out.parents.push(kind)
      return
    }
    if (kind === '*' || WILDCARD.test(subresource)) {
      throw new Unsupported(`${path}: "${input}" matches subresources of many kinds, which cannot be matched by kind`)
    }
    const carried = subresourceObject(kind, subresource)
    if (carried === undefined) {
      throw new Unsupported(`${path}: admission requests for the subresource "${input}" are not supported`)
    }
    if (carried === SAME_OBJECT) {
      out.kinds.push(entry(group, version, kind))
      out.sameObject.push(kind)
    } else {
      out.kinds.push(carried)
    }
  })
  out.kinds = [...new Set(out.kinds)]
  return out
}

/** Kyverno leaves out group or version as `*`; Verdict writes Kind, version/Kind, group/Kind or group/version/Kind. */
function entry(group: string, version: string, kind: string): string {
  if (group === '*') return version === '*' ? kind : `${version}/${kind}`
  return version === '*' ? kindEntry(group === '' ? 'core' : group, kind) : `${group}/${version}/${kind}`
}

/** Kyverno's ContainsKind(kinds, "Pod"): any entry whose kind, subresource aside, is Pod. */
export function containsPodKind(kinds: readonly string[]): boolean {
  return kinds.some((input) => {
    const parts = input.split('/')
    const firstDotToSlash = (s: string) => s.replace('.', '/')
    let kind: string
    switch (parts.length) {
      case 1:
        kind = firstDotToSlash(input)
        break
      case 2:
        kind = parts[0] === '*' && parts[1] === '*' ? '*/*' : VERSION.test(parts[0] ?? '') ? firstDotToSlash(parts[1] ?? '') : input
        break
      case 3:
        kind = VERSION.test(parts[0] ?? '') ? `${parts[1]}/${parts[2]}` : firstDotToSlash(parts[2] ?? '')
        break
      case 4:
        kind = `${parts[2]}/${parts[3]}`
        break
      default:
        kind = ''
    }
    const split = kind.split('/')
    return (split.length === 2 ? split[0] : kind) === 'Pod'
  })
}

/** The resource descriptions of a match or exclude block, in the places Kyverno reads them. */
export function resourceDescriptions(block: JsonObject | undefined): JsonObject[] {
  if (!block) return []
  const out: JsonObject[] = []
  if (isObject(block.resources)) out.push(block.resources)
  for (const key of ['any', 'all'] as const) {
    const filters = block[key]
    if (!Array.isArray(filters)) continue
    for (const filter of filters) if (isObject(filter) && isObject(filter.resources)) out.push(filter.resources)
  }
  return out
}

/** Every kind a match block names (Kyverno's MatchResources.GetKinds). */
export function kindsOfBlock(block: JsonObject | undefined): string[] {
  return resourceDescriptions(block).flatMap((d) => (Array.isArray(d.kinds) ? d.kinds.filter((k) => typeof k === 'string') : []))
}

/** The positive part of a rule's `match`. */
export function translateKyvernoMatch(value: unknown, field: string): Match {
  return translateBlock(object(value, field), field)
}

/** A rule's `exclude`; undefined when it excludes nothing. */
export function translateKyvernoExclude(value: unknown, field: string): MatchFilter | undefined {
  const block = optionalObject(value, field)
  if (!block) return undefined
  const filter = translateBlock(block, field)
  return Object.keys(filter).length > 0 ? filter : undefined
}

function translateBlock(block: JsonObject, field: string): MatchFilter {
  const any = optionalList(block.any, `${field}.any`)
  const all = optionalList(block.all, `${field}.all`)
  const key = any && any.length > 0 ? 'any' : all && all.length > 0 ? 'all' : undefined
  if (key) {
    const translated = (key === 'any' ? any : all)!.map((f, i) => translateFilter(object(f, `${field}.${key}[${i}]`), `${field}.${key}[${i}]`))
    checkSameObjectSubresources(
      translated.map((t) => t.kindList),
      `${field}.${key}`,
    )
    return { [key]: translated.map((t) => t.filter) }
  }
  // The legacy form: one resource description and the user filters inline.
  const translated = translateFilter(block, field)
  checkSameObjectSubresources([translated.kindList], field)
  return translated.filter
}

interface TranslatedFilter {
  filter: ResourceFilter
  kindList: KindList
}

const ROLE_FILTERS = ['roles', 'clusterRoles'] as const
const SUBJECT_KINDS: readonly string[] = ['User', 'Group', 'ServiceAccount']

function translateFilter(filter: JsonObject, field: string): TranslatedFilter {
  for (const key of ROLE_FILTERS) {
    const value = filter[key]
    if (Array.isArray(value) ? value.length > 0 : value !== undefined && value !== null) {
      throw new Unsupported(`${field}.${key}: matching on the requesting user's roles is not supported (Verdict does not read RBAC bindings); subjects are`)
    }
  }
  const subjects = translateSubjects(filter.subjects, `${field}.subjects`)
  const resourcesField = `${field}.resources`
  const resources = optionalObject(filter.resources, resourcesField) ?? {}
  const out: ResourceFilter = {}
  let kindList: KindList = { kinds: [], parents: [], sameObject: [] }
  const kinds = optionalTextList(resources.kinds, `${resourcesField}.kinds`)
  if (kinds) {
    kindList = translateKyvernoKinds(kinds, `${resourcesField}.kinds`)
    out.kinds = kindList.kinds
  }
  const names = [
    ...(typeof resources.name === 'string' && resources.name !== '' ? [resources.name] : []),
    ...(optionalTextList(resources.names, `${resourcesField}.names`) ?? []),
  ]
  if (names.length > 0) out.names = names
  const namespaces = optionalTextList(resources.namespaces, `${resourcesField}.namespaces`)
  if (namespaces) out.namespaces = namespaces
  const annotations = optionalObject(resources.annotations, `${resourcesField}.annotations`)
  if (annotations && Object.keys(annotations).length > 0) {
    out.annotations = {}
    for (const [key, value] of Object.entries(annotations)) {
      if (typeof value !== 'string') throw new ImportError(`${resourcesField}.annotations.${key}`, 'must be a string')
      out.annotations[key] = value
    }
  }
  if (subjects) out.subjects = subjects
  const operations = optionalOperations(resources.operations, `${resourcesField}.operations`)
  if (operations) out.operations = operations
  const selector = optionalLabelSelector(resources.selector, `${resourcesField}.selector`)
  if (selector) out.labelSelector = selector
  const namespaceSelector = optionalLabelSelector(resources.namespaceSelector, `${resourcesField}.namespaceSelector`)
  if (namespaceSelector) out.namespaceSelector = namespaceSelector
  return { filter: out, kindList }
}

/** RBAC subjects (User, Group, ServiceAccount) the request's user must match one of. */
function translateSubjects(value: unknown, field: string): Subject[] | undefined {
  const items = optionalList(value, field)
  if (!items || items.length === 0) return undefined
  return items.map((raw, index) => {
    const at = `${field}[${index}]`
    const item = object(raw, at)
    const kind = text(item.kind, `${at}.kind`)
    if (!SUBJECT_KINDS.includes(kind)) throw new ImportError(`${at}.kind`, `must be User, Group or ServiceAccount, not "${kind}"`)
    const subject: Subject = { kind: kind as Subject['kind'], name: text(item.name, `${at}.name`) }
    if (kind === 'ServiceAccount') subject.namespace = typeof item.namespace === 'string' ? item.namespace : ''
    return subject
  })
}

/** Namespaced Kyverno policies apply only to resources in their own namespace. */
export function restrictToNamespace(match: Match, namespace: string): void {
  if (match.namespaces === undefined) match.namespaces = [namespace]
  else match.all = [...(match.all ?? []), { namespaces: [namespace] }]
}
