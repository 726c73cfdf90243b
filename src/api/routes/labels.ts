import type { FastifyPluginAsync } from 'fastify'
import type { DefinitionService } from '../../services/definition-service.js'
import { errorSchema } from './common-schemas.js'

const labelsResponse = {
  type: 'object',
  properties: { labels: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } } },
} as const

/** The label keys in use on policies and rulesets, each with its values. */
export function labelRoutes(definitions: DefinitionService): FastifyPluginAsync {
  return async (app) => {
    for (const [path, kind] of [
      ['/api/labels/policies', 'policy'],
      ['/api/labels/rulesets', 'ruleset'],
    ] as const) {
      app.get(
        path,
        {
          config: { scope: 'any' },
          schema: { summary: `Labels used by ${kind === 'policy' ? 'policies' : 'rulesets'}`, response: { 200: labelsResponse, 401: errorSchema, 429: errorSchema } },
        },
        async () => ({ labels: await definitions.labels(kind) }),
      )
    }
  }
}
