import * as yaml from 'js-yaml'
import {
  explainRule,
  PreparedInput,
  type CompiledRuleset,
  type FieldFinding,
  type PolicyResult,
  type RuleResult,
  type RuleStatus,
  type Ruleset,
  type RulesetResult,
  type Severity,
} from '../engine/index.js'
import { deriveRemediation } from './derive-remediation.js'
import { remediationOf, type RuleRemediation } from './rule-remediation.js'

/** The parts of a ruleset audit record this reads (the store's records have them). */
export interface AuditedRulesetEvaluation {
  rulesetName: string
  input: string
  inputFormat: string
  output: RulesetResult
  updatedAt: string
}

export interface AuditedPolicyEvaluation {
  policyName: string
  output: PolicyResult
  updatedAt: string
}

/** A ruleset as it is now, with what tells whether it changed since an audit. */
export type CurrentRuleset = Ruleset & { version: number; updatedAt: string }

/** Where the current definitions come from (the definition catalog). */
export interface CurrentRulesets<R extends CurrentRuleset> {
  ruleset(name: string): R | undefined
  compiled(ruleset: R): CompiledRuleset
}

/**
 * unchanged: the ruleset is as it was when the audit was written; changed: it was updated since
 * (the fields come from the current definition, which may judge differently); deleted: it no
 * longer exists (the remediation comes from the audit, and no fields are known).
 */
export type RulesetState = 'unchanged' | 'changed' | 'deleted'

export interface AuditedRuleset {
  ruleset: string
  passed: boolean
  auditedAt: string
  state: RulesetState
  /** The current version and update time, when the ruleset still exists. */
  version?: number
  updatedAt?: string
}

export interface FailureRemediation {
  ruleset: string
  rule: string
  /** As audited. */
  status: 'fail' | 'error'
  severity: Severity
  message?: string
  autogen?: string
  remediation: string
  derived: boolean
  /** How the current definition judges the audited document; unknown when the rule or ruleset is gone or the input unreadable. */
  currentStatus: RuleStatus | 'unknown'
  /** The fields to change, found by judging the audited document with the current rule; empty when none are known. */
  fields: FieldFinding[]
}

export interface AuditRemediations {
  requestId: string
  policies: { policy: string; passed: boolean; auditedAt: string }[]
  rulesets: AuditedRuleset[]
  remediations: FailureRemediation[]
}

/**
 * What to change for each failure of one evaluation request: the failures as audited, each with
 * its rule's remediation and the fields found by judging the stored document again with the
 * current rule. Admission reviews stored only the object, so the document is judged as a CREATE
 * without the review's request context, as the REST evaluation does.
 */
export function auditRemediations<R extends CurrentRuleset>(
  requestId: string,
  audits: { policyAudits: readonly AuditedPolicyEvaluation[]; rulesetAudits: readonly AuditedRulesetEvaluation[] },
  current: CurrentRulesets<R>,
): AuditRemediations {
  const inputs = new InputCache()
  const rulesets: AuditedRuleset[] = []
  const remediations: FailureRemediation[] = []
  const seen = new Set<string>()
  // One admission review judged by several policies audits a shared ruleset once per policy.
  for (const audit of firstPerRuleset(audits.rulesetAudits)) {
    const definition = current.ruleset(audit.rulesetName)
    rulesets.push(rulesetState(audit, definition))
    const compiled = definition ? current.compiled(definition) : undefined
    for (const result of audit.output.results) {
      if (!isFailure(result) || !firstTime(seen, result)) continue
      const rule = definition?.rules.find((candidate) => candidate.name === result.rule)
      const compiledRule = compiled?.rules.find((candidate) => candidate.name === result.rule)
      const input = compiledRule ? inputs.prepared(audit.input, audit.inputFormat) : undefined
      const explanation = compiledRule && input ? explainRule(compiledRule, input) : undefined
      remediations.push({
        ...failureOf(result),
        ...(rule ? remediationOf(rule) : storedRemediation(result)),
        currentStatus: explanation?.status ?? 'unknown',
        fields: explanation?.fields ?? [],
      })
    }
  }
  // Failures a policy recorded without a ruleset audit: a ruleset it names that did not exist.
  for (const audit of audits.policyAudits) {
    for (const result of audit.output.results) {
      if (!isFailure(result) || !firstTime(seen, result)) continue
      remediations.push({ ...failureOf(result), ...policyLevelRemediation(result, audit.policyName), currentStatus: 'unknown', fields: [] })
    }
  }
  return {
    requestId,
    policies: audits.policyAudits.map((audit) => ({ policy: audit.policyName, passed: audit.output.passed, auditedAt: audit.updatedAt })),
    rulesets,
    remediations,
  }
}

function firstPerRuleset(audits: readonly AuditedRulesetEvaluation[]): AuditedRulesetEvaluation[] {
  const byName = new Map<string, AuditedRulesetEvaluation>()
  for (const audit of audits) if (!byName.has(audit.rulesetName)) byName.set(audit.rulesetName, audit)
  return [...byName.values()]
}

function rulesetState(audit: AuditedRulesetEvaluation, definition: CurrentRuleset | undefined): AuditedRuleset {
  const entry: AuditedRuleset = { ruleset: audit.rulesetName, passed: audit.output.passed, auditedAt: audit.updatedAt, state: 'deleted' }
  if (!definition) return entry
  // Both times are the store's, to the millisecond: a later update time means a later write.
  entry.state = Date.parse(definition.updatedAt) > Date.parse(audit.updatedAt) ? 'changed' : 'unchanged'
  entry.version = definition.version
  entry.updatedAt = definition.updatedAt
  return entry
}

function isFailure(result: RuleResult): result is RuleResult & { status: 'fail' | 'error' } {
  return result.status === 'fail' || result.status === 'error'
}

function firstTime(seen: Set<string>, result: RuleResult): boolean {
  const key = `${result.ruleset}\u0000${result.rule}`
  if (seen.has(key)) return false
  seen.add(key)
  return true
}

function failureOf(result: RuleResult & { status: 'fail' | 'error' }): Pick<FailureRemediation, 'ruleset' | 'rule' | 'status' | 'severity' | 'message' | 'autogen'> {
  const failure: Pick<FailureRemediation, 'ruleset' | 'rule' | 'status' | 'severity' | 'message' | 'autogen'> = {
    ruleset: result.ruleset,
    rule: result.rule,
    status: result.status,
    severity: result.severity,
  }
  if (result.message !== undefined) failure.message = result.message
  if (result.autogen !== undefined) failure.autogen = result.autogen
  return failure
}

/** A rule that no longer exists: the remediation the audit recorded, else one derived from the audited message. */
function storedRemediation(result: RuleResult): RuleRemediation {
  if (result.remediation !== undefined && result.remediation.trim() !== '') return { remediation: result.remediation, derived: false }
  return { remediation: deriveRemediation(result.message === undefined ? {} : { message: result.message }), derived: true }
}

/** The evaluation service records a missing ruleset as an error of rule "" (see missingRuleset there). */
function policyLevelRemediation(result: RuleResult, policy: string): RuleRemediation {
  if (result.rule === '') return { remediation: `Create the ruleset "${result.ruleset}", or remove it from the policy "${policy}".`, derived: true }
  return storedRemediation(result)
}

/** Each distinct audited document parsed and prepared once; undefined when it cannot be read. */
class InputCache {
  readonly #prepared = new Map<string, PreparedInput | undefined>()

  prepared(text: string, format: string): PreparedInput | undefined {
    const key = `${format}\u0000${text}`
    if (!this.#prepared.has(key)) this.#prepared.set(key, prepare(text, format))
    return this.#prepared.get(key)
  }
}

function prepare(text: string, format: string): PreparedInput | undefined {
  try {
    const object: unknown = format === 'yaml' ? yaml.load(text) : JSON.parse(text)
    return object !== null && typeof object === 'object' ? new PreparedInput({ object }) : undefined
  } catch {
    return undefined
  }
}
