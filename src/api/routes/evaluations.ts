import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import * as yaml from 'js-yaml'
import type { Evaluated, EvaluationRequest, EvaluationService } from '../../services/evaluation-service.js'
import { newRequestId } from '../request-id.js'
import { errorSchema, nameParams, policyDisabledProperties, ruleResultSchema } from './common-schemas.js'

interface EvalBody {
  inputData: Record<string, unknown>
}

interface EvalQuery {
  verbose?: boolean
}

const evalBody = {
  type: 'object',
  required: ['inputData'],
  properties: { inputData: { type: 'object', description: 'the resource to evaluate, as a JSON object', additionalProperties: true } },
} as const

const evalQuery = {
  type: 'object',
  properties: { verbose: { type: 'boolean', description: 'also list passed and skipped rules' } },
} as const

function resultSchema(kind: 'policy' | 'ruleset') {
  return {
    type: 'object',
    required: ['requestId', kind, 'passed', 'results'],
    properties: {
      requestId: { type: 'string' },
      [kind]: { type: 'string' },
      passed: { type: 'boolean' },
      results: { type: 'array', items: ruleResultSchema },
      ...(kind === 'policy' ? policyDisabledProperties : {}),
    },
  } as const
}

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 413: errorSchema, 415: errorSchema, 429: errorSchema, 503: errorSchema }

/**
 * The request as the evaluation service needs it: the audit keeps the document as it was sent.
 * The audits' requestId is the request id only when this server made it: a client's own
 * X-Request-Id may repeat, and an audit id must find exactly one evaluation.
 */
function evaluationRequest(request: FastifyRequest<{ Params: { name: string }; Body: EvalBody; Querystring: EvalQuery }>): EvaluationRequest {
  const inputFormat = request.bodyFormat === 'yaml' ? 'yaml' : 'json'
  const inputData = request.body.inputData
  const requestId = request.headers['x-request-id'] === undefined ? request.id : newRequestId()
  if (requestId !== request.id) request.log.info({ auditRequestId: requestId }, 'evaluation audited under its own request id')
  return {
    name: request.params.name,
    inputData,
    requestId,
    by: request.principal.owner,
    inputText: inputFormat === 'yaml' ? yaml.dump(inputData) : JSON.stringify(inputData),
    inputFormat,
    verbose: request.query.verbose === true,
  }
}

/**
 * `X-Audit-Status: committed` or `spooled`: the body is the spec's, and a client that must know
 * whether the audit is in the store yet (rather than on the server's disk, awaiting replay)
 * reads the header.
 */
export const AUDIT_STATUS_HEADER = 'x-audit-status'

function withAuditStatus<R>(reply: FastifyReply, evaluated: Evaluated<R>): R {
  reply.header(AUDIT_STATUS_HEADER, evaluated.audit)
  return evaluated.response
}

/** Evaluation of a document by a stored policy or ruleset, audited before the answer. */
export function evaluationRoutes(evaluations: EvaluationService): FastifyPluginAsync {
  return async (app) => {
    app.post<{ Params: { name: string }; Body: EvalBody; Querystring: EvalQuery }>(
      '/api/eval/policies/:name',
      {
        config: { scope: 'eval', acceptsYaml: true, freeTextBodyFields: ['inputData'] },
        schema: {
          summary: 'Evaluate a document against a policy',
          params: nameParams('name', 'policy'),
          querystring: evalQuery,
          body: evalBody,
          response: { 200: resultSchema('policy'), ...errors },
        },
      },
      async (request, reply) => withAuditStatus(reply, await evaluations.evaluatePolicy(evaluationRequest(request))),
    )

    app.post<{ Params: { name: string }; Body: EvalBody; Querystring: EvalQuery }>(
      '/api/eval/rulesets/:name',
      {
        config: { scope: 'eval', acceptsYaml: true, freeTextBodyFields: ['inputData'] },
        schema: {
          summary: 'Evaluate a document against a ruleset',
          params: nameParams('name', 'ruleset'),
          querystring: evalQuery,
          body: evalBody,
          response: { 200: resultSchema('ruleset'), ...errors },
        },
      },
      async (request, reply) => withAuditStatus(reply, await evaluations.evaluateRuleset(evaluationRequest(request))),
    )
  }
}
