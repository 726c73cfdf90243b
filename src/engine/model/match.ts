import Type, { type Static } from 'typebox'
import { LabelSelectorSchema } from './label-selector.js'

/** A requester, as an RBAC subject names it; names are globs. */
export const SubjectSchema = Type.Object(
  {
    kind: Type.Union([Type.Literal('User'), Type.Literal('Group'), Type.Literal('ServiceAccount')]),
    name: Type.String({ minLength: 1 }),
    namespace: Type.Optional(Type.String({ description: 'ServiceAccount only' })),
  },
  { additionalProperties: false },
)

export const OperationSchema = Type.Union([
  Type.Literal('CREATE'),
  Type.Literal('UPDATE'),
  Type.Literal('DELETE'),
  Type.Literal('CONNECT'),
])

const resourceFilterProperties = {
  kinds: Type.Optional(
    Type.Array(Type.String({ minLength: 1 }), {
      description: 'Kind, group/Kind, group/version/Kind or * ; a Kind alone matches it in any group',
    }),
  ),
  names: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { description: 'globs over metadata.name' })),
  operations: Type.Optional(Type.Array(OperationSchema)),
  namespaces: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { description: 'globs' })),
  excludeNamespaces: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { description: 'globs' })),
  labelSelector: Type.Optional(LabelSelectorSchema),
  namespaceSelector: Type.Optional(LabelSelectorSchema),
  annotations: Type.Optional(
    Type.Record(Type.String(), Type.String(), { description: 'globs over keys and values; each entry must match one of the resource\'s annotations' }),
  ),
  subjects: Type.Optional(Type.Array(SubjectSchema, { minItems: 1, description: 'who sent the request; one must match' })),
}

/** One set of resource conditions; every part that is present must hold. */
export const ResourceFilterSchema = Type.Object(resourceFilterProperties, { additionalProperties: false })

const matchFilterProperties = {
  ...resourceFilterProperties,
  any: Type.Optional(Type.Array(ResourceFilterSchema, { minItems: 1, description: 'at least one must hold' })),
  all: Type.Optional(Type.Array(ResourceFilterSchema, { minItems: 1, description: 'every one must hold' })),
}

/** A resource filter that may also hold alternatives (`any`) and further conjunctions (`all`). */
export const MatchFilterSchema = Type.Object(matchFilterProperties, { additionalProperties: false })

export const MatchConditionSchema = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1 })),
    expression: Type.String({ minLength: 1, description: 'CEL; the rule is skipped when it is false' }),
  },
  { additionalProperties: false },
)

export const MatchSchema = Type.Object(
  {
    ...matchFilterProperties,
    exclude: Type.Optional(MatchFilterSchema),
    conditions: Type.Optional(Type.Array(MatchConditionSchema)),
  },
  { additionalProperties: false },
)

export type Operation = Static<typeof OperationSchema>
export type Subject = Static<typeof SubjectSchema>
export type ResourceFilter = Static<typeof ResourceFilterSchema>
export type MatchFilter = Static<typeof MatchFilterSchema>
export type MatchCondition = Static<typeof MatchConditionSchema>
export type Match = Static<typeof MatchSchema>
