import Type, { type Static } from 'typebox'
import { ConditionsSchema, ContextEntrySchema, DenySchema, ForEachSchema } from './classic-validation.js'
import { MatchSchema } from './match.js'
import { PodSecuritySchema } from './pod-security.js'
import { SwitchFields } from './switched-off.js'

export const SeveritySchema = Type.Union([
  Type.Literal('info'),
  Type.Literal('low'),
  Type.Literal('medium'),
  Type.Literal('high'),
  Type.Literal('critical'),
])

export const CelValidationSchema = Type.Object(
  {
    expression: Type.String({ minLength: 1 }),
    message: Type.Optional(Type.String()),
    messageExpression: Type.Optional(Type.String({ minLength: 1 })),
  },
  { additionalProperties: false },
)

export const VariableSchema = Type.Object(
  {
    name: Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$' }),
    expression: Type.String({ minLength: 1 }),
  },
  { additionalProperties: false },
)

/** A Kyverno-compatible structural pattern: any JSON value. */
export const PatternSchema = Type.Unknown()

export const ValidateSchema = Type.Object(
  {
    cel: Type.Optional(Type.Array(CelValidationSchema, { minItems: 1 })),
    pattern: Type.Optional(PatternSchema),
    anyPattern: Type.Optional(Type.Array(PatternSchema, { minItems: 1 })),
    deny: Type.Optional(DenySchema),
    foreach: Type.Optional(Type.Array(ForEachSchema, { minItems: 1 })),
    /** Kyverno's Pod Security Standards rule, judged as the CEL checks engine/pod-security/kyverno makes of it. */
    podSecurity: Type.Optional(PodSecuritySchema),
  },
  { additionalProperties: false, description: 'exactly one of cel, pattern, anyPattern, deny, foreach, podSecurity' },
)

export const AutogenSchema = Type.Union([
  Type.Boolean(),
  Type.Object(
    { controllers: Type.Array(Type.String({ minLength: 1 })) },
    { additionalProperties: false, description: 'the pod controllers whose templates are checked' },
  ),
])

/** Where a rule made from an instruction came from: the catalog template and the parameters read from the text. */
export const RuleTemplateRefSchema = Type.Object(
  {
    id: Type.String({ minLength: 1 }),
    parameters: Type.Record(Type.String(), Type.Unknown()),
  },
  { additionalProperties: false },
)

export const RuleSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 253 }),
    description: Type.Optional(Type.String()),
    severity: Type.Optional(SeveritySchema),
    match: Type.Optional(MatchSchema),
    autogen: Type.Optional(AutogenSchema),
    variables: Type.Optional(Type.Array(VariableSchema)),
    /** Kyverno context entries: JMESPath variables (`{{ name }}`), read by preconditions, deny, foreach, patterns and the message. */
    context: Type.Optional(Type.Array(ContextEntrySchema)),
    /** Kyverno preconditions (JMESPath): when they do not hold the rule is skipped. */
    preconditions: Type.Optional(ConditionsSchema),
    validate: ValidateSchema,
    message: Type.Optional(Type.String()),
    remediation: Type.Optional(Type.String()),
    template: Type.Optional(RuleTemplateRefSchema),
    ...SwitchFields,
  },
  { additionalProperties: false },
)

export type RuleTemplateRef = Static<typeof RuleTemplateRefSchema>
export type Severity = Static<typeof SeveritySchema>
export type CelValidation = Static<typeof CelValidationSchema>
export type Variable = Static<typeof VariableSchema>
export type Validate = Static<typeof ValidateSchema>
export type Autogen = Static<typeof AutogenSchema>
export type Rule = Static<typeof RuleSchema>
