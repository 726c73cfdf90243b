import type { FastifyPluginAsync } from 'fastify'
import type { ExceptionFilter, ExceptionService } from '../../services/exception-service.js'
import { dryRunQuery, errorSchema, nameParams } from './common-schemas.js'
import { exceptionBody, exceptionListQuery, exceptionSchema } from './exception-schemas.js'

interface NameParams {
  name: string
}

interface WriteQuery {
  dryRun?: boolean
}

const READ = 'exceptions:read'
/** Its own scope: a token that may write policies cannot let workloads past them without it. */
const WRITE = 'exceptions:write'

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema, 413: errorSchema, 415: errorSchema, 429: errorSchema }
const params = nameParams('name', 'exception')

/** PolicyExceptions: create (plain or manifest; JSON or YAML), replace, read, list with filters, delete. */
export function exceptionRoutes(exceptions: ExceptionService): FastifyPluginAsync {
  return async (app) => {
    app.post<{ Params: NameParams; Querystring: WriteQuery; Body: unknown }>(
      '/api/exceptions/:name',
      {
        config: { scope: WRITE, acceptsYaml: true },
        schema: { summary: 'Create a policy exception', params, querystring: dryRunQuery, body: exceptionBody, response: { 200: exceptionSchema, 201: exceptionSchema, ...errors } },
      },
      async (request, reply) => {
        const dryRun = request.query.dryRun === true
        const created = await exceptions.create(request.params.name, request.body, { by: request.principal.owner, dryRun })
        return reply.code(dryRun ? 200 : 201).send(created)
      },
    )

    app.put<{ Params: NameParams; Querystring: WriteQuery; Body: unknown }>(
      '/api/exceptions/:name',
      {
        config: { scope: WRITE, acceptsYaml: true },
        schema: { summary: 'Replace a policy exception', params, querystring: dryRunQuery, body: exceptionBody, response: { 200: exceptionSchema, ...errors } },
      },
      async (request) => exceptions.replace(request.params.name, request.body, { by: request.principal.owner, dryRun: request.query.dryRun === true }),
    )

    app.get<{ Params: NameParams }>(
      '/api/exceptions/:name',
      { config: { scope: READ }, schema: { summary: 'Read a policy exception', params, response: { 200: exceptionSchema, ...errors } } },
      async (request) => exceptions.get(request.params.name),
    )

    app.get<{ Querystring: ExceptionFilter }>(
      '/api/exceptions',
      {
        config: { scope: READ },
        schema: {
          summary: 'List policy exceptions, optionally by policy, ruleset and state',
          querystring: exceptionListQuery,
          response: { 200: { type: 'object', properties: { exceptions: { type: 'array', items: exceptionSchema } } }, ...errors },
        },
      },
      async (request) => ({ exceptions: await exceptions.list(request.query) }),
    )

    app.delete<{ Params: NameParams }>(
      '/api/exceptions/:name',
      { config: { scope: WRITE }, schema: { summary: 'Delete a policy exception', params, response: { 204: { type: 'null' }, ...errors } } },
      async (request, reply) => {
        await exceptions.delete(request.params.name)
        return reply.code(204).send()
      },
    )
  }
}
