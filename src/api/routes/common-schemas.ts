/** JSON Schemas shared by the route plugins (they also feed /api/openapi.json). */
import { FIELD_GROUND_HOWS } from '../../authoring/understand/field-grounds.js'
import { VALUE_HOWS } from '../../authoring/understand/value-grounds.js'

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

/** A field a rule judges, with the words of the instruction that named it. */
const fieldGroundSchema = {
  type: 'object',
  required: ['field', 'how'],
  properties: {
    words: { type: 'string', description: 'the words of the instruction that named the field, exactly as written (quotes and backticks kept); absent when no words name it' },
    field: { type: 'string', description: 'the field, as a path: spec.containers[*].securityContext.runAsUser, metadata.labels.team' },
    how: {
      type: 'string',
      enum: FIELD_GROUND_HOWS,
      description:
        'how the words name the field: written as code (backticks), as a path or as a field name; a schema field name the words are (run as user); a name made from the words (documents without a schema); the enum value written, which only this field takes; named in an earlier sentence; implied by the sentence (no words of it name the field); for a label, annotation or tag key, how the key is written (quoted, code-formatted, written as a key, introduced as one ...)',
    },
  },
} as const

/** A value a rule compares with, with the words that gave it. */
const valueGroundSchema = {
  type: 'object',
  required: ['value', 'how'],
  properties: {
    words: { type: 'string', description: 'the words that gave the value, exactly as written, with the words that say which way a number bounds (at least 1000, 2Gi or less); absent when the reader derived it (true from "no privileged containers")' },
    value: { type: ['string', 'number', 'boolean'], description: 'the value the rule compares with, as the rule holds it (a duration in seconds, a format by its name)' },
    how: { type: 'string', enum: VALUE_HOWS, description: 'how it is written: a number (with its unit), true/false, a value of the field\'s enum, a quoted or code literal, a name, a format\'s name or a pattern; implied by the field for true/false a verb says of a true/false field' },
  },
} as const

const conditionGroundSchema = {
  type: 'object',
  required: ['field', 'values'],
  properties: {
    words: { type: 'string', description: 'the condition as written (except in the kube-system namespace)' },
    field: fieldGroundSchema,
    values: { type: 'array', items: valueGroundSchema },
  },
} as const

/** Per rule a sentence became: the words its field and values stand on, or the named requirement it is. */
const ruleGroundsSchema = {
  type: 'object',
  required: ['rule'],
  properties: {
    rule: { type: 'string', description: 'the rule, as named in rules' },
    fields: { type: 'array', items: fieldGroundSchema, description: 'the fields it judges' },
    values: { type: 'array', items: valueGroundSchema, description: 'the values it compares them with (none when it asks that a field be set or unset)' },
    comparedWith: { ...fieldGroundSchema, description: 'the other field a field is compared with (maxReplicas greater than minReplicas)' },
    conditions: { type: 'array', items: conditionGroundSchema, description: 'where it applies' },
    exemptions: { type: 'array', items: conditionGroundSchema, description: 'where it does not apply' },
    named: {
      type: 'object',
      required: ['id', 'title'],
      description: 'a rule of the catalog: the named requirement the sentence asked for',
      properties: {
        id: { type: 'string', description: 'the catalog template, as the rule records it in template.id' },
        title: { type: 'string' },
        parameters: {
          type: 'array',
          description: 'each parameter value the sentence wrote (a label key, a registry, a bound), with its words; values it did not write are left out',
          items: { ...valueGroundSchema, required: ['parameter', 'value', 'how'], properties: { parameter: { type: 'string' }, ...valueGroundSchema.properties } },
        },
      },
    },
  },
} as const

/** How one sentence of an instruction was read: the same shape in a ruleset's interpretation and in POST /api/prompt. */
export const sentenceReadingSchema = {
  type: 'object',
  required: ['text', 'role', 'became'],
  properties: {
    text: { type: 'string' },
    role: { type: 'string', enum: ['requirement', 'modifier', 'restatement', 'rationale', 'heading', 'permission'] },
    became: { type: 'string' },
    rules: { type: 'array', items: { type: 'string' } },
    grounds: {
      type: 'array',
      items: ruleGroundsSchema,
      description: 'per rule the sentence became, why: the words of the instruction that named its fields and gave its values (with how each is written), for its conditions and exemptions too; for a catalog rule, the named requirement',
    },
  },
} as const

export const rulesetSchema = {
  type: 'object',
  properties: {
    ...stampProperties,
    instruction: { type: 'string' },
    rules: { type: 'array', items: { type: 'object', additionalProperties: true } },
    interpretation: {
      type: 'object',
      description: 'made from an instruction: how each sentence was read, and per rule the words it stands on (returned by create/replace and ?dryRun=true, not stored)',
      properties: {
        sentences: { type: 'array', items: sentenceReadingSchema },
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
