import type { FastifyRequest } from 'fastify'
import { describeCodeUnit, unstorableCharacterIn } from '../store/storable-text.js'
import { ApiError } from './errors.js'
import { childPath } from './validation-message.js'

/**
 * U+0000 and unpaired UTF-16 surrogates cannot be stored or looked up in PostgreSQL text and
 * jsonb (see src/store/storable-text.ts). In an id, a name, a filter, a label or a token name
 * they can only be a mistake or a probe, so every route refuses them in its path parameters,
 * query and body with a 400 naming the field, before any handler or query sees them. The
 * exception is what a route declares in `config.freeTextBodyFields` (the document being
 * evaluated): it is judged and audited as sent, the audit store keeping such text safely.
 */
export async function refuseUnstorableText(request: FastifyRequest): Promise<void> {
  if (request.is404) return
  const exempt = new Set(request.routeOptions.config.freeTextBodyFields ?? [])
  const problem =
    findUnstorable(request.params, 'params') ??
    findUnstorable(request.query, 'query') ??
    findUnstorable(request.body, 'body', (key) => exempt.has(key))
  if (problem) throw ApiError.badRequest(`${problem.path}: contains ${describeCodeUnit(problem.codeUnit)}, which cannot be stored; remove it`)
}

interface Found {
  path: string
  codeUnit: number
}

/**
 * The first key or string in `root` holding unstorable text, with its field path. A walk with its
 * own stack: a body's depth must not decide whether the check can finish. `skipTopLevel` leaves
 * out top-level fields of the root object.
 */
function findUnstorable(root: unknown, rootPath: string, skipTopLevel: (key: string) => boolean = () => false): Found | undefined {
  const pending: Array<{ value: unknown; path: string; top: boolean }> = [{ value: root, path: rootPath, top: true }]
  const seen = new Set<object>()
  while (pending.length > 0) {
    const { value, path, top } = pending.pop() as { value: unknown; path: string; top: boolean }
    if (typeof value === 'string') {
      const found = unstorableCharacterIn(value)
      if (found) return { path, codeUnit: found.codeUnit }
      continue
    }
    if (typeof value !== 'object' || value === null || seen.has(value)) continue
    // YAML aliases may share a node many times; once is enough.
    seen.add(value)
    if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index -= 1) pending.push({ value: value[index], path: `${path}[${index}]`, top: false })
      continue
    }
    const entries = Object.entries(value)
    for (let index = entries.length - 1; index >= 0; index -= 1) {
      const [key, item] = entries[index] as [string, unknown]
      if (top && skipTopLevel(key)) continue
      const keyProblem = unstorableCharacterIn(key)
      if (keyProblem) return { path: childPath(path, key), codeUnit: keyProblem.codeUnit }
      pending.push({ value: item, path: childPath(path, key), top: false })
    }
  }
  return undefined
}
