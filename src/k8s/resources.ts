import type { KubernetesObject } from '@kubernetes/client-node'
import { API_VERSION } from '../engine/index.js'

/** The API group and version of Verdict's custom resources (`verdict.dev/v1alpha1`). */
export const GROUP = 'verdict.dev'
export const VERSION = 'v1alpha1'

/** One of Verdict's custom resources. */
export interface VerdictResource {
  readonly kind: 'Ruleset' | 'Policy' | 'PolicyException'
  /** What the store and the catalog call it. */
  readonly storeKind: 'ruleset' | 'policy' | 'exception'
  readonly plural: string
  readonly singular: string
  /** The collection's REST path, for list and watch. */
  readonly path: string
}

/** The definitions: Rulesets and Policies. */
export interface DefinitionResource extends VerdictResource {
  readonly kind: 'Ruleset' | 'Policy'
  readonly storeKind: 'ruleset' | 'policy'
}

export const RULESETS: DefinitionResource = {
  kind: 'Ruleset',
  storeKind: 'ruleset',
  plural: 'rulesets',
  singular: 'ruleset',
  path: `/apis/${GROUP}/${VERSION}/rulesets`,
}

export const POLICIES: DefinitionResource = {
  kind: 'Policy',
  storeKind: 'policy',
  plural: 'policies',
  singular: 'policy',
  path: `/apis/${GROUP}/${VERSION}/policies`,
}

export const POLICY_EXCEPTIONS: VerdictResource = {
  kind: 'PolicyException',
  storeKind: 'exception',
  plural: 'policyexceptions',
  singular: 'policyexception',
  path: `/apis/${GROUP}/${VERSION}/policyexceptions`,
}

// The manifests the model accepts and the CRDs must name the same group and version.
if (API_VERSION !== `${GROUP}/${VERSION}`) throw new Error(`the model's ${API_VERSION} differs from the CRDs' ${GROUP}/${VERSION}`)

/** A Ruleset or Policy as the API server returns it (raw JSON: the custom objects client does not type it). */
export interface DefinitionObject extends KubernetesObject {
  spec?: unknown
  status?: unknown
}
