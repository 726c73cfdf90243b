import Type, { type Static } from 'typebox'
import { PolicySpecSchema } from './policy.js'
import { PolicyExceptionSpecSchema } from './policy-exception.js'
import { LabelsSchema, NameSchema, RulesetSpecSchema } from './ruleset.js'

export const API_VERSION = 'verdict.dev/v1alpha1'

const MetadataSchema = Type.Object(
  {
    name: NameSchema,
    labels: Type.Optional(LabelsSchema),
    annotations: Type.Optional(Type.Record(Type.String(), Type.String())),
  },
  // Manifests coming back from a cluster carry uid, generation, managedFields and the like.
  { additionalProperties: true },
)

export const RulesetManifestSchema = Type.Object(
  {
    apiVersion: Type.Literal(API_VERSION),
    kind: Type.Literal('Ruleset'),
    metadata: MetadataSchema,
    spec: RulesetSpecSchema,
    status: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
)

export const PolicyManifestSchema = Type.Object(
  {
    apiVersion: Type.Literal(API_VERSION),
    kind: Type.Literal('Policy'),
    metadata: MetadataSchema,
    spec: PolicySpecSchema,
    status: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
)

export const PolicyExceptionManifestSchema = Type.Object(
  {
    apiVersion: Type.Literal(API_VERSION),
    kind: Type.Literal('PolicyException'),
    metadata: MetadataSchema,
    spec: PolicyExceptionSpecSchema,
    status: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
)

export type RulesetManifest = Static<typeof RulesetManifestSchema>
export type PolicyManifest = Static<typeof PolicyManifestSchema>
export type PolicyExceptionManifest = Static<typeof PolicyExceptionManifestSchema>
