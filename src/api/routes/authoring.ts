import type { FastifyPluginAsync } from 'fastify'
import type { AuthoringService, InstructionRequest } from '../../services/authoring-service.js'
import type { SampleRequest } from '../../authoring/samples/sample-request.js'
import { MAX_INSTRUCTION_LENGTH } from '../../authoring/instruction-length.js'
import { errorSchema, sentenceReadingSchema } from './common-schemas.js'

const labelsProperty = {
  type: 'object',
  maxProperties: 64,
  additionalProperties: { type: 'string', maxLength: 253 },
  description: 'platform and resource narrow the templates, as for ruleset creation',
} as const

/** Text work grows with the instruction: every route that reads one has the cap ruleset creation has. */
const cappedInstruction = { type: 'string', maxLength: MAX_INSTRUCTION_LENGTH } as const

const instructionBody = {
  type: 'object',
  required: ['instruction'],
  additionalProperties: false,
  properties: { instruction: { ...cappedInstruction, description: 'natural-language instruction, possibly partial' }, labels: labelsProperty },
} as const

/** /api/prompt reports a long instruction as a finding ("too-long") rather than refusing it. */
const promptBody = {
  ...instructionBody,
  properties: { ...instructionBody.properties, instruction: { type: 'string', maxLength: 10 * MAX_INSTRUCTION_LENGTH, description: 'natural-language instruction to check' } },
} as const

const sampleBody = {
  type: 'object',
  required: ['category', 'type'],
  additionalProperties: false,
  properties: {
    instruction: { ...cappedInstruction, description: 'rules the samples should follow and break' },
    category: { type: 'string', maxLength: 64, description: 'kubernetes, terraform or generic' },
    type: { type: 'string', maxLength: 253, description: 'a Kubernetes kind, a Terraform resource type, or anything for generic JSON' },
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
    sentences: { type: 'array', items: sentenceReadingSchema, description: 'how each sentence was read, as a ruleset created from the instruction would show it' },
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
      { config: { scope: 'any' }, schema: { summary: 'Validate an instruction before creating a ruleset from it', body: promptBody, response: { 200: promptSchema, ...errors } } },
      async (request) => authoring.checkPrompt(request.body),
    )
    app.post<{ Body: SampleRequest }>(
      '/api/samples',
      { config: { scope: 'any' }, schema: { summary: 'Sample documents, compliant and not with an instruction', body: sampleBody, response: { 200: samplesSchema, ...errors } } },
      async (request) => authoring.samples(request.body),
    )
  }
}
