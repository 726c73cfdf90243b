import type { FastifyPluginAsync } from 'fastify'
import type { DefinitionService } from '../../services/definition-service.js'
import { definitionBody, dryRunQuery, errorSchema, labelQuery, nameParams, rulesetSchema } from './common-schemas.js'
import { parseLabelFilter } from './label-filter.js'

interface NameParams {
  name: string
}

interface WriteQuery {
  dryRun?: boolean
}

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema, 413: errorSchema, 415: errorSchema, 429: errorSchema }

/** Rulesets: create (plain, manifest; JSON or YAML), replace, read, list by label, delete. */
export function rulesetRoutes(definitions: DefinitionService): FastifyPluginAsync {
  return async (app) => {
    app.post<{ Params: NameParams; Querystring: WriteQuery; Body: unknown }>(
      '/api/rulesets/:name',
      {
        config: { scope: 'rulesets:write', acceptsYaml: true },
        schema: {
          summary: 'Create a ruleset',
          params: nameParams('name', 'ruleset'),
          querystring: dryRunQuery,
          body: definitionBody,
          response: { 200: rulesetSchema, 201: rulesetSchema, ...errors },
        },
      },
      async (request, reply) => {
        const dryRun = request.query.dryRun === true
        const ruleset = await definitions.createRuleset(request.params.name, request.body, { by: request.principal.owner, dryRun })
        return reply.code(dryRun ? 200 : 201).send(ruleset)
      },
    )

    app.put<{ Params: NameParams; Querystring: WriteQuery; Body: unknown }>(
      '/api/rulesets/:name',
      {
        config: { scope: 'rulesets:write', acceptsYaml: true },
        schema: {
          summary: 'Replace a ruleset',
          params: nameParams('name', 'ruleset'),
          querystring: dryRunQuery,
          body: definitionBody,
          response: { 200: rulesetSchema, ...errors },
        },
      },
      async (request) =>
        definitions.replaceRuleset(request.params.name, request.body, { by: request.principal.owner, dryRun: request.query.dryRun === true }),
    )

    app.get<{ Params: NameParams }>(
      '/api/rulesets/:name',
      {
        config: { scope: 'rulesets:read' },
        schema: { summary: 'Read a ruleset', params: nameParams('name', 'ruleset'), response: { 200: rulesetSchema, ...errors } },
      },
      async (request) => definitions.getRuleset(request.params.name),
    )

    app.get<{ Querystring: { label?: string | string[] } }>(
      '/api/rulesets',
      {
        config: { scope: 'rulesets:read' },
        schema: {
          summary: 'List rulesets, optionally those carrying every given label',
          querystring: labelQuery,
          response: { 200: { type: 'object', properties: { rulesets: { type: 'array', items: rulesetSchema } } }, ...errors },
        },
      },
      async (request) => ({ rulesets: await definitions.listRulesets(parseLabelFilter(request.query.label)) }),
    )

    app.delete<{ Params: NameParams }>(
      '/api/rulesets/:name',
      {
        config: { scope: 'rulesets:write' },
        schema: { summary: 'Delete a ruleset (409 while a policy names it)', params: nameParams('name', 'ruleset'), response: { 204: { type: 'null' }, ...errors } },
      },
      async (request, reply) => {
        await definitions.deleteRuleset(request.params.name)
        return reply.code(204).send()
      },
    )
  }
}
