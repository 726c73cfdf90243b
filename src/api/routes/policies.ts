import type { FastifyPluginAsync } from 'fastify'
import type { DefinitionService } from '../../services/definition-service.js'
import { definitionBody, dryRunQuery, errorSchema, labelQuery, nameParams, policySchema } from './common-schemas.js'
import { parseLabelFilter } from './label-filter.js'

interface NameParams {
  name: string
}

interface WriteQuery {
  dryRun?: boolean
}

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema, 413: errorSchema, 415: errorSchema, 429: errorSchema }

/** Policies: create (plain, manifest; JSON or YAML), replace, read, list by label, delete. */
export function policyRoutes(definitions: DefinitionService): FastifyPluginAsync {
  return async (app) => {
    app.post<{ Params: NameParams; Querystring: WriteQuery; Body: unknown }>(
      '/api/policies/:name',
      {
        config: { scope: 'policies:write', acceptsYaml: true },
        schema: {
          summary: 'Create a policy',
          params: nameParams('name', 'policy'),
          querystring: dryRunQuery,
          body: definitionBody,
          response: { 200: policySchema, 201: policySchema, ...errors },
        },
      },
      async (request, reply) => {
        const dryRun = request.query.dryRun === true
        const policy = await definitions.createPolicy(request.params.name, request.body, { by: request.principal.owner, dryRun })
        return reply.code(dryRun ? 200 : 201).send(policy)
      },
    )

    app.put<{ Params: NameParams; Querystring: WriteQuery; Body: unknown }>(
      '/api/policies/:name',
      {
        config: { scope: 'policies:write', acceptsYaml: true },
        schema: {
          summary: 'Replace a policy',
          params: nameParams('name', 'policy'),
          querystring: dryRunQuery,
          body: definitionBody,
          response: { 200: policySchema, ...errors },
        },
      },
      async (request) =>
        definitions.replacePolicy(request.params.name, request.body, { by: request.principal.owner, dryRun: request.query.dryRun === true }),
    )

    app.get<{ Params: NameParams }>(
      '/api/policies/:name',
      {
        config: { scope: 'policies:read' },
        schema: { summary: 'Read a policy', params: nameParams('name', 'policy'), response: { 200: policySchema, ...errors } },
      },
      async (request) => definitions.getPolicy(request.params.name),
    )

    app.get<{ Querystring: { label?: string | string[] } }>(
      '/api/policies',
      {
        config: { scope: 'policies:read' },
        schema: {
          summary: 'List policies, optionally those carrying every given label',
          querystring: labelQuery,
          response: { 200: { type: 'object', properties: { policies: { type: 'array', items: policySchema } } }, ...errors },
        },
      },
      async (request) => ({ policies: await definitions.listPolicies(parseLabelFilter(request.query.label)) }),
    )

    app.delete<{ Params: NameParams }>(
      '/api/policies/:name',
      {
        config: { scope: 'policies:write' },
        schema: { summary: 'Delete a policy', params: nameParams('name', 'policy'), response: { 204: { type: 'null' }, ...errors } },
      },
      async (request, reply) => {
        await definitions.deletePolicy(request.params.name)
        return reply.code(204).send()
      },
    )
  }
}
