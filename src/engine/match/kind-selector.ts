/** The group, version and kind of a resource, from its apiVersion and kind. */
export interface GroupVersionKind {
  group: string
  version: string
  kind: string
}

export interface KindSelector {
  group?: string
  version?: string
  kind: string
}

const VERSION = /^v\d+((alpha|beta)\d+)?$/
const parsed = new Map<string, KindSelector>()

export function groupVersionKindOf(apiVersion: unknown, kind: unknown): GroupVersionKind {
  const api = typeof apiVersion === 'string' ? apiVersion : ''
  const slash = api.lastIndexOf('/')
  return {
    group: slash < 0 ? '' : api.slice(0, slash),
    version: slash < 0 ? api : api.slice(slash + 1),
    kind: typeof kind === 'string' ? kind : '',
  }
}

/**
 * `Kind`, `group/Kind`, `version/Kind` (a Kyverno habit: `v1/Pod`), `group/version/Kind` or `*`.
 * `core` names the empty core group, so `core/Pod` is a core Pod and never a CRD named Pod.
 */
export function parseKindSelector(entry: string): KindSelector {
  let selector = parsed.get(entry)
  if (selector) return selector
  const parts = entry.split('/')
  if (parts.length === 1) selector = { kind: entry }
  else if (parts.length === 2) {
    const [first, kind] = parts as [string, string]
    selector = VERSION.test(first) ? { version: first, kind } : { group: first === 'core' ? '' : first, kind }
  } else {
    const kind = parts.pop() as string
    const version = parts.pop() as string
    const group = parts.join('/')
    selector = { group: group === 'core' ? '' : group, version, kind }
  }
  parsed.set(entry, selector)
  return selector
}

/** A predicate over resources for a kind list, with every entry parsed once. */
export function kindMatcher(entries: readonly string[]): (resource: GroupVersionKind) => boolean {
  if (entries.includes('*')) return () => true
  const selectors = entries.map(parseKindSelector)
  return (resource) => selectors.some((selector) => matchesKindSelector(resource, selector))
}

export function matchesKind(resource: GroupVersionKind, entries: readonly string[]): boolean {
  return kindMatcher(entries)(resource)
}

function matchesKindSelector(resource: GroupVersionKind, selector: KindSelector): boolean {
  if (selector.kind !== '*' && selector.kind !== resource.kind) return false
  if (selector.group !== undefined && selector.group !== '*' && selector.group !== resource.group) return false
  if (selector.version !== undefined && selector.version !== '*' && selector.version !== resource.version) return false
  return true
}

/** Whether a kind list names Pods (in the core group), which is what switches autogen on. */
export function namesPodKind(entries: readonly string[]): boolean {
  return entries.some((entry) => {
    if (entry === '*') return false
    const selector = parseKindSelector(entry)
    return selector.kind === 'Pod' && (selector.group === undefined || selector.group === '')
  })
}
