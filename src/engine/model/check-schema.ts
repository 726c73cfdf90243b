import type { TSchema } from 'typebox'
import { Compile } from 'typebox/compile'
import { fieldPath, type DefinitionProblem } from './definition-problem.js'

interface SchemaError {
  keyword: string
  schemaPath?: string
  instancePath: string
  params: Record<string, unknown>
  message: string
}

/** Compiles a schema once and reports its violations as field-path problems. */
export function schemaChecker(schema: TSchema): (value: unknown, basePath: string) => DefinitionProblem[] {
  const validator = Compile(schema)
  return (value, basePath) => {
    if (validator.Check(value)) return []
    const problems: DefinitionProblem[] = []
    const seen = new Set<string>()
    for (const error of validator.Errors(value) as Iterable<SchemaError>) {
      const problem = toProblem(error, basePath)
      if (!problem) continue
      const key = `${problem.path}\u0000${problem.message}`
      if (seen.has(key)) continue
      seen.add(key)
      problems.push(problem)
    }
    // The validator reports a bounded number of errors; a value it rejects is never accepted for want of a message.
    if (problems.length === 0) problems.push({ path: basePath === '' ? '(root)' : basePath, message: 'does not match the schema' })
    return collapseUnionNoise(problems)
  }
}

function toProblem(error: SchemaError, basePath: string): DefinitionProblem | undefined {
  // additionalProperties: false yields a boolean-schema error per unknown field, each at the field's own path; the
  // validator stops after a few errors, so with many unknown fields these may be the only ones reported.
  if (error.keyword === 'boolean') {
    const schemaPath = error.schemaPath ?? ''
    if (!schemaPath.endsWith('/additionalProperties') || error.instancePath === '') return undefined
    const name = decodePointerSegment(error.instancePath.slice(error.instancePath.lastIndexOf('/') + 1))
    return { path: fieldPath(basePath, error.instancePath), message: `unknown field "${name}"` }
  }
  if (error.keyword === 'additionalProperties') {
    const names = (error.params.additionalProperties as string[] | undefined) ?? []
    const name = names[0] ?? '?'
    return { path: fieldPath(basePath, `${error.instancePath}/${name}`), message: `unknown field "${name}"` }
  }
  if (error.keyword === 'required') {
    const names = (error.params.requiredProperties as string[] | undefined) ?? []
    const name = names[0] ?? '?'
    return { path: fieldPath(basePath, `${error.instancePath}/${name}`), message: 'is required' }
  }
  if (error.keyword === 'const') {
    return { path: fieldPath(basePath, error.instancePath), message: `must be ${JSON.stringify(error.params.allowedValue)}` }
  }
  if (error.keyword === 'enum') {
    const allowed = (error.params.allowedValues as unknown[] | undefined) ?? []
    if (allowed.length > 0) return { path: fieldPath(basePath, error.instancePath), message: `must be one of ${allowed.map((value) => JSON.stringify(value)).join(', ')}` }
  }
  if (error.keyword === 'anyOf') return { path: fieldPath(basePath, error.instancePath), message: ANY_OF }
  return { path: fieldPath(basePath, error.instancePath), message: error.message }
}

function decodePointerSegment(segment: string): string {
  return segment.replaceAll('~1', '/').replaceAll('~0', '~')
}

const ANY_OF = 'matches none of the allowed forms'

/**
 * A value that fits no branch of a union yields one error per branch plus the anyOf summary;
 * users need one line per field, so the branch messages are joined into one.
 */
function collapseUnionNoise(problems: DefinitionProblem[]): DefinitionProblem[] {
  const byPath = new Map<string, DefinitionProblem[]>()
  for (const p of problems) {
    const list = byPath.get(p.path) ?? []
    list.push(p)
    byPath.set(p.path, list)
  }
  const out: DefinitionProblem[] = []
  for (const [path, list] of byPath) {
    if (!list.some((p) => p.message === ANY_OF)) {
      out.push(...list)
      continue
    }
    const branches = list.filter((p) => p.message !== ANY_OF).map((p) => p.message.replace(/^must be /, ''))
    out.push({ path, message: branches.length > 0 ? `must be ${branches.join(' or ')}` : ANY_OF })
  }
  return out
}
