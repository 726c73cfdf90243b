import { PolicyExceptionSpecSchema, PolicySpecSchema, RulesetSpecSchema } from '../engine/index.js'
import { toStructuralSchema, type StructuralSchema } from './structural-schema.js'
import { GROUP, VERSION, type VerdictResource, POLICIES, POLICY_EXCEPTIONS, RULESETS } from './resources.js'

/** Kubernetes' conditions list, keyed by type; the kinds differ only in the types and reasons they write. */
function conditionsSchema(types: string, reasons: string): StructuralSchema {
  return {
    type: 'array',
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': ['type'],
    items: {
      type: 'object',
      required: ['type', 'status', 'reason', 'message', 'lastTransitionTime'],
      properties: {
        type: { type: 'string', description: types },
        status: { type: 'string', enum: ['True', 'False', 'Unknown'] },
        reason: { type: 'string', description: reasons },
        message: { type: 'string' },
        lastTransitionTime: { type: 'string', format: 'date-time' },
        observedGeneration: { type: 'integer', format: 'int64', minimum: 0 },
      },
    },
  }
}

const OBSERVED_GENERATION: StructuralSchema = { type: 'integer', format: 'int64', description: 'the metadata.generation the status describes' }

/** The status the controller writes for rulesets and policies. */
export const STATUS_SCHEMA: StructuralSchema = {
  type: 'object',
  description: 'written by the Verdict controller',
  properties: {
    observedGeneration: OBSERVED_GENERATION,
    rules: { type: 'integer', description: 'rules in the ruleset; for a policy, rules in the rulesets it applies' },
    conditions: conditionsSchema('Ready', 'Reconciled, Invalid, MissingRulesets or Conflict'),
  },
}

/** A policy's status: Ready, and ValidatingAdmissionPolicyGenerated when it asks for generated ValidatingAdmissionPolicies. */
export const POLICY_STATUS_SCHEMA: StructuralSchema = {
  ...STATUS_SCHEMA,
  properties: {
    ...STATUS_SCHEMA.properties,
    conditions: conditionsSchema(
      'Ready, or ValidatingAdmissionPolicyGenerated (with generateValidatingAdmissionPolicy)',
      'Ready: Reconciled, Invalid, MissingRulesets or Conflict; ValidatingAdmissionPolicyGenerated: Generated, NotGeneratable, Pending, Failed, Conflict or Disabled',
    ),
  },
}

/** The status of a PolicyException: Ready as for the other kinds, and Expired from its expiresAt on. */
export const EXCEPTION_STATUS_SCHEMA: StructuralSchema = {
  type: 'object',
  description: 'written by the Verdict controller',
  properties: {
    observedGeneration: OBSERVED_GENERATION,
    conditions: conditionsSchema('Ready or Expired', 'Ready: Reconciled, Invalid or Conflict; Expired: Expired or Active'),
  },
}

interface PrinterColumn {
  name: string
  type: 'string' | 'integer' | 'date'
  jsonPath: string
  description?: string
  priority?: number
}

const READY = '.status.conditions[?(@.type=="Ready")]'

function columns(extra: PrinterColumn[]): PrinterColumn[] {
  return [
    ...extra,
    { name: 'Rules', type: 'integer', jsonPath: '.status.rules' },
    { name: 'Ready', type: 'string', jsonPath: `${READY}.status` },
    { name: 'Reason', type: 'string', jsonPath: `${READY}.reason`, priority: 1 },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  ]
}

/** The whole object schema: Kubernetes' own fields, the model's spec, and the status. */
function objectSchema(kind: string, spec: StructuralSchema, status: StructuralSchema): StructuralSchema {
  return {
    type: 'object',
    description: `A Verdict ${kind}; the spec is the same document the REST API and the CLI accept.`,
    required: ['spec'],
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { type: 'object' },
      spec,
      status,
    },
  }
}

export type CustomResourceDefinition = ReturnType<typeof customResourceDefinition>

function customResourceDefinition(resource: VerdictResource, spec: StructuralSchema, printer: PrinterColumn[], status: StructuralSchema = STATUS_SCHEMA) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${resource.plural}.${GROUP}`, labels: { 'app.kubernetes.io/name': 'verdict', 'app.kubernetes.io/part-of': 'verdict' } },
    spec: {
      group: GROUP,
      names: { kind: resource.kind, listKind: `${resource.kind}List`, plural: resource.plural, singular: resource.singular, categories: ['verdict'] },
      scope: 'Cluster',
      versions: [
        {
          name: VERSION,
          served: true,
          storage: true,
          subresources: { status: {} },
          additionalPrinterColumns: printer,
          schema: { openAPIV3Schema: objectSchema(resource.kind, spec, status) },
        },
      ],
    },
  }
}

/** `rulesets.verdict.dev`, its spec schema generated from RulesetSpecSchema. */
export function rulesetCrd(): CustomResourceDefinition {
  return customResourceDefinition(RULESETS, toStructuralSchema(RulesetSpecSchema as unknown as Record<string, unknown>, 'spec'), columns([]))
}

/** `policies.verdict.dev`, its spec schema generated from PolicySpecSchema. */
export function policyCrd(): CustomResourceDefinition {
  return customResourceDefinition(
    POLICIES,
    toStructuralSchema(PolicySpecSchema as unknown as Record<string, unknown>, 'spec'),
    [
      ...columns([{ name: 'Action', type: 'string', jsonPath: '.spec.action', description: 'Deny, Warn or Audit (Audit when unset)' }]),
      {
        name: 'VAPs',
        type: 'string',
        jsonPath: '.status.conditions[?(@.type=="ValidatingAdmissionPolicyGenerated")].reason',
        description: 'with generateValidatingAdmissionPolicy: whether its ValidatingAdmissionPolicies are in force',
        priority: 1,
      },
    ],
    POLICY_STATUS_SCHEMA,
  )
}

/** `policyexceptions.verdict.dev`, its spec schema generated from PolicyExceptionSpecSchema. */
export function policyExceptionCrd(): CustomResourceDefinition {
  return customResourceDefinition(
    POLICY_EXCEPTIONS,
    toStructuralSchema(PolicyExceptionSpecSchema as unknown as Record<string, unknown>, 'spec'),
    [
      { name: 'Expires', type: 'string', jsonPath: '.spec.expiresAt', description: 'when it stops applying (never when unset)' },
      { name: 'Ready', type: 'string', jsonPath: `${READY}.status` },
      { name: 'Expired', type: 'string', jsonPath: '.status.conditions[?(@.type=="Expired")].status' },
      { name: 'Reason', type: 'string', jsonPath: `${READY}.reason`, priority: 1 },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    ],
    EXCEPTION_STATUS_SCHEMA,
  )
}
