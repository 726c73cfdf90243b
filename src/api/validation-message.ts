import type { FastifySchemaValidationError } from 'fastify'

/** fastify calls the query string `querystring`; clients know it as the query. */
const PART_NAMES: Record<string, string> = { querystring: 'query' }

const ARTICLES: Record<string, string> = {
  integer: 'an integer',
  object: 'an object',
  array: 'an array',
  string: 'a string',
  number: 'a number',
  boolean: 'a boolean',
  null: 'null',
}

/**
 * One sentence per schema violation, naming the field as a path a client can find in what it
 * sent: `body.inputData is required`, `query.pageSize must be <= 1000`, `body.rules[2].name must be a string`.
 */
export function describeValidationErrors(errors: readonly FastifySchemaValidationError[], part: string): string {
  const root = PART_NAMES[part] ?? part
  const sentences = errors.map((error) => describe(error, root))
  return [...new Set(sentences)].join('; ')
}

function describe(error: FastifySchemaValidationError, root: string): string {
  const path = fieldPath(root, error.instancePath)
  const params = error.params
  switch (error.keyword) {
    case 'required':
      return `${childPath(path, String(params.missingProperty))} is required`
    case 'additionalProperties':
      return `${childPath(path, String(params.additionalProperty))} is not allowed`
    case 'type':
      return `${path} must be ${String(params.type).split(',').map((type) => ARTICLES[type] ?? type).join(' or ')}`
    case 'enum':
      return `${path} must be one of ${(params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')}`
    case 'const':
      return `${path} must be ${JSON.stringify(params.allowedValue)}`
    default:
      return `${path} ${error.message ?? `fails ${error.keyword}`}`
  }
}

/** `/rules/2/name` (a JSON pointer) becomes `body.rules[2].name`. */
function fieldPath(root: string, pointer: string): string {
  if (pointer === '') return root
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce((path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : childPath(path, segment)), root)
}

/** `body.labels` for a plain key, `body.labels["a b"]` for any other, so the path reads back unambiguously. */
export function childPath(path: string, key: string): string {
  return /^[A-Za-z_$][\w$-]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`
}
