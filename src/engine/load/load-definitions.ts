import { checkPolicyManifestSchema, checkPolicySpec, checkRulesetManifestSchema, checkRulesetSpec } from '../model/check-definition.js'
import type { DefinitionProblem } from '../model/definition-problem.js'
import { API_VERSION, type PolicyManifest, type RulesetManifest } from '../model/manifest.js'
import type { Policy, PolicySpec } from '../model/policy.js'
import type { Ruleset, RulesetSpec } from '../model/ruleset.js'
import { LoadError, type LoadProblem } from './load-error.js'
import type { SourceDocument } from './parse-documents.js'

export interface Definitions {
  rulesets: Ruleset[]
  policies: Policy[]
}

export type DefinitionKind = 'Ruleset' | 'Policy'

/**
 * Turns parsed documents into rulesets and policies. Accepts the manifest form
 * (`apiVersion: verdict.dev/v1alpha1`, `kind: Ruleset|Policy`) and the plain form
 * (`name` plus the spec fields). Every problem of every document is collected before failing.
 */
export function loadDefinitions(documents: SourceDocument[]): Definitions {
  const definitions: Definitions = { rulesets: [], policies: [] }
  const problems: LoadProblem[] = []
  for (const document of documents) {
    const result = loadDefinition(document.value)
    if ('problems' in result) {
      problems.push(...result.problems.map((p) => ({ source: document.source, document: document.index, ...p })))
    } else if (result.kind === 'Ruleset') {
      definitions.rulesets.push(result.ruleset)
    } else {
      definitions.policies.push(result.policy)
    }
  }
  if (problems.length > 0) throw new LoadError(problems)
  return definitions
}

export type LoadedDefinition =
  | { kind: 'Ruleset'; ruleset: Ruleset }
  | { kind: 'Policy'; policy: Policy }
  | { problems: DefinitionProblem[] }

/** One document in either form; `name` is used when the plain form has none (a REST path gives it). */
export function loadDefinition(value: unknown, options: { name?: string; expect?: DefinitionKind } = {}): LoadedDefinition {
  if (!isRecord(value)) return { problems: [{ path: '', message: 'must be an object' }] }
  if ('apiVersion' in value || 'kind' in value) return loadManifest(value, options.expect)
  const kind = options.expect ?? plainKindOf(value)
  if (!kind) return { problems: [{ path: '', message: 'is neither a ruleset (needs rules) nor a policy (needs rulesets or rulesetSelector)' }] }
  const { name: plainName, ...spec } = value
  const name = typeof plainName === 'string' ? plainName : options.name
  if (name === undefined) return { problems: [{ path: 'name', message: 'is required' }] }
  if (plainName !== undefined && typeof plainName !== 'string') return { problems: [{ path: 'name', message: 'must be string' }] }
  return kind === 'Ruleset' ? rulesetFromSpec(name, spec, '') : policyFromSpec(name, spec, '')
}

function loadManifest(value: Record<string, unknown>, expect?: DefinitionKind): LoadedDefinition {
  if (value.apiVersion !== API_VERSION) {
    return { problems: [{ path: 'apiVersion', message: `must be ${API_VERSION} (got ${JSON.stringify(value.apiVersion)})` }] }
  }
  if (value.kind !== 'Ruleset' && value.kind !== 'Policy') {
    return { problems: [{ path: 'kind', message: `must be Ruleset or Policy (got ${JSON.stringify(value.kind)})` }] }
  }
  if (expect && value.kind !== expect) return { problems: [{ path: 'kind', message: `must be ${expect} here` }] }
  if (value.kind === 'Ruleset') {
    const problems = checkRulesetManifestSchema(value, '')
    if (problems.length > 0) return { problems }
    const manifest = value as unknown as RulesetManifest
    return rulesetFromSpec(manifest.metadata.name, withMetadataLabels(manifest.spec, manifest.metadata.labels), 'spec')
  }
  const problems = checkPolicyManifestSchema(value, '')
  if (problems.length > 0) return { problems }
  const manifest = value as unknown as PolicyManifest
  return policyFromSpec(manifest.metadata.name, withMetadataLabels(manifest.spec, manifest.metadata.labels), 'spec')
}

function rulesetFromSpec(name: string, spec: unknown, basePath: string): LoadedDefinition {
  const problems = checkRulesetSpec(spec, basePath)
  if (problems.length > 0) return { problems }
  return { kind: 'Ruleset', ruleset: { name, ...(spec as RulesetSpec) } }
}

function policyFromSpec(name: string, spec: unknown, basePath: string): LoadedDefinition {
  const problems = checkPolicySpec(spec, basePath)
  if (problems.length > 0) return { problems }
  return { kind: 'Policy', policy: { name, ...(spec as PolicySpec) } }
}

/** Labels may be written on the manifest's metadata (kubectl style) or in the spec; spec wins. */
function withMetadataLabels<T extends { labels?: Record<string, string> }>(spec: T, labels?: Record<string, string>): T {
  if (!labels || Object.keys(labels).length === 0) return spec
  return { ...spec, labels: { ...labels, ...spec.labels } }
}

function plainKindOf(value: Record<string, unknown>): DefinitionKind | undefined {
  if ('rules' in value) return 'Ruleset'
  if ('rulesets' in value || 'rulesetSelector' in value) return 'Policy'
  return undefined
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
