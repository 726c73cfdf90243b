import type { FastifyPluginAsync } from 'fastify'
import { errorSchema } from './common-schemas.js'

/** Who the bearer token says the caller is. */
export function whoamiRoutes(): FastifyPluginAsync {
  return async (app) => {
    app.get(
      '/api/auth/whoami',
      {
        config: { scope: 'any' },
        schema: {
          summary: "The caller's identity and scopes",
          response: {
            200: { type: 'object', properties: { tokenId: { type: 'string' }, owner: { type: 'string' }, scopes: { type: 'array', items: { type: 'string' } } } },
            401: errorSchema,
          },
        },
      },
      async (request) => ({ tokenId: request.principal.tokenId, owner: request.principal.owner, scopes: [...request.principal.scopes] }),
    )
  }
}
