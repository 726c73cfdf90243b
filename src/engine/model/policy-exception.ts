import Type, { type Static } from 'typebox'
import { MatchConditionSchema, MatchSchema } from './match.js'
import { LabelsSchema } from './ruleset.js'

/** A policy or ruleset name (a DNS subdomain name), or a glob over them (`*`, `?`). */
const NameOrGlobSchema = Type.String({ minLength: 1, maxLength: 253, pattern: '^[-a-z0-9.*?]+$', description: 'a name, or a glob such as pod-security-*' })

/** Rule names are free text within a ruleset; a glob over them. */
const RuleNameOrGlobSchema = Type.String({ minLength: 1, maxLength: 253, description: 'a rule name, or a glob such as run-as-*' })

/** One rule of one ruleset; either part may be a glob. */
export const ExceptionRuleSchema = Type.Object(
  {
    ruleset: NameOrGlobSchema,
    rule: RuleNameOrGlobSchema,
  },
  { additionalProperties: false },
)

/**
 * What an author writes: the body of a PolicyException (the `spec` of its manifest). Which
 * policies and rules it lets through (`policies` and/or `rules`, one at least: an exception never
 * covers everything by leaving both out), which resources (`match`, as for rules, plus CEL
 * `conditions` over `object` and `request`), why (`reason`, `ticket`, `owner`) and until when
 * (`expiresAt`).
 */
export const PolicyExceptionSpecSchema = Type.Object(
  {
    description: Type.Optional(Type.String({ maxLength: 4096 })),
    labels: Type.Optional(LabelsSchema),
    policies: Type.Optional(Type.Array(NameOrGlobSchema, { minItems: 1, maxItems: 100, description: 'the policies it lets through: names or globs' })),
    rules: Type.Optional(Type.Array(ExceptionRuleSchema, { minItems: 1, maxItems: 100, description: 'only these rules of those policies (or of any policy when policies is left out)' })),
    match: MatchSchema,
    conditions: Type.Optional(
      Type.Array(MatchConditionSchema, { minItems: 1, maxItems: 20, description: 'CEL over object and request; every one must be true for the exception to apply' }),
    ),
    reason: Type.String({ minLength: 1, maxLength: 4096 }),
    ticket: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'an issue id or URL' })),
    owner: Type.Optional(Type.String({ minLength: 1, maxLength: 253, description: 'who answers for it' })),
    expiresAt: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'RFC 3339 date-time; the exception stops applying at that instant' })),
  },
  { additionalProperties: false },
)

export type ExceptionRule = Static<typeof ExceptionRuleSchema>
export type PolicyExceptionSpec = Static<typeof PolicyExceptionSpecSchema>

/** An exception as the engine sees it: a name, a version, and the spec. */
export interface PolicyException extends PolicyExceptionSpec {
  name: string
  version?: number
}
