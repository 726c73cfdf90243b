/**
 * Storage and paging for the fake Kubernetes API server (fake-kube-api.ts): objects by key in
 * creation order, a sorted view of them that later writes never change (the snapshot a paged
 * LIST reads from), and continue tokens shaped as the real API server's.
 *
 * No test framework imports here: bench scripts compiled by tsc import this file.
 */

export type Json = Record<string, unknown>

/** The order of a paged LIST: namespace, then name ("\0" sorts before any character a name may hold). */
export function keyOf(namespace: string | undefined, name: string): string {
  return `${namespace ?? ''}\u0000${name}`
}

/** The keys of one namespace lie in [namespaceStart, namespaceEnd). */
export function namespaceRange(namespace: string): [string, string] {
  return [`${namespace}\u0000`, `${namespace}\u0001`]
}

/** Objects sorted by key at one moment; neither array is ever changed once built. */
export interface SortedView {
  readonly keys: readonly string[]
  readonly objects: readonly Json[]
}

/**
 * One resource's objects. Stored objects are never changed in place (a write stores a new
 * object), so a sorted view holds references, not copies. The view is rebuilt lazily, on the
 * first paged LIST after writes, by merging the changed keys into the previous view:
 * O(n + k log k) for k changes, once per resource version that is listed.
 */
export class ObjectStore {
  readonly #byKey = new Map<string, Json>()
  #view: SortedView = { keys: [], objects: [] }
  #changed = new Set<string>()

  get size(): number {
    return this.#byKey.size
  }

  get(key: string): Json | undefined {
    return this.#byKey.get(key)
  }

  has(key: string): boolean {
    return this.#byKey.has(key)
  }

  set(key: string, object: Json): void {
    this.#byKey.set(key, object)
    this.#changed.add(key)
  }

  delete(key: string): void {
    if (this.#byKey.delete(key)) this.#changed.add(key)
  }

  /** In creation order, as unpaged lists and watches have always served them. */
  values(): IterableIterator<Json> {
    return this.#byKey.values()
  }

  /** The objects now, sorted by key; later writes leave the returned view as it is. */
  sorted(): SortedView {
    if (this.#changed.size === 0) return this.#view
    const changed = [...this.#changed].sort()
    this.#changed = new Set()
    const previous = this.#view
    const keys: string[] = []
    const objects: Json[] = []
    let index = 0
    for (const key of changed) {
      while (index < previous.keys.length && (previous.keys[index] as string) < key) {
        keys.push(previous.keys[index] as string)
        objects.push(previous.objects[index] as Json)
        index += 1
      }
      if (previous.keys[index] === key) index += 1
      const object = this.#byKey.get(key)
      if (object) {
        keys.push(key)
        objects.push(object)
      }
    }
    for (; index < previous.keys.length; index += 1) {
      keys.push(previous.keys[index] as string)
      objects.push(previous.objects[index] as Json)
    }
    this.#view = { keys, objects }
    return this.#view
  }
}

/** The first index in `keys[from, to)` whose key is not less than `key`. */
export function lowerBound(keys: readonly string[], key: string, from = 0, to = keys.length): number {
  let low = from
  let high = to
  while (low < high) {
    const middle = (low + high) >>> 1
    if ((keys[middle] as string) < key) low = middle + 1
    else high = middle
  }
  return low
}

/** A continue token's content: the resourceVersion of the list's snapshot (-1: the latest) and the key to start from. */
export interface ContinueToken {
  rv: number
  start: string
}

const TOKEN_VERSION = 'meta.k8s.io/v1'

/** As the real API server writes them: unpadded base64url of {"v","rv","start"}. */
export function encodeContinue(token: ContinueToken): string {
  return Buffer.from(JSON.stringify({ v: TOKEN_VERSION, rv: token.rv, start: token.start }), 'utf8').toString('base64url')
}

/** The token's content, or why it is not valid (the real server's wording, for a 400 "invalid continue token: ..."). */
export function decodeContinue(text: string): ContinueToken | { error: string } {
  let parsed: unknown
  try {
    if (!/^[A-Za-z0-9_-]+={0,2}$/.test(text)) throw new Error('illegal base64 data')
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'))
  } catch (error) {
    return { error: `continue key is not valid: ${error instanceof Error ? error.message : String(error)}` }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { error: 'continue key is not valid: not an object' }
  const { v, rv, start } = parsed as Json
  if (v !== TOKEN_VERSION) return { error: 'continue key is not valid: server does not recognize this encoded version' }
  if (typeof rv !== 'number' || !Number.isInteger(rv) || rv === 0 || rv < -1) return { error: `continue key is not valid: incorrect encoded start resourceVersion (version ${TOKEN_VERSION})` }
  if (typeof start !== 'string' || start === '') return { error: 'continue key is not valid: encoded start key empty' }
  return { rv, start }
}

/** The message of the 410 Expired answer to a continue token whose snapshot is gone, as the real server words it. */
export const INCONSISTENT_CONTINUE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.'
