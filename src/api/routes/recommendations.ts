import type { FastifyPluginAsync } from 'fastify'
import { RECOMMENDATION_TYPES, type RecommendationType } from '../../recommendations/recommendation.js'
import type { DefinitionCatalog } from '../../services/definition-catalog.js'
import { DEFAULT_RECOMMENDATION_DAYS, MAX_RECOMMENDATION_DAYS, RecommendationService, type RecommendationServiceOptions } from '../../services/recommendation-service.js'
import type { Queryable } from '../../store/db.js'
import { errorSchema } from './common-schemas.js'

const errors = { 400: errorSchema, 401: errorSchema, 429: errorSchema, 503: errorSchema }

/** Unknown parameters are refused rather than ignored: `?day=30` must not quietly mean 7 days. */
const recommendationsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    days: { type: 'integer', minimum: 1, maximum: MAX_RECOMMENDATION_DAYS, default: DEFAULT_RECOMMENDATION_DAYS, description: 'the window: this many days up to now' },
    type: {
      type: 'array',
      items: { type: 'string', enum: RECOMMENDATION_TYPES },
      description: 'only these kinds (repeat the parameter for several); all when absent',
    },
  },
} as const

const recommendationSchema = {
  type: 'object',
  required: ['id', 'type', 'target', 'message', 'evidence'],
  properties: {
    id: { type: 'string', description: 'the same for the same finding on every call, so a client can dismiss it' },
    type: { type: 'string', enum: RECOMMENDATION_TYPES },
    target: {
      type: 'object',
      required: ['kind', 'name'],
      properties: {
        kind: { type: 'string', enum: ['policy', 'ruleset', 'rule', 'control'], description: 'control: a Pod Security Standards control, named by its catalog template id' },
        name: { type: 'string' },
        ruleset: { type: 'string', description: 'for a rule: its ruleset' },
      },
    },
    message: { type: 'string' },
    evidence: { type: 'object', additionalProperties: true, description: 'the counts, ratios and timestamps that justify the finding' },
  },
} as const

const recommendationsResponse = {
  type: 'object',
  required: ['recommendations', 'generatedAt', 'days'],
  properties: {
    recommendations: { type: 'array', items: recommendationSchema },
    generatedAt: { type: 'string', format: 'date-time' },
    days: { type: 'integer' },
  },
} as const

/** Improvement suggestions drawn from the definitions and the audits of the last `days` days. */
export function recommendationRoutes(recommendations: RecommendationService): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Querystring: { days?: number; type?: RecommendationType[] } }>(
      '/api/recommendations',
      {
        config: { scope: 'any' },
        schema: {
          summary: 'Recommendations: policies ready to Deny, erroring policies and rules, unused rulesets, idle policies, frequent violations, uncovered Pod Security controls',
          querystring: recommendationsQuery,
          response: { 200: recommendationsResponse, ...errors },
        },
      },
      async (request) => recommendations.recommend({ ...(request.query.days === undefined ? {} : { days: request.query.days }), ...(request.query.type ? { types: request.query.type } : {}) }),
    )
  }
}

/** The route group on a RecommendationService of its own over the store, the definitions and the exceptions (what `verdict serve` mounts). */
export function recommendationRoutesOn(db: Queryable, catalog: DefinitionCatalog, options: RecommendationServiceOptions = {}): FastifyPluginAsync {
  return recommendationRoutes(new RecommendationService(db, catalog, options))
}
