/** RFC 7386 merge patch and RFC 6902 JSON patch, as the fake API server applies them. */

export class PatchError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message)
    this.name = 'PatchError'
  }
}

type Json = Record<string, unknown>

export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return structuredClone(patch)
  const result: Json = isObject(target) ? structuredClone(target) : {}
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key]
    else result[key] = applyMergePatch(result[key], value)
  }
  return result
}

interface Operation {
  op: string
  path: string
  value?: unknown
  from?: string
}

export function applyJsonPatch(target: Json, patch: unknown): Json {
  if (!Array.isArray(patch)) throw new PatchError(400, 'a JSON patch is an array of operations')
  let document: unknown = structuredClone(target)
  for (const raw of patch as Operation[]) {
    const tokens = pointer(raw.path)
    switch (raw.op) {
      case 'test':
        if (JSON.stringify(get(document, tokens)) !== JSON.stringify(raw.value)) throw new PatchError(422, `test failed at ${raw.path}`)
        break
      case 'add':
        document = put(document, tokens, structuredClone(raw.value), 'add')
        break
      case 'replace':
        get(document, tokens)
        document = put(document, tokens, structuredClone(raw.value), 'replace')
        break
      case 'remove':
        get(document, tokens)
        document = remove(document, tokens)
        break
      default:
        throw new PatchError(422, `unsupported JSON patch operation ${JSON.stringify(raw.op)}`)
    }
  }
  if (!isObject(document)) throw new PatchError(422, 'the patch replaced the whole object with a non-object')
  return document
}

function pointer(path: string): string[] {
  if (path === '') return []
  if (!path.startsWith('/')) throw new PatchError(400, `bad JSON pointer ${JSON.stringify(path)}`)
  return path
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
}

function get(document: unknown, tokens: string[]): unknown {
  let node = document
  for (const token of tokens) {
    if (Array.isArray(node) && /^\d+$/.test(token) && Number(token) < node.length) node = node[Number(token)]
    else if (isObject(node) && token in node) node = node[token]
    else throw new PatchError(422, `no value at /${tokens.join('/')}`)
  }
  return node
}

function put(document: unknown, tokens: string[], value: unknown, op: 'add' | 'replace'): unknown {
  if (tokens.length === 0) return value
  const parent = get(document, tokens.slice(0, -1))
  const last = tokens[tokens.length - 1] as string
  if (Array.isArray(parent)) {
    const index = last === '-' ? parent.length : Number(last)
    if (!Number.isInteger(index) || index > parent.length) throw new PatchError(422, `bad array index ${last}`)
    if (op === 'add') parent.splice(index, 0, value)
    else parent[index] = value
  } else if (isObject(parent)) {
    parent[last] = value
  } else {
    throw new PatchError(422, `cannot set ${last} on a scalar`)
  }
  return document
}

function remove(document: unknown, tokens: string[]): unknown {
  const parent = get(document, tokens.slice(0, -1))
  const last = tokens[tokens.length - 1] as string
  if (Array.isArray(parent)) parent.splice(Number(last), 1)
  else if (isObject(parent)) delete parent[last]
  return document
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
