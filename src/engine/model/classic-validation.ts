import Type, { type Static } from 'typebox'

/**
 * Kyverno's classic validation parts, native in Verdict's rule model so that a rule imported from
 * a ClusterPolicy, or written by hand, keeps Kyverno's semantics (src/engine/classic). Strings in
 * them may hold `{{ }}` JMESPath variables over Kyverno's request context (`request.object`,
 * `request.operation`, `element`, context entries, ...).
 *
 * Conditions are checked when a ruleset compiles (check-conditions.ts names each wrong field), not
 * by this schema: their key and value are any JSON, and a block is either a list or `{any, all}`.
 */
export const ConditionsSchema = Type.Unknown({
  description: 'Kyverno conditions: {any: [...], all: [...]} or a list, each {key, operator, value, message?}',
})

export const ContextVariableSchema = Type.Object(
  {
    value: Type.Optional(Type.Unknown()),
    jmesPath: Type.Optional(Type.String()),
    default: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
)

export const ContextConfigMapSchema = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    namespace: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
)

/**
 * A value a rule reads as a variable: computed (`variable`), or read from a ConfigMap of the
 * cluster. `apiCall`, `imageRegistry` and `globalReference` are accepted so that imported rules
 * keep them, but evaluating one is an error naming the entry unless the caller supplied its value.
 */
export const ContextEntrySchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 253 }),
    variable: Type.Optional(ContextVariableSchema),
    configMap: Type.Optional(ContextConfigMapSchema),
    apiCall: Type.Optional(Type.Unknown()),
    imageRegistry: Type.Optional(Type.Unknown()),
    globalReference: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
)

export const DenySchema = Type.Object(
  { conditions: Type.Optional(ConditionsSchema) },
  { additionalProperties: false, description: 'the rule fails when the conditions hold (always, without conditions)' },
)

/**
 * One loop of `validate.foreach`: `list` is a JMESPath expression; each element is judged by
 * exactly one of pattern, anyPattern, deny or a nested foreach (checked when the ruleset
 * compiles, as nested loops are: a structural CRD schema cannot be recursive).
 */
export const ForEachSchema = Type.Object(
  {
    list: Type.String({ minLength: 1 }),
    context: Type.Optional(Type.Array(ContextEntrySchema)),
    preconditions: Type.Optional(ConditionsSchema),
    elementScope: Type.Optional(Type.Boolean()),
    pattern: Type.Optional(Type.Unknown()),
    anyPattern: Type.Optional(Type.Array(Type.Unknown(), { minItems: 1 })),
    deny: Type.Optional(DenySchema),
    foreach: Type.Optional(Type.Array(Type.Unknown(), { minItems: 1, description: 'nested loops, each shaped as this one' })),
  },
  { additionalProperties: false },
)

export type ContextEntry = Static<typeof ContextEntrySchema>
export type Deny = Static<typeof DenySchema>
export type ForEach = Static<typeof ForEachSchema>
