import type { KubeConfig } from '@kubernetes/client-node'
import {
  API_VERSION,
  compileRuleset,
  loadDefinition,
  resolvePolicyRulesets,
  RulesetCompileError,
  type Definitions,
  type DefinitionProblem,
  type Policy,
  type Ruleset,
} from '../../engine/index.js'
import { GROUP, POLICIES, RULESETS, type DefinitionResource } from '../../k8s/resources.js'
import { ScanInputError } from '../scan-error.js'
import { isRecord, listResource, type Item } from './list-resource.js'

export interface ClusterDefinitions extends Definitions {
  /** Resources left out, each with why: the controller would not apply them either. */
  warnings: string[]
}

/**
 * The Verdict Rulesets and Policies of the cluster, as its controller applies them: each
 * resource's spec is the definition and its metadata.name the name, loaded and compiled by the
 * engine. A resource that does not load or compile, or a policy naming a ruleset that is not
 * there, is left out with a warning, since the controller keeps such a resource out of effect
 * too (the version it held before, if any, is not known from outside). A cluster that serves
 * neither resource has no Verdict CRDs, and the scan has nothing to judge by.
 */
export async function readClusterDefinitions(kubeConfig: KubeConfig, server: string): Promise<ClusterDefinitions> {
  const rulesetItems = await listResource(kubeConfig, server, RULESETS.path)
  const policyItems = await listResource(kubeConfig, server, POLICIES.path)
  const missing = [rulesetItems === undefined ? RULESETS : undefined, policyItems === undefined ? POLICIES : undefined].flatMap((resource) => (resource ? [`${resource.plural}.${GROUP}`] : []))
  if (missing.length > 0) {
    throw new ScanInputError(
      `the cluster at ${server} serves no ${missing.join(' and ')} (the Verdict CRDs are not installed): install Verdict there, or give --policies <files|dirs> to judge by local definitions`,
    )
  }
  const warnings: string[] = []
  const rulesets = loadAll(rulesetItems ?? [], RULESETS, warnings).flatMap((loaded) => (loaded.kind === 'Ruleset' && compiles(loaded.ruleset, warnings) ? [loaded.ruleset] : []))
  const policies: Policy[] = []
  for (const loaded of loadAll(policyItems ?? [], POLICIES, warnings)) {
    if (loaded.kind !== 'Policy') continue
    const { missing: absent } = resolvePolicyRulesets(loaded.policy, rulesets)
    if (absent.length > 0) {
      warnings.push(`Policy "${loaded.policy.name}" is not applied: it names rulesets the cluster does not hold as valid Rulesets: ${absent.join(', ')}`)
      continue
    }
    policies.push(loaded.policy)
  }
  return { rulesets, policies, warnings }
}

type Loaded = { kind: 'Ruleset'; ruleset: Ruleset } | { kind: 'Policy'; policy: Policy }

function loadAll(items: readonly Item[], resource: DefinitionResource, warnings: string[]): Loaded[] {
  const loaded: Loaded[] = []
  for (const item of items) {
    const metadata = isRecord(item.metadata) ? item.metadata : {}
    // A resource being deleted is already out of effect.
    if (metadata.deletionTimestamp) continue
    const name = String(metadata.name ?? '')
    const result = loadDefinition(manifestOf(resource, name, metadata, item.spec), { expect: resource.kind })
    if ('problems' in result) warnings.push(`${resource.kind} "${name}" is not applied: ${describeProblems(result.problems)}`)
    else loaded.push(result)
  }
  return loaded
}

/** The manifest as its author wrote it: server-side metadata (uid, managedFields, ...) left out, apiVersion and kind set since list items may lack them. */
function manifestOf(resource: DefinitionResource, name: string, metadata: Item, spec: unknown): Item {
  const labels = isRecord(metadata.labels) && Object.keys(metadata.labels).length > 0 ? metadata.labels : undefined
  return { apiVersion: API_VERSION, kind: resource.kind, metadata: labels ? { name, labels } : { name }, spec }
}

function compiles(ruleset: Ruleset, warnings: string[]): boolean {
  try {
    compileRuleset(ruleset)
    return true
  } catch (error) {
    if (!(error instanceof RulesetCompileError)) throw error
    warnings.push(`Ruleset "${ruleset.name}" is not applied: ${error.problems.map((problem) => `spec.${problem.path}: ${problem.message}`).join('; ')}`)
    return false
  }
}

function describeProblems(problems: readonly DefinitionProblem[]): string {
  return problems.map((problem) => (problem.path === '' ? problem.message : `${problem.path}: ${problem.message}`)).join('; ')
}
