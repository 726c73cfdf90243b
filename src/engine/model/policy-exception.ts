import Type, { type Static } from 'typebox'
import { MatchConditionSchema, MatchSchema } from './match.js'
import { PodSecurityExcludeSchema } from './pod-security.js'
import { LabelsSchema } from './ruleset.js'

/** A policy or ruleset name (a DNS subdomain name), or a glob over them (`*`, `?`). */
const NameOrGlobSchema = Type.String({ minLength: 1, maxLength: 253, pattern: '^[-a-z0-9.*?]+$', description: 'a name, or a glob such as pod-security-*' })

/** Rule names are free text within a ruleset; a glob over them. */
const RuleNameOrGlobSchema = Type.String({ minLength: 1, maxLength: 253, description: 'a rule name, or a glob such as run-as-*' })

/**
 * Which results of a rule: judged on the object itself, or by autogen on the pod template of a
 * controller (Deployment, DaemonSet, StatefulSet, ReplicaSet, Job, ReplicationController) or of a
 * CronJob. Kyverno names the latter two `autogen-<rule>` and `autogen-cronjob-<rule>` and excepts
 * them apart; the importer keeps that distinction here.
 */
export const RuleResultFormSchema = Type.Union([Type.Literal('object'), Type.Literal('controllers'), Type.Literal('cronJobs')])

/** One rule of one ruleset; either part may be a glob. */
export const ExceptionRuleSchema = Type.Object(
  {
    ruleset: NameOrGlobSchema,
    rule: RuleNameOrGlobSchema,
    appliesTo: Type.Optional(
      Type.Array(RuleResultFormSchema, {
        minItems: 1,
        maxItems: 3,
        description: 'only these results of the rule: object (judged on the object itself), controllers or cronJobs (judged by autogen on their pod template); all when left out',
      }),
    ),
  },
  { additionalProperties: false },
)

/**
 * What an author writes: the body of a PolicyException (the `spec` of its manifest). Which
 * policies and rules it lets through (`policies` and/or `rules`, one at least: an exception never
 * covers everything by leaving both out), or only some Pod Security controls of podSecurity rules
 * (`podSecurity`), which resources (`match`, as for rules, plus CEL
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
    podSecurity: Type.Optional(
      Type.Array(PodSecurityExcludeSchema, {
        minItems: 1,
        maxItems: 100,
        description:
          'for the podSecurity rules it names: the Pod Security controls let through, as entries of the rule\'s podSecurity.exclude; the rule is judged with them added and is let through only when it then passes. Other rules it names are judged as if it were not there',
      }),
    ),
    matchPodTemplates: Type.Optional(
      Type.Boolean({
        description:
          'true (the default): a match naming Pods also takes the pod template of pod controllers, as autogen judges it; false: match and conditions are compared with the object itself only, as Kyverno compares its exceptions',
      }),
    ),
    reason: Type.String({ minLength: 1, maxLength: 4096 }),
    ticket: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'an issue id or URL' })),
    owner: Type.Optional(Type.String({ minLength: 1, maxLength: 253, description: 'who answers for it' })),
    expiresAt: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'RFC 3339 date-time; the exception stops applying at that instant' })),
  },
  { additionalProperties: false },
)

export type RuleResultForm = Static<typeof RuleResultFormSchema>
export type ExceptionRule = Static<typeof ExceptionRuleSchema>
export type PolicyExceptionSpec = Static<typeof PolicyExceptionSpecSchema>

/** An exception as the engine sees it: a name, a version, and the spec. */
export interface PolicyException extends PolicyExceptionSpec {
  name: string
  version?: number
}
