import {
  API_VERSION,
  compileProblemLocation,
  compileRuleset,
  loadDefinition,
  resolvePolicyRulesets,
  RulesetCompileError,
  type DefinitionProblem,
  type Ruleset,
} from '../engine/index.js'
import type { CrdDefinitions } from '../services/crd-definitions.js'
import type { DefinitionCatalog } from '../services/definition-catalog.js'
import { describeCodeUnit, unstorableTextPath } from '../store/storable-text.js'
import { sameStatus, statusFor, type ConditionVerdict, type DefinitionStatus, type Verdict } from './definition-status.js'
import { POLICIES, RULESETS, type DefinitionObject, type DefinitionResource } from './resources.js'

export interface ReconcilerDeps {
  store: CrdDefinitions
  catalog: DefinitionCatalog
  /** Writes `.status` of `object` through the status subresource. */
  writeStatus(resource: DefinitionResource, object: DefinitionObject, status: DefinitionStatus): Promise<void>
  now(): Date
  /** A stored policy's conditions besides Ready (its generated ValidatingAdmissionPolicies); none when absent. */
  policyConditions?(name: string): ConditionVerdict[]
}

export interface ReconcileResult {
  /** Why the resource cannot settle yet; the controller tries again when definitions change. */
  waiting?: string
  /** What happened in the store, when anything did. */
  stored?: 'created' | 'updated' | 'deleted'
  /** The verdict written to the status (undefined after a deletion). */
  verdict?: Verdict
  statusWritten?: boolean
}

/**
 * Brings the store and the resource's status in line with one Ruleset: absent (or being deleted)
 * means removed from the store; present means checked and compiled exactly as the REST API does,
 * then stored. A spec that fails leaves the version stored before in effect (an edit with a typo
 * must not switch a policy off) and says so in the status.
 */
export async function reconcileRuleset(name: string, object: DefinitionObject | undefined, deps: ReconcilerDeps): Promise<ReconcileResult> {
  if (!object || object.metadata?.deletionTimestamp) {
    const deleted = await deps.store.deleteRuleset(name)
    if (deleted.result === 'referenced') return { waiting: `the ruleset stays stored while policies name it: ${deleted.referencedBy.join(', ')}` }
    return deleted.result === 'deleted' ? { stored: 'deleted' } : {}
  }
  const rules = countRules(object.spec)
  const loaded = loadDefinition(manifestOf(RULESETS, name, object), { expect: 'Ruleset' })
  const unstorable = unstorableIn(object.spec)
  let outcome: { verdict: Verdict; stored?: 'created' | 'updated' }
  if (unstorable) {
    outcome = { verdict: invalid(unstorable, rules, deps.catalog.ruleset(name)?.source === 'crd') }
  } else if ('problems' in loaded) {
    outcome = { verdict: invalid(describe(loaded.problems), rules, deps.catalog.ruleset(name)?.source === 'crd') }
  } else if (loaded.kind === 'Ruleset') {
    outcome = await storeRuleset(loaded.ruleset, deps)
  } else {
    throw new Error('loadDefinition returned a policy for a Ruleset')
  }
  const statusWritten = await writeIfChanged(RULESETS, object, outcome.verdict, deps)
  return { ...outcome, statusWritten }
}

export async function reconcilePolicy(name: string, object: DefinitionObject | undefined, deps: ReconcilerDeps): Promise<ReconcileResult> {
  if (!object || object.metadata?.deletionTimestamp) {
    const deleted = await deps.store.deletePolicy(name)
    return deleted.result === 'deleted' ? { stored: 'deleted' } : {}
  }
  const loaded = loadDefinition(manifestOf(POLICIES, name, object), { expect: 'Policy' })
  const unstorable = unstorableIn(object.spec)
  if (unstorable || 'problems' in loaded) {
    const verdict = invalid(unstorable ?? describe('problems' in loaded ? loaded.problems : []), 0, deps.catalog.policy(name)?.source === 'crd')
    return { verdict, statusWritten: await writeIfChanged(POLICIES, object, verdict, deps, storedConditions(name, deps)) }
  }
  if (loaded.kind !== 'Policy') throw new Error('loadDefinition returned a ruleset for a Policy')
  const policy = loaded.policy
  const written = await deps.store.applyPolicy(policy)
  let verdict: Verdict
  let result: ReconcileResult = {}
  if (written.result === 'conflict') {
    verdict = conflict('policy', name, written.owner, 0)
  } else if (written.result === 'missing-rulesets') {
    const list = written.missing.map((missing) => `"${missing}"`).join(', ')
    const effect = written.stored ? 'the version stored before stays in effect' : 'the policy is stored once they exist'
    verdict = { ready: false, reason: 'MissingRulesets', message: `spec.rulesets: ${list} ${written.missing.length === 1 ? 'does' : 'do'} not exist; ${effect}`, rules: 0 }
    result = { waiting: `policy "${name}" waits for rulesets ${list}` }
  } else {
    const { found } = resolvePolicyRulesets(policy, deps.catalog.rulesets())
    const rules = found.reduce((sum, ruleset) => sum + ruleset.rules.length, 0)
    const names = found.map((ruleset) => ruleset.name).join(', ')
    verdict = {
      ready: true,
      reason: 'Reconciled',
      message: `stored as version ${written.stored.version}; applies ${found.length === 1 ? '1 ruleset' : `${found.length} rulesets`}${names ? ` (${names})` : ''}`,
      rules,
    }
  }
  const statusWritten = await writeIfChanged(POLICIES, object, verdict, deps, storedConditions(name, deps))
  if (written.result === 'created' || written.result === 'updated') result.stored = written.result
  return { ...result, verdict, statusWritten }
}

async function storeRuleset(ruleset: Ruleset, deps: ReconcilerDeps): Promise<{ verdict: Verdict; stored?: 'created' | 'updated' }> {
  const rules = ruleset.rules.length
  try {
    compileRuleset(ruleset)
  } catch (error) {
    if (!(error instanceof RulesetCompileError)) throw error
    const message = error.problems.map((problem) => `${compileProblemLocation(problem, 'spec.')}: ${problem.message}`).join('; ')
    return { verdict: invalid(message, rules, deps.catalog.ruleset(ruleset.name)?.source === 'crd') }
  }
  const written = await deps.store.applyRuleset(ruleset)
  if (written.result === 'conflict') return { verdict: conflict('ruleset', ruleset.name, written.owner, rules) }
  const verdict: Verdict = { ready: true, reason: 'Reconciled', message: `compiled and stored as version ${written.stored.version}`, rules }
  return written.result === 'unchanged' ? { verdict } : { verdict, stored: written.result }
}

/** A spec holding text the store cannot keep (U+0000, an unpaired surrogate) would fail its write on every retry: it is invalid. */
function unstorableIn(spec: unknown): string | undefined {
  const found = unstorableTextPath(spec, 'spec')
  return found ? `${found.path}: contains ${describeCodeUnit(found.codeUnit)}, which cannot be stored; remove it` : undefined
}

/** The conditions of the policy stored from this resource; none for one the REST API made (Conflict) or none stored. */
function storedConditions(name: string, deps: ReconcilerDeps): ConditionVerdict[] {
  return deps.catalog.policy(name)?.source === 'crd' ? (deps.policyConditions?.(name) ?? []) : []
}

async function writeIfChanged(resource: DefinitionResource, object: DefinitionObject, verdict: Verdict, deps: ReconcilerDeps, others: ConditionVerdict[] = []): Promise<boolean> {
  const status = statusFor(verdict, object.metadata?.generation, object.status, deps.now(), others)
  if (sameStatus(object.status, status)) return false
  await deps.writeStatus(resource, object, status)
  return true
}

function invalid(problems: string, rules: number, previousInEffect: boolean): Verdict {
  const effect = previousInEffect ? '; the version stored before stays in effect' : ''
  return { ready: false, reason: 'Invalid', message: `${problems}${effect}`, rules }
}

function conflict(kind: 'ruleset' | 'policy', name: string, owner: string, rules: number): Verdict {
  return {
    ready: false,
    reason: 'Conflict',
    message: `a ${kind} named "${name}" was made through the REST API (source ${owner}) and is left alone; delete it there or rename this resource`,
    rules,
  }
}

function describe(problems: DefinitionProblem[]): string {
  return problems.map((problem) => (problem.path === '' ? problem.message : `${problem.path}: ${problem.message}`)).join('; ')
}

/**
 * The manifest the loader checks: only the fields a user wrote. Server-side metadata (uid,
 * managedFields, ...) is left out, and apiVersion/kind are set because list items may lack them.
 */
function manifestOf(resource: DefinitionResource, name: string, object: DefinitionObject): Record<string, unknown> {
  const metadata: Record<string, unknown> = { name }
  const labels = object.metadata?.labels
  if (labels && Object.keys(labels).length > 0) metadata.labels = labels
  return { apiVersion: API_VERSION, kind: resource.kind, metadata, spec: object.spec }
}

function countRules(spec: unknown): number {
  const rules = (spec as { rules?: unknown } | undefined)?.rules
  return Array.isArray(rules) ? rules.length : 0
}
