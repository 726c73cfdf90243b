import type { FastifyPluginAsync } from 'fastify'
import { DEFAULT_INTERVAL, MAX_BUCKETS, MAX_INTERVAL_DAYS, TimeseriesService, type TimeseriesQuery } from '../../services/timeseries-service.js'
import type { Db } from '../../store/db.js'
import { errorSchema, nameOrGlobParams } from './common-schemas.js'

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 429: errorSchema, 503: errorSchema }

// The interval's form and the bucket limit are checked by the service, whose messages say what would be accepted.
const query = {
  type: 'object',
  properties: {
    startTimestamp: { type: 'string', description: 'RFC 3339 date-time with a zone (2026-01-31T12:00:00Z); default: endTimestamp minus 24 hours, not before 0001-01-01' },
    endTimestamp: { type: 'string', description: 'RFC 3339 date-time with a zone, 0001-01-01 to 9999-12-31; default: now' },
    interval: {
      type: 'string',
      default: DEFAULT_INTERVAL,
      description: `bucket length: whole minutes, hours or days (1m, 5m, 15m, 1h, 6h, 1d, ...), at most ${MAX_INTERVAL_DAYS}d and ${MAX_BUCKETS} buckets over the range`,
    },
  },
} as const

function timeseriesResponse(nameField: 'policyName' | 'rulesetName') {
  return {
    type: 'object',
    properties: {
      [nameField]: { type: 'string' },
      startTimestamp: { type: 'string' },
      endTimestamp: { type: 'string' },
      interval: { type: 'string' },
      buckets: {
        type: 'array',
        description: 'every bucket from the one holding startTimestamp to the one holding endTimestamp, aligned to the interval since the Unix epoch; only audits inside the range count',
        items: {
          type: 'object',
          properties: {
            start: { type: 'string', format: 'date-time' },
            total: { type: 'integer' },
            passed: { type: 'integer' },
            failed: { type: 'integer' },
          },
        },
      },
      topFailingRules: {
        type: 'array',
        description: 'the ten rules with the most fail or error results in the range, ties by ruleset then rule',
        items: {
          type: 'object',
          properties: { ruleset: { type: 'string' }, rule: { type: 'string' }, failures: { type: 'integer' } },
        },
      },
    },
  }
}


/** Audits over time: passed and failed per bucket, and the rules failing most. */
export function timeseriesRoutes(timeseries: TimeseriesService): FastifyPluginAsync {
  return async (app) => {
    const scope = { scope: 'audits:read' }

    app.get<{ Params: { policy_name: string }; Querystring: TimeseriesQuery }>(
      '/api/timeseries/policies/:policy_name',
      {
        config: scope,
        schema: {
          summary: 'Policy audits per time bucket (total, passed, failed) and the rules failing most',
          params: nameOrGlobParams('policy_name'),
          querystring: query,
          response: { 200: timeseriesResponse('policyName'), ...errors },
        },
      },
      async (request) => timeseries.policyTimeseries(request.params.policy_name, request.query),
    )

    app.get<{ Params: { ruleset_name: string }; Querystring: TimeseriesQuery }>(
      '/api/timeseries/rulesets/:ruleset_name',
      {
        config: scope,
        schema: {
          summary: 'Ruleset audits per time bucket (total, passed, failed) and the rules failing most',
          params: nameOrGlobParams('ruleset_name'),
          querystring: query,
          response: { 200: timeseriesResponse('rulesetName'), ...errors },
        },
      },
      async (request) => timeseries.rulesetTimeseries(request.params.ruleset_name, request.query),
    )
  }
}

/** The routes on their service over `db`, so the server wires them with one entry. */
export function timeseriesRoutesOn(db: Db): FastifyPluginAsync {
  return timeseriesRoutes(new TimeseriesService(db))
}
