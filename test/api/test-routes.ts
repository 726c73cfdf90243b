import type { FastifyPluginAsync } from 'fastify'
import { ApiError } from '../../src/api/errors.js'

/** Routes in the shape the real route groups take, to exercise the framework around them. */
export const thingRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Params: { name: string }; Querystring: { page: number; pageSize: number } }>(
    '/api/things/:name',
    {
      config: { scope: 'rulesets:read' },
      schema: {
        summary: 'Read a thing',
        tags: ['things'],
        params: {
          type: 'object',
          required: ['name'],
          properties: { name: { type: 'string', pattern: '^[a-z0-9-]+$', maxLength: 63, description: 'name of the thing' } },
        },
        querystring: {
          type: 'object',
          properties: {
            page: { type: 'integer', minimum: 1, default: 1 },
            pageSize: { type: 'integer', minimum: 1, maximum: 1000, default: 10 },
          },
        },
        response: {
          200: {
            type: 'object',
            properties: { name: { type: 'string' }, page: { type: 'integer' }, pageSize: { type: 'integer' }, owner: { type: 'string' } },
          },
        },
      },
    },
    async (request) => ({ ...request.params, ...request.query, owner: request.principal.owner }),
  )

  app.post<{ Params: { name: string }; Body: { inputData: object; labels?: Record<string, string> } }>(
    '/api/things/:name',
    {
      config: { scope: 'rulesets:write', acceptsYaml: true },
      schema: {
        summary: 'Create a thing',
        body: {
          type: 'object',
          required: ['inputData'],
          properties: {
            inputData: { type: 'object' },
            labels: { type: 'object', additionalProperties: { type: 'string' } },
          },
        },
        response: { 201: { type: 'object', additionalProperties: true } },
      },
    },
    async (request, reply) => {
      reply.code(201)
      return { name: request.params.name, format: request.bodyFormat, raw: request.rawBody, body: request.body }
    },
  )

  app.post<{ Body: { inputData: object } }>(
    '/api/json-only',
    {
      config: { scope: 'any' },
      schema: { body: { type: 'object', required: ['inputData'], properties: { inputData: { type: 'object' } } } },
    },
    async (request) => ({ format: request.bodyFormat, body: request.body }),
  )

  app.get('/api/boom', { config: { scope: 'any' } }, async () => {
    throw new Error('database password is hunter2')
  })

  app.get('/api/store-down', { config: { scope: 'any' } }, async () => {
    const error = new Error('connect ECONNREFUSED 127.0.0.1:5432')
    error.name = 'StoreUnavailableError'
    throw error
  })

  app.get('/api/conflict', { config: { scope: 'any' } }, async () => {
    throw ApiError.conflict('thing "web" already exists')
  })

  app.get('/api/service-invalid', { config: { scope: 'any' } }, async () => {
    throw Object.assign(new Error('invalid request'), { name: 'InvalidRequestError', details: 'body.spec.rules[0].name is required' })
  })

  app.get('/api/store-missing', { config: { scope: 'any' } }, async () => {
    throw Object.assign(new Error('ruleset "web" not found'), { name: 'NotFoundError' })
  })

  app.get('/public/ping', { config: { scope: 'public' } }, async () => ({ ok: true }))
}
