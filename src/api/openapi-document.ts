import type { FastifySchema, RouteOptions } from 'fastify'
import { API_VERSION } from './api-version.js'
import { JSON_MEDIA_TYPES, YAML_MEDIA_TYPES } from './media-types.js'
import type { RouteScope } from './principal.js'
import { nodeHttp } from '../server/node-http.js'

/** A JSON value of the generated document; schemas are copied through as they were declared. */
type Json = Record<string, unknown>

interface RouteRecord {
  readonly method: string
  readonly path: string
  readonly schema: FastifySchema
  readonly scope: RouteScope | undefined
  readonly acceptsYaml: boolean
}

const SECURITY_SCHEME = 'bearerAuth'
const ERROR_SCHEMA_REF = { $ref: '#/components/schemas/Error' }
const COMPONENT_NAME = /[^A-Za-z0-9._-]/g

/**
 * The OpenAPI 3.1 document of the API, built from what the routes declared: every route is
 * recorded by an onRoute hook as it is registered, so the document cannot drift from the code.
 */
export class OpenApiDocument {
  private readonly routes: RouteRecord[] = []
  private readonly shared = new Map<string, unknown>()
  private built: Json | undefined

  constructor(private readonly title: string) {}

  /**
   * Called by the onRoute hook with the schemas shared (`addSchema`) in the route's context.
   * HEAD routes are fastify's automatic twins of GET routes and add nothing; routes outside the
   * API (the console) are not recorded.
   */
  record(route: RouteOptions, sharedSchemas: Record<string, unknown>): void {
    if (route.config?.outsideApi === true) return
    for (const [id, schema] of Object.entries(sharedSchemas)) this.shared.set(id, schema)
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    for (const method of methods) {
      if (method === 'HEAD') continue
      this.routes.push({
        method: method.toLowerCase(),
        path: openApiPath(route.url),
        schema: route.schema ?? {},
        scope: route.config?.scope,
        acceptsYaml: route.config?.acceptsYaml === true,
      })
    }
    this.built = undefined
  }

  /** Built once, on first use, when every route is known. */
  build(): Json {
    this.built ??= this.assemble()
    return this.built
  }

  private assemble(): Json {
    const paths: Record<string, Record<string, Json>> = {}
    const sorted = [...this.routes].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method))
    for (const route of sorted) {
      paths[route.path] ??= {}
      ;(paths[route.path] as Record<string, Json>)[route.method] = operation(route)
    }
    const schemas: Json = {
      Error: {
        type: 'object',
        required: ['error', 'details'],
        properties: { error: { type: 'string', description: 'short message' }, details: { type: 'string', description: 'what went wrong, naming the field' } },
      },
    }
    for (const [id, schema] of this.shared) {
      const { $id: _id, ...rest } = copy(schema) as Json
      schemas[componentName(id)] = rest
    }
    return {
      openapi: '3.1.0',
      info: { title: this.title, version: API_VERSION },
      paths,
      components: {
        schemas,
        securitySchemes: { [SECURITY_SCHEME]: { type: 'http', scheme: 'bearer', description: 'an API token: Authorization: Bearer <token>' } },
      },
    }
  }
}

/** `/api/rulesets/:name` becomes `/api/rulesets/{name}`; a regex constraint on a parameter is dropped. */
function openApiPath(url: string): string {
  return url
    .replace(/(^|[^:]):([A-Za-z0-9_]+)(\([^)]*\))?/g, (_match, before: string, name: string) => `${before}{${name}}`)
    .replaceAll('::', ':')
    .replace(/\*$/, '{wildcard}')
}

function operation(route: RouteRecord): Json {
  const { schema } = route
  const pathNames = [...route.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string)
  const parameters = [
    ...pathParameters(pathNames, schema.params as Json | undefined),
    ...objectParameters('query', schema.querystring as Json | undefined),
    ...objectParameters('header', schema.headers as Json | undefined),
  ]
  const result: Json = { operationId: schema.operationId ?? operationId(route) }
  if (schema.summary !== undefined) result.summary = schema.summary
  if (schema.description !== undefined) result.description = schema.description
  if (schema.tags !== undefined) result.tags = [...schema.tags]
  if (parameters.length > 0) result.parameters = parameters
  if (schema.body !== undefined) {
    const types = route.acceptsYaml ? [...JSON_MEDIA_TYPES, ...YAML_MEDIA_TYPES] : JSON_MEDIA_TYPES
    const body = copy(schema.body)
    result.requestBody = { required: true, content: Object.fromEntries(types.map((type) => [type, { schema: body }])) }
  }
  result.responses = responses(route)
  result.security = route.scope === 'public' ? [] : [{ [SECURITY_SCHEME]: route.scope === 'any' || route.scope === undefined ? [] : [route.scope] }]
  if (route.scope !== undefined && route.scope !== 'public') result['x-required-scope'] = route.scope
  return result
}

function pathParameters(names: string[], params: Json | undefined): Json[] {
  const properties = (params?.properties ?? {}) as Record<string, Json>
  return names.map((name) => parameter('path', name, properties[name] ?? { type: 'string' }, true))
}

function objectParameters(location: 'query' | 'header', schema: Json | undefined): Json[] {
  if (!schema) return []
  const required = new Set((schema.required ?? []) as string[])
  return Object.entries((schema.properties ?? {}) as Record<string, Json>).map(([name, property]) =>
    parameter(location, name, property, required.has(name)),
  )
}

function parameter(location: string, name: string, schema: Json, required: boolean): Json {
  const result: Json = { name, in: location, required, schema: copy(schema) }
  if (typeof schema.description === 'string') result.description = schema.description
  return result
}

function responses(route: RouteRecord): Json {
  const result: Json = {}
  const declared = (route.schema.response ?? {}) as Record<string, Json>
  for (const [status, schema] of Object.entries(declared)) {
    const code = status.toUpperCase()
    const description = typeof schema.description === 'string' ? schema.description : reason(code)
    if (schema.content !== undefined) result[code] = { description, content: copy(schema.content) }
    else if (schema.type === 'null') result[code] = { description }
    else result[code] = { description, content: { 'application/json': { schema: copy(schema) } } }
  }
  if (Object.keys(result).length === 0) result['200'] = { description: 'success' }
  const errors = ['500', '503']
  const validates = route.schema.body !== undefined || route.schema.querystring !== undefined || route.schema.params !== undefined
  if (validates) errors.push('400')
  if (route.schema.body !== undefined) errors.push('413', '415')
  if (route.scope !== 'public') errors.push('401', '429')
  if (route.scope !== 'public' && route.scope !== 'any') errors.push('403')
  for (const code of errors.sort()) {
    result[code] ??= { description: reason(code), content: { 'application/json': { schema: ERROR_SCHEMA_REF } } }
  }
  return result
}

function reason(code: string): string {
  return nodeHttp.STATUS_CODES[Number(code)] ?? (code === 'DEFAULT' ? 'any other status' : `${code[0]}xx`)
}

function operationId(route: RouteRecord): string {
  const words = route.path
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => (segment.startsWith('{') ? `By_${segment.slice(1, -1)}` : segment))
    .flatMap((segment) => segment.split(/[^A-Za-z0-9]+/))
    .filter((word) => word !== '')
  return route.method + words.map((word) => word[0]?.toUpperCase() + word.slice(1)).join('')
}

function componentName(id: string): string {
  return id.replace(/#$/, '').replace(COMPONENT_NAME, '_')
}

/**
 * A deep copy through JSON (dropping TypeBox's symbol keys and anything else not JSON), with
 * references to shared schemas (`$ref: 'name#/...'`) pointed at the components section.
 */
function copy(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value), (key, item: unknown) => {
    if (key === '$ref' && typeof item === 'string' && !item.startsWith('#')) {
      const [id = '', fragment = ''] = item.split('#', 2)
      return `#/components/schemas/${componentName(id)}${fragment}`
    }
    return item
  }) as unknown
}
