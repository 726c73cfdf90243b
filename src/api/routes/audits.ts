import type { FastifyPluginAsync } from 'fastify'
import { MAX_PAGE_SIZE, type AuditQuery, type AuditQueryService } from '../../services/audit-query-service.js'
import { errorSchema, nameOrGlobParams, policyDisabledProperties } from './common-schemas.js'

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 429: errorSchema, 503: errorSchema }

const timeRange = {
  startTimestamp: { type: 'string', description: 'RFC 3339 date-time with a zone (2026-01-31T12:00:00Z), 0001-01-01 to 9999-12-31; default: 1970-01-01T00:00:00.000Z' },
  endTimestamp: { type: 'string', description: 'RFC 3339 date-time with a zone, 0001-01-01 to 9999-12-31; default: now' },
} as const

/** The list filters: where the audits came from and how they ended; all when absent (list routes only: counts come from counters kept per name). */
const listFilters = {
  source: { type: 'string', enum: ['admission', 'api', 'background'], description: 'only audits written by the webhook, the REST API or a background scan' },
  passed: { type: 'boolean', description: 'only audits that passed (true) or failed (false)' },
} as const

const paging = {
  page: { type: 'integer', minimum: 1, default: 1 },
  pageSize: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: 10 },
} as const

function auditRecord(nameField: 'policyName' | 'rulesetName', outputName: 'policy' | 'ruleset') {
  return {
    type: 'object',
    properties: {
      [nameField]: { type: 'string' },
      input: { type: 'string' },
      inputFormat: { type: 'string', enum: ['json', 'yaml'] },
      output: {
        type: 'object',
        properties: {
          [outputName]: { type: 'string' },
          passed: { type: 'boolean' },
          results: { type: 'array', items: { type: 'object', additionalProperties: true } },
          ...(outputName === 'policy' ? policyDisabledProperties : {}),
        },
      },
      updatedAt: { type: 'string', format: 'date-time' },
      updatedBy: { type: 'string' },
      requestId: { type: 'string' },
    },
  } as const
}

const policyAudit = auditRecord('policyName', 'policy')
const rulesetAudit = auditRecord('rulesetName', 'ruleset')

function listResponse(nameField: string, listField: string, item: object) {
  return {
    type: 'object',
    properties: {
      [nameField]: { type: 'string' },
      startTimestamp: { type: 'string' },
      endTimestamp: { type: 'string' },
      page: { type: 'integer' },
      pageSize: { type: 'integer' },
      [listField]: { type: 'array', items: item },
    },
  }
}

function countResponse(nameField: string, countField: string) {
  return {
    type: 'object',
    properties: { [nameField]: { type: 'string' }, [countField]: { type: 'integer' }, startTimestamp: { type: 'string' }, endTimestamp: { type: 'string' } },
  }
}

const requestIdParam = { type: 'object', required: ['request_id'], properties: { request_id: { type: 'string', minLength: 1, maxLength: 200 } } }

/** The spec's eight audit routes, with its exact response shapes. */
export function auditRoutes(audits: AuditQueryService): FastifyPluginAsync {
  return async (app) => {
    const scope = { scope: 'audits:read' }

    app.get<{ Params: { policy_name: string }; Querystring: AuditQuery }>(
      '/api/audits/policies/:policy_name',
      {
        config: scope,
        schema: {
          summary: 'Policy audits of one policy (or a glob), newest first',
          params: nameOrGlobParams('policy_name'),
          querystring: { type: 'object', properties: { ...timeRange, ...paging, ...listFilters } },
          response: { 200: listResponse('policyName', 'policyAudits', policyAudit), ...errors },
        },
      },
      async (request) => audits.listPolicyAudits(request.params.policy_name, request.query),
    )

    app.get<{ Querystring: AuditQuery & { policy_name?: string } }>(
      '/api/audits/policies',
      {
        config: scope,
        schema: {
          summary: 'Policy audits of all policies (policy_name=* ) or those matching a glob, newest first',
          querystring: { type: 'object', properties: { policy_name: { type: 'string', minLength: 1, default: '*' }, ...timeRange, ...paging, ...listFilters } },
          response: { 200: listResponse('policyName', 'policyAudits', policyAudit), ...errors },
        },
      },
      async (request) => audits.listPolicyAudits(request.query.policy_name ?? '*', request.query),
    )

    app.get<{ Params: { policy_name: string }; Querystring: AuditQuery }>(
      '/api/audits/count/policies/:policy_name',
      {
        config: scope,
        schema: {
          summary: 'Number of policy audits',
          params: nameOrGlobParams('policy_name'),
          querystring: { type: 'object', properties: timeRange },
          response: { 200: countResponse('policyName', 'policyAuditsCount'), ...errors },
        },
      },
      async (request) => audits.countPolicyAudits(request.params.policy_name, request.query),
    )

    app.get<{ Params: { request_id: string } }>(
      '/api/audits/policies/uuid/:request_id',
      {
        config: scope,
        schema: {
          summary: 'The policy audit of one evaluation request',
          params: requestIdParam,
          response: { 200: { type: 'object', properties: { requestId: { type: 'string' }, policyAudit } }, ...errors },
        },
      },
      async (request) => audits.policyAuditByRequestId(request.params.request_id),
    )

    app.get<{ Params: { ruleset_name: string }; Querystring: AuditQuery }>(
      '/api/audits/rulesets/:ruleset_name',
      {
        config: scope,
        schema: {
          summary: 'Ruleset audits of one ruleset (or a glob), newest first',
          params: nameOrGlobParams('ruleset_name'),
          querystring: { type: 'object', properties: { ...timeRange, ...paging, ...listFilters } },
          response: { 200: listResponse('rulesetName', 'rulesetAudits', rulesetAudit), ...errors },
        },
      },
      async (request) => audits.listRulesetAudits(request.params.ruleset_name, request.query),
    )

    app.get<{ Querystring: AuditQuery & { ruleset_name?: string } }>(
      '/api/audits/rulesets',
      {
        config: scope,
        schema: {
          summary: 'Ruleset audits of all rulesets (ruleset_name=*) or those matching a glob, newest first',
          querystring: { type: 'object', properties: { ruleset_name: { type: 'string', minLength: 1, default: '*' }, ...timeRange, ...paging, ...listFilters } },
          response: { 200: listResponse('rulesetName', 'rulesetAudits', rulesetAudit), ...errors },
        },
      },
      async (request) => audits.listRulesetAudits(request.query.ruleset_name ?? '*', request.query),
    )

    app.get<{ Params: { ruleset_name: string }; Querystring: AuditQuery }>(
      '/api/audits/count/rulesets/:ruleset_name',
      {
        config: scope,
        schema: {
          summary: 'Number of ruleset audits',
          params: nameOrGlobParams('ruleset_name'),
          querystring: { type: 'object', properties: timeRange },
          response: { 200: countResponse('rulesetName', 'rulesetAuditsCount'), ...errors },
        },
      },
      async (request) => audits.countRulesetAudits(request.params.ruleset_name, request.query),
    )

    app.get<{ Params: { request_id: string } }>(
      '/api/audits/rulesets/uuid/:request_id',
      {
        config: scope,
        schema: {
          summary: 'The ruleset audits of one evaluation request (an array: a policy evaluation applies several rulesets)',
          params: requestIdParam,
          response: { 200: { type: 'object', properties: { requestId: { type: 'string' }, rulesetAudits: { type: 'array', items: rulesetAudit } } }, ...errors },
        },
      },
      async (request) => audits.rulesetAuditsByRequestId(request.params.request_id),
    )
  }
}
