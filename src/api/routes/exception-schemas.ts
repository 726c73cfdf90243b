/** JSON Schemas of the exception routes (they also feed /api/openapi.json); bodies are checked by the service. */

const stringList = { type: 'array', items: { type: 'string' } } as const

/** A stored exception as the API answers it, with its state at the time of the answer. */
export const exceptionSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    description: { type: 'string' },
    labels: { type: 'object', additionalProperties: { type: 'string' } },
    policies: { ...stringList, description: 'names or globs of the policies it lets through' },
    rules: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          ruleset: { type: 'string' },
          rule: { type: 'string' },
          appliesTo: { type: 'array', items: { type: 'string', enum: ['object', 'controllers', 'cronJobs'] }, description: 'only these results of the rule; all when absent' },
        },
      },
      description: 'only these rules (globs allowed)',
    },
    match: { type: 'object', additionalProperties: true },
    conditions: {
      type: 'array',
      items: { type: 'object', properties: { name: { type: 'string' }, expression: { type: 'string' } } },
      description: 'CEL over object and request; all must be true',
    },
    podSecurity: {
      type: 'array',
      items: {
        type: 'object',
        properties: { controlName: { type: 'string' }, images: stringList, restrictedField: { type: 'string' }, values: stringList },
      },
      description: 'only these Pod Security controls of the podSecurity rules it names, as entries of their exclude; nothing of other rules',
    },
    matchPodTemplates: { type: 'boolean', description: 'false: match and conditions compare the object itself only, never a pod template' },
    reason: { type: 'string' },
    ticket: { type: 'string' },
    owner: { type: 'string' },
    expiresAt: { type: 'string', format: 'date-time' },
    state: { type: 'string', enum: ['active', 'expired'], description: 'at the time of the answer: expired from expiresAt on' },
    source: { type: 'string', enum: ['api', 'crd'] },
    version: { type: 'integer' },
    createdAt: { type: 'string', format: 'date-time' },
    createdBy: { type: 'string' },
    updatedAt: { type: 'string', format: 'date-time' },
    updatedBy: { type: 'string' },
  },
} as const

export const exceptionBody = {
  type: 'object',
  description:
    'plain form ({policies, rules, match, conditions, podSecurity, reason, ticket, owner, expiresAt}), a verdict.dev/v1alpha1 PolicyException manifest, or a Kyverno PolicyException (kyverno.io/v2, v2beta1, policies.kyverno.io) with a verdict.dev/reason annotation',
  additionalProperties: true,
} as const

export const exceptionListQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    policy: { type: 'string', minLength: 1, maxLength: 253, description: 'only exceptions that can let rules of this policy through' },
    ruleset: { type: 'string', minLength: 1, maxLength: 253, description: 'only exceptions whose rules name this ruleset' },
    state: { type: 'string', enum: ['active', 'expired'] },
  },
} as const
