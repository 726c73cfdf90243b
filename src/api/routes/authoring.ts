import type { FastifyPluginAsync } from 'fastify'
import type { AuthoringService, InstructionRequest } from '../../services/authoring-service.js'
import type { SampleRequest } from '../../authoring/samples/sample-request.js'
import { errorSchema } from './common-schemas.js'

const labelsProperty = { type: 'object', additionalProperties: { type: 'string' }, description: 'platform and resource narrow the templates, as for ruleset creation' } as const

const instructionBody = {
  type: 'object',
  required: ['instruction'],
  additionalProperties: false,
  properties: { instruction: { type: 'string', description: 'natural-language instruction, possibly partial' }, labels: labelsProperty },
} as const

const sampleBody = {
  type: 'object',
  required: ['category', 'type'],
  additionalProperties: false,
  properties: {
    instruction: { type: 'string', description: 'rules the samples should follow and break' },
    category: { type: 'string', description: 'kubernetes, terraform or generic' },
    type: { type: 'string', description: 'a Kubernetes kind, a Terraform resource type, or anything for generic JSON' },
  },
} as const

const clauseSchema = { type: 'object', additionalProperties: true, properties: { text: { type: 'string' }, status: { type: 'string' }, template: { type: 'string' } } } as const
const templateHintSchema = { type: 'object', additionalProperties: true, properties: { id: { type: 'string' }, title: { type: 'string' }, examples: { type: 'array', items: { type: 'string' } } } } as const

const rulesetHintsSchema = {
  type: 'object',
  required: ['instruction', 'clauses', 'templates', 'suggestedLabels'],
  properties: {
    instruction: { type: 'string' },
    clauses: { type: 'array', items: clauseSchema },
    templates: { type: 'array', items: templateHintSchema },
    suggestedLabels: { type: 'object', additionalProperties: { type: 'string' } },
  },
} as const

const policyHintsSchema = {
  type: 'object',
  required: ['instruction', 'action', 'actionReason', 'rulesets', 'match', 'templates', 'suggestedLabels'],
  properties: {
    instruction: { type: 'string' },
    action: { type: 'string', enum: ['Deny', 'Warn', 'Audit'] },
    actionReason: { type: 'string' },
    rulesets: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, reason: { type: 'string' } } } },
    match: { type: 'object', additionalProperties: true },
    templates: { type: 'array', items: templateHintSchema },
    suggestedLabels: { type: 'object', additionalProperties: { type: 'string' } },
  },
} as const

const promptSchema = {
  type: 'object',
  required: ['valid', 'issues', 'clauses'],
  properties: {
    valid: { type: 'boolean' },
    issues: { type: 'array', items: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' }, clause: { type: 'string' } } } },
    clauses: { type: 'array', items: clauseSchema },
    sentences: {
      type: 'array',
      items: { type: 'object', properties: { text: { type: 'string' }, role: { type: 'string' }, became: { type: 'string' }, rules: { type: 'array', items: { type: 'string' } } } },
    },
  },
} as const

const samplesSchema = {
  type: 'object',
  required: ['category', 'type', 'samples', 'unverified'],
  properties: {
    category: { type: 'string' },
    type: { type: 'string' },
    instruction: { type: 'string' },
    ruleset: { type: 'object', additionalProperties: true },
    samples: {
      type: 'array',
      items: {
        type: 'object',
        required: ['label', 'kind', 'description', 'document'],
        properties: {
          label: { type: 'string', enum: ['valid', 'compliant', 'non-compliant'] },
          kind: { type: 'string' },
          description: { type: 'string' },
          rule: { type: 'string' },
          document: { type: 'object', additionalProperties: true },
          passed: { type: 'boolean' },
          failedRules: { type: 'array', items: { type: 'string' } },
        },
      },
    },
    unverified: { type: 'array', items: { type: 'string' } },
  },
} as const

const errors = { 400: errorSchema, 401: errorSchema, 413: errorSchema, 415: errorSchema, 429: errorSchema }

/** Hints, prompt validation and sample data: any valid token, nothing stored. */
export function authoringRoutes(authoring: AuthoringService): FastifyPluginAsync {
  return async (app) => {
    app.post<{ Body: InstructionRequest }>(
      '/api/hints/ruleset',
      { config: { scope: 'any' }, schema: { summary: 'Templates, missing parameters and labels for a ruleset instruction', body: instructionBody, response: { 200: rulesetHintsSchema, ...errors } } },
      async (request) => authoring.rulesetHints(request.body),
    )
    app.post<{ Body: InstructionRequest }>(
      '/api/hints/policy',
      { config: { scope: 'any' }, schema: { summary: 'Action, rulesets and match for a policy instruction', body: instructionBody, response: { 200: policyHintsSchema, ...errors } } },
      async (request) => authoring.policyHints(request.body),
    )
    app.post<{ Body: InstructionRequest }>(
      '/api/prompt',
      { config: { scope: 'any' }, schema: { summary: 'Validate an instruction before creating a ruleset from it', body: instructionBody, response: { 200: promptSchema, ...errors } } },
      async (request) => authoring.checkPrompt(request.body),
    )
    app.post<{ Body: SampleRequest }>(
      '/api/samples',
      { config: { scope: 'any' }, schema: { summary: 'Sample documents, compliant and not with an instruction', body: sampleBody, response: { 200: samplesSchema, ...errors } } },
      async (request) => authoring.samples(request.body),
    )
  }
}
