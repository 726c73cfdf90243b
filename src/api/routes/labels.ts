import type { FastifyPluginAsync } from 'fastify'
import type { AuthoringService } from '../../services/authoring-service.js'
import type { DefinitionService } from '../../services/definition-service.js'
import { errorSchema } from './common-schemas.js'

const labelsResponse = {
  type: 'object',
  properties: { labels: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } } },
} as const

/**
 * Label values in use merged with the catalog's vocabulary, each list sorted without duplicates.
 * Label keys are anyone's (`constructor`, `toString`, `__proto__`), so only own keys are read and
 * the answer is built with defined properties, never by assignment.
 */
function mergeLabels(inUse: Record<string, string[]>, vocabulary: Record<string, string[]>): Record<string, string[]> {
  const own = (map: Record<string, string[]>, key: string): string[] => (Object.hasOwn(map, key) ? (map[key] ?? []) : [])
  const keys = [...new Set([...Object.keys(inUse), ...Object.keys(vocabulary)])].sort()
  return Object.fromEntries(keys.map((key) => [key, [...new Set([...own(inUse, key), ...own(vocabulary, key)])].sort()]))
}

/**
 * The label keys in use on policies and rulesets, each with its values, plus the platforms and
 * resources instructions understand (so a client can offer them before anything exists).
 */
export function labelRoutes(definitions: DefinitionService, authoring: AuthoringService): FastifyPluginAsync {
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
        async () => ({ labels: mergeLabels(await definitions.labels(kind), await authoring.vocabulary()) }),
      )
    }
  }
}
