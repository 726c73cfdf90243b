/**
 * Real objects nest a few dozen levels at most (a CRD's schema inside its spec is among the
 * deepest). The engine and the JSON/YAML writers walk documents recursively, so a body nested
 * thousands of levels deep would overflow the stack; refusing it at the door keeps every walker safe.
 */
export const MAX_DOCUMENT_DEPTH = 200

/** Where a value first nests deeper than the limit: the path to it, as keys and indexes. */
export interface DepthExcess {
  path: Array<string | number>
  limit: number
}

interface Frame {
  value: unknown
  depth: number
  key: string | number | undefined
  parent: Frame | undefined
}

/**
 * The first place `value` nests deeper than `limit` objects/arrays, or undefined. Iterative, so
 * the check itself cannot overflow; it keeps parent links instead of a path per pending value.
 */
export function findDepthExcess(value: unknown, limit = MAX_DOCUMENT_DEPTH): DepthExcess | undefined {
  // Every document that is let in passes through here: the first look allocates nothing, and only
  // a document that does nest too deep pays for the walk that names where.
  if (!nestsDeeperThan(value, limit)) return undefined
  const pending: Frame[] = [{ value, depth: 0, key: undefined, parent: undefined }]
  while (pending.length > 0) {
    const frame = pending.pop() as Frame
    if (frame.value === null || typeof frame.value !== 'object') continue
    const depth = frame.depth + 1
    if (depth > limit) return { path: pathOf(frame), limit }
    if (Array.isArray(frame.value)) {
      frame.value.forEach((item, index) => pending.push({ value: item, depth, key: index, parent: frame }))
    } else {
      for (const [key, item] of Object.entries(frame.value)) pending.push({ value: item, depth, key, parent: frame })
    }
  }
  return undefined
}

/**
 * Whether `value` holds objects/arrays more than `remaining` levels deep. Recursive, but never
 * deeper than `remaining` + 1 calls (MAX_DOCUMENT_DEPTH by default), so the stack is safe.
 */
function nestsDeeperThan(value: unknown, remaining: number): boolean {
  if (value === null || typeof value !== 'object') return false
  if (remaining === 0) return true
  if (Array.isArray(value)) {
    for (const item of value as unknown[]) if (nestsDeeperThan(item, remaining - 1)) return true
    return false
  }
  const record = value as Record<string, unknown>
  for (const key in record) if (Object.hasOwn(record, key) && nestsDeeperThan(record[key], remaining - 1)) return true
  return false
}

function pathOf(frame: Frame): Array<string | number> {
  const path: Array<string | number> = []
  for (let current: Frame | undefined = frame; current; current = current.parent) if (current.key !== undefined) path.unshift(current.key)
  return path
}

/** `spec.a.b[0]...`: the start of the path to the excess, enough for a reader to find it. */
export function describeDepthExcess(root: string, excess: DepthExcess): string {
  const shown = excess.path.slice(0, 4).reduce<string>((path, key) => (typeof key === 'number' ? `${path}[${key}]` : /^[A-Za-z_$][\w$-]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`), root)
  const more = excess.path.length > 4 ? '…' : ''
  return `${shown}${more} nests deeper than ${excess.limit} levels, the most Verdict judges`
}
