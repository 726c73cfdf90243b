import type { FastifyPluginAsync } from 'fastify'

export interface OpenApiRouteOptions {
  /** The document, built on first use from every registered route. */
  readonly document: () => Record<string, unknown>
}

const openApiSchema = {
  summary: 'This API as an OpenAPI 3.1 document, generated from the route schemas',
  tags: ['meta'],
  response: {
    200: { type: 'object', additionalProperties: true, description: 'an OpenAPI 3.1 document' },
  },
} as const

export const openApiRoutes: FastifyPluginAsync<OpenApiRouteOptions> = async (app, options) => {
  app.get('/api/openapi.json', { schema: openApiSchema, config: { scope: 'any' } }, async () => options.document())
}
