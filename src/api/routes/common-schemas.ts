/** JSON Schemas shared by the route plugins (they also feed /api/openapi.json). */

export const NAME_PATTERN = '^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$'

export const errorSchema = {
  type: 'object',
  required: ['error', 'details'],
  properties: { error: { type: 'string' }, details: { type: 'string' } },
} as const

export function nameParams(field: string, what: string) {
  return {
    type: 'object',
    required: [field],
    properties: {
      [field]: { type: 'string', minLength: 1, maxLength: 253, pattern: NAME_PATTERN, description: `${what} name (Kubernetes object name rules)` },
    },
  } as const
}

/** The name parameter of the audit and timeseries routes: a name, `*` for all, or a glob. */
export function nameOrGlobParams(field: string) {
  return {
    type: 'object',
    required: [field],
    properties: { [field]: { type: 'string', minLength: 1, maxLength: 253, description: 'a name, * for all, or a glob such as prod-*' } },
  } as const
}

/** Shapes of a rule result as evaluations and audits carry them. */
export const ruleResultSchema = {
  type: 'object',
  required: ['ruleset', 'rule', 'status', 'severity'],
  properties: {
    ruleset: { type: 'string' },
    rule: { type: 'string' },
    status: { type: 'string', enum: ['fail', 'error', 'pass', 'skip'] },
    severity: { type: 'string', enum: ['info', 'low', 'medium', 'high', 'critical'] },
    message: { type: 'string' },
    remediation: { type: 'string' },
    autogen: { type: 'string', description: 'the controller kind whose pod template was judged' },
    path: { type: 'string', description: 'for a failed pattern rule, the field where the resource departs from the pattern, e.g. spec.containers[0].securityContext.privileged' },
    exception: { type: 'string', description: 'on a skip: the policy exception that let the rule through' },
    disabled: { type: 'boolean', enum: [true], description: 'on a skip: the rule is switched off (enabled: false) and was not judged' },
    disabledReason: { type: 'string', description: 'with disabled: why the rule is switched off' },
    judgedBy: { type: 'string', enum: ['ValidatingAdmissionPolicy'], description: 'on a skip in an admission audit: the API server judged the request by a ValidatingAdmissionPolicy generated from the rule, so the webhook did not' },
    validatingAdmissionPolicy: { type: 'string', description: 'with judgedBy: the name of that ValidatingAdmissionPolicy' },
  },
} as const

/** On a policy evaluation or audit: the policy is switched off and judged nothing. */
export const policyDisabledProperties = {
  disabled: { type: 'boolean', enum: [true], description: 'the policy is switched off (enabled: false): it judged nothing, and passed' },
  disabledReason: { type: 'string', description: 'with disabled: why the policy is switched off' },
} as const

/** The switch of a policy or a rule: `enabled: false` with a reason turns it off without deleting it. */
const switchProperties = {
  enabled: { type: 'boolean', description: 'false: switched off, judging nothing, without being deleted (default true)' },
  disabledReason: { type: 'string', description: 'why it is switched off; required with enabled: false' },
} as const

const stampProperties = {
  name: { type: 'string' },
  description: { type: 'string' },
  labels: { type: 'object', additionalProperties: { type: 'string' } },
  source: { type: 'string', enum: ['api', 'crd', 'instruction'] },
  version: { type: 'integer' },
  createdAt: { type: 'string', format: 'date-time' },
  createdBy: { type: 'string' },
  updatedAt: { type: 'string', format: 'date-time' },
  updatedBy: { type: 'string' },
} as const

export const rulesetSchema = {
  type: 'object',
  properties: {
    ...stampProperties,
    instruction: { type: 'string' },
    rules: { type: 'array', items: { type: 'object', additionalProperties: true } },
    interpretation: {
      type: 'object',
      description: 'made from an instruction: how each sentence was read (returned by create/replace, not stored)',
      properties: {
        sentences: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              text: { type: 'string' },
              role: { type: 'string', enum: ['requirement', 'modifier', 'restatement', 'rationale', 'heading', 'permission'] },
              became: { type: 'string' },
              rules: { type: 'array', items: { type: 'string' } },
            },
          },
        },
      },
    },
  },
} as const

export const policySchema = {
  type: 'object',
  properties: {
    ...stampProperties,
    rulesets: { type: 'array', items: { type: 'string' } },
    rulesetSelector: { type: 'object', additionalProperties: true },
    match: { type: 'object', additionalProperties: true },
    action: { type: 'string', enum: ['Deny', 'Warn', 'Audit'] },
    admission: { type: 'boolean' },
    background: { type: 'boolean' },
    failurePolicy: { type: 'string', enum: ['Fail', 'Ignore'] },
    generateValidatingAdmissionPolicy: { type: 'boolean' },
    ...switchProperties,
  },
} as const

export const labelQuery = {
  type: 'object',
  properties: {
    label: {
      anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
      description: 'key=value; repeat to require several labels',
    },
  },
} as const

export const dryRunQuery = {
  type: 'object',
  properties: { dryRun: { type: 'boolean', description: 'check and return the result without storing it' } },
} as const

/** The definition bodies are checked by the service (JSON and YAML alike), with field paths in errors. */
export const definitionBody = {
  type: 'object',
  description: 'plain form ({rules, labels, description} / {rulesets, action, ...}) or a verdict.dev/v1alpha1 manifest',
  additionalProperties: true,
} as const
