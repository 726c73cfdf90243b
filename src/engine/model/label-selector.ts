import Type, { type Static } from 'typebox'

export const LabelSelectorRequirementSchema = Type.Object(
  {
    key: Type.String({ minLength: 1 }),
    operator: Type.Union([
      Type.Literal('In'),
      Type.Literal('NotIn'),
      Type.Literal('Exists'),
      Type.Literal('DoesNotExist'),
    ]),
    values: Type.Optional(Type.Array(Type.String())),
  },
  { additionalProperties: false },
)

/** Kubernetes metav1.LabelSelector: every matchLabels entry and every expression must hold. */
export const LabelSelectorSchema = Type.Object(
  {
    matchLabels: Type.Optional(Type.Record(Type.String(), Type.String())),
    matchExpressions: Type.Optional(Type.Array(LabelSelectorRequirementSchema)),
  },
  { additionalProperties: false },
)

export type LabelSelectorRequirement = Static<typeof LabelSelectorRequirementSchema>
export type LabelSelector = Static<typeof LabelSelectorSchema>
