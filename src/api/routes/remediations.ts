import type { FastifyPluginAsync } from 'fastify'
import type { DefinitionCatalog } from '../../services/definition-catalog.js'
import { RemediationService } from '../../services/remediation-service.js'
import type { Db } from '../../store/db.js'
import { errorSchema, nameParams } from './common-schemas.js'

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 429: errorSchema, 503: errorSchema }

const severity = { type: 'string', enum: ['info', 'low', 'medium', 'high', 'critical'] } as const

const remediationText = {
  remediation: { type: 'string', description: 'what to change, as an instruction' },
  derived: { type: 'boolean', description: 'true when the rule has no remediation of its own and this one was derived from its message or description' },
} as const

const ruleRemediation = {
  type: 'object',
  required: ['rule', 'severity', 'remediation', 'derived'],
  properties: {
    rule: { type: 'string' },
    severity,
    message: { type: 'string' },
    ...remediationText,
    template: { type: 'string', description: 'the catalog template of a rule compiled from an instruction' },
  },
} as const

const rulesetRemediations = {
  type: 'object',
  required: ['rulesetName', 'version', 'remediations'],
  properties: {
    rulesetName: { type: 'string' },
    version: { type: 'integer' },
    remediations: { type: 'array', items: ruleRemediation },
  },
} as const

const field = {
  type: 'object',
  required: ['path', 'requirement'],
  properties: {
    path: { type: 'string', description: 'the field in the evaluated document, e.g. spec.containers[0].securityContext.privileged' },
    actual: { description: 'the value found (left out when the field is missing)' },
    expected: { description: 'a compliant value, when the rule asks for one value' },
    requirement: { type: 'string', description: 'what the rule asks of the field, e.g. "must not be true"' },
  },
} as const

const failureRemediation = {
  type: 'object',
  required: ['ruleset', 'rule', 'status', 'severity', 'remediation', 'derived', 'currentStatus', 'fields'],
  properties: {
    ruleset: { type: 'string' },
    rule: { type: 'string' },
    status: { type: 'string', enum: ['fail', 'error'], description: 'as audited' },
    severity,
    message: { type: 'string' },
    autogen: { type: 'string', description: 'the controller kind whose pod template was judged' },
    ...remediationText,
    currentStatus: {
      type: 'string',
      enum: ['fail', 'error', 'pass', 'skip', 'unknown'],
      description: 'how the current rule judges the audited document; unknown when the rule or ruleset is gone',
    },
    fields: { type: 'array', items: field, description: 'the fields to change; empty when the rule reveals none' },
  },
} as const

const auditRemediations = {
  type: 'object',
  required: ['requestId', 'policies', 'rulesets', 'remediations'],
  properties: {
    requestId: { type: 'string' },
    policies: {
      type: 'array',
      items: { type: 'object', properties: { policy: { type: 'string' }, passed: { type: 'boolean' }, auditedAt: { type: 'string', format: 'date-time' } } },
    },
    rulesets: {
      type: 'array',
      items: {
        type: 'object',
        required: ['ruleset', 'passed', 'auditedAt', 'state'],
        properties: {
          ruleset: { type: 'string' },
          passed: { type: 'boolean' },
          auditedAt: { type: 'string', format: 'date-time' },
          state: {
            type: 'string',
            enum: ['unchanged', 'changed', 'deleted'],
            description: 'whether the ruleset was updated or deleted since the audit; fields always come from the current definition',
          },
          version: { type: 'integer', description: 'the current version, when the ruleset exists' },
          updatedAt: { type: 'string', format: 'date-time' },
        },
      },
    },
    remediations: { type: 'array', items: failureRemediation },
  },
} as const

const requestIdParam = { type: 'object', required: ['request_id'], properties: { request_id: { type: 'string', minLength: 1, maxLength: 200 } } } as const

/** Remediation guidance per rule of a ruleset, and per failure of an audited evaluation. */
export function remediationRoutes(remediations: RemediationService): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Params: { name: string } }>(
      '/api/remediations/rulesets/:name',
      {
        config: { scope: 'any' },
        schema: {
          summary: "Each rule's remediation (derived from its messages when it has none)",
          params: nameParams('name', 'ruleset'),
          response: { 200: rulesetRemediations, ...errors },
        },
      },
      async (request) => remediations.forRuleset(request.params.name),
    )

    app.get<{ Params: { request_id: string } }>(
      '/api/remediations/audits/:request_id',
      {
        config: { scope: 'audits:read' },
        schema: {
          summary: 'What to change for each failure of an audited evaluation, with the fields the current rules check',
          params: requestIdParam,
          response: { 200: auditRemediations, ...errors },
        },
      },
      async (request) => remediations.forAudit(request.params.request_id),
    )
  }
}

/** The routes on the service's store and catalog: what the server composes. */
export function remediationRoutesOn(db: Db, catalog: DefinitionCatalog): FastifyPluginAsync {
  return remediationRoutes(new RemediationService(db, catalog))
}
