import Type, { type Static } from 'typebox'
import { LabelSelectorSchema } from './label-selector.js'
import { MatchSchema } from './match.js'
import { LabelsSchema, NameSchema } from './ruleset.js'
import { SwitchFields } from './switched-off.js'

export const PolicyActionSchema = Type.Union([Type.Literal('Deny'), Type.Literal('Warn'), Type.Literal('Audit')])
export const FailurePolicySchema = Type.Union([Type.Literal('Fail'), Type.Literal('Ignore')])

export const PolicySpecSchema = Type.Object(
  {
    description: Type.Optional(Type.String()),
    labels: Type.Optional(LabelsSchema),
    rulesets: Type.Optional(Type.Array(NameSchema)),
    rulesetSelector: Type.Optional(LabelSelectorSchema),
    match: Type.Optional(MatchSchema),
    action: Type.Optional(PolicyActionSchema),
    admission: Type.Optional(Type.Boolean()),
    /** Whether background scans judge the objects already in the cluster (default true); admission is unaffected. */
    background: Type.Optional(Type.Boolean()),
    failurePolicy: Type.Optional(FailurePolicySchema),
    /**
     * Whether the controller keeps the policy as ValidatingAdmissionPolicies in the cluster, which
     * the API server judges itself (docs/generated-vaps.md); a Verdict extension, default false.
     */
    generateValidatingAdmissionPolicy: Type.Optional(
      Type.Boolean({ description: 'true: the controller keeps this policy in the cluster as ValidatingAdmissionPolicies and their bindings, which the API server judges instead of the webhook (default false)' }),
    ),
    ...SwitchFields,
  },
  { additionalProperties: false },
)

export type PolicyAction = Static<typeof PolicyActionSchema>
export type FailurePolicy = Static<typeof FailurePolicySchema>
export type PolicySpec = Static<typeof PolicySpecSchema>

export interface Policy extends PolicySpec {
  name: string
  version?: number
}

/** Whether the webhook applies the policy: switched on, and `admission` not false. */
export function judgesAtAdmission(policy: Pick<PolicySpec, 'admission' | 'enabled'>): boolean {
  return policy.enabled !== false && policy.admission !== false
}

/** Whether background scans apply the policy: switched on, and `background` not false. */
export function judgesInBackground(policy: Pick<PolicySpec, 'background' | 'enabled'>): boolean {
  return policy.enabled !== false && policy.background !== false
}
