import Type, { type Static } from 'typebox'
import { RuleSchema } from './rule.js'

export const NameSchema = Type.String({
  minLength: 1,
  maxLength: 253,
  pattern: '^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$',
  description: 'a DNS subdomain name, as Kubernetes object names are',
})

export const LabelsSchema = Type.Record(Type.String({ minLength: 1 }), Type.String())

export const RulesetSourceSchema = Type.Union([Type.Literal('api'), Type.Literal('crd'), Type.Literal('instruction')])

/** What an author writes: the body of a Ruleset (the `spec` of its manifest). */
export const RulesetSpecSchema = Type.Object(
  {
    description: Type.Optional(Type.String()),
    labels: Type.Optional(LabelsSchema),
    instruction: Type.Optional(Type.String()),
    rules: Type.Array(RuleSchema, { minItems: 1 }),
  },
  { additionalProperties: false },
)

export type RulesetSpec = Static<typeof RulesetSpecSchema>
export type RulesetSource = Static<typeof RulesetSourceSchema>

/** A ruleset as the engine sees it: a name, a version for the compile cache, and the spec. */
export interface Ruleset extends RulesetSpec {
  name: string
  version?: number
  source?: RulesetSource
}
