import type { FastifyPluginAsync } from 'fastify'
import type { WriteOptions } from '../../services/definition-service.js'
import { definitionBody, dryRunQuery, errorSchema, labelQuery, nameParams } from './common-schemas.js'
import { parseLabelFilter } from './label-filter.js'

interface NameParams {
  name: string
}

interface WriteQuery {
  dryRun?: boolean
}

/** What differs between the ruleset and the policy routes; everything else is the same five routes. */
export interface DefinitionRoutesSpec<T> {
  /** `ruleset` or `policy`, as users read it. */
  kind: string
  /** The path segment and the list field: `rulesets`, `policies`. */
  plural: string
  readScope: string
  writeScope: string
  /** The JSON Schema of a stored definition, for responses and the OpenAPI document. */
  schema: object
  create(name: string, body: unknown, options: WriteOptions): Promise<T>
  replace(name: string, body: unknown, options: WriteOptions): Promise<T>
  get(name: string): Promise<T>
  list(labels: Record<string, string>): Promise<T[]>
  remove(name: string): Promise<void>
}

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema, 413: errorSchema, 415: errorSchema, 429: errorSchema }

/** Create (plain or manifest; JSON or YAML), replace, read, list by label, delete. */
export function definitionRoutes<T>(spec: DefinitionRoutesSpec<T>): FastifyPluginAsync {
  const path = `/api/${spec.plural}/:name`
  const params = nameParams('name', spec.kind)
  return async (app) => {
    app.post<{ Params: NameParams; Querystring: WriteQuery; Body: unknown }>(
      path,
      {
        config: { scope: spec.writeScope, acceptsYaml: true },
        schema: { summary: `Create a ${spec.kind}`, params, querystring: dryRunQuery, body: definitionBody, response: { 200: spec.schema, 201: spec.schema, ...errors } },
      },
      async (request, reply) => {
        const dryRun = request.query.dryRun === true
        const created = await spec.create(request.params.name, request.body, { by: request.principal.owner, dryRun })
        return reply.code(dryRun ? 200 : 201).send(created)
      },
    )

    app.put<{ Params: NameParams; Querystring: WriteQuery; Body: unknown }>(
      path,
      {
        config: { scope: spec.writeScope, acceptsYaml: true },
        schema: { summary: `Replace a ${spec.kind}`, params, querystring: dryRunQuery, body: definitionBody, response: { 200: spec.schema, ...errors } },
      },
      async (request) => spec.replace(request.params.name, request.body, { by: request.principal.owner, dryRun: request.query.dryRun === true }),
    )

    app.get<{ Params: NameParams }>(
      path,
      { config: { scope: spec.readScope }, schema: { summary: `Read a ${spec.kind}`, params, response: { 200: spec.schema, ...errors } } },
      async (request) => spec.get(request.params.name),
    )

    app.get<{ Querystring: { label?: string | string[] } }>(
      `/api/${spec.plural}`,
      {
        config: { scope: spec.readScope },
        schema: {
          summary: `List ${spec.plural}, optionally those carrying every given label`,
          querystring: labelQuery,
          response: { 200: { type: 'object', properties: { [spec.plural]: { type: 'array', items: spec.schema } } }, ...errors },
        },
      },
      async (request) => ({ [spec.plural]: await spec.list(parseLabelFilter(request.query.label)) }),
    )

    app.delete<{ Params: NameParams }>(
      path,
      { config: { scope: spec.writeScope }, schema: { summary: `Delete a ${spec.kind}`, params, response: { 204: { type: 'null' }, ...errors } } },
      async (request, reply) => {
        await spec.remove(request.params.name)
        return reply.code(204).send()
      },
    )
  }
}
