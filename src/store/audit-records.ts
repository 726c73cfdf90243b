import type { PolicyResult, RulesetResult } from '../engine/results/evaluation-result.js'

export type InputFormat = 'json' | 'yaml'

/** Where an audit came from: the webhook, a REST evaluation, or a background scan. */
export type AuditSource = 'admission' | 'api' | 'background'
export const AUDIT_SOURCES: readonly AuditSource[] = ['admission', 'api', 'background']

/** One policy evaluation to record. */
export interface PolicyAuditRow {
  requestId: string
  policyName: string
  /** The evaluated document as the client sent it (or as JSON text). */
  input: string
  inputFormat: InputFormat
  output: PolicyResult
  /** Defaults to output.passed. */
  passed?: boolean
  updatedBy: string
  /** Defaults to the time of the write, to the millisecond; set it to back-fill records. */
  updatedAt?: Date
  /** Defaults to `api`. */
  source?: AuditSource
}

/** One ruleset evaluation to record; a policy evaluation writes one per ruleset it applied. */
export interface RulesetAuditRow {
  requestId: string
  rulesetName: string
  input: string
  inputFormat: InputFormat
  output: RulesetResult
  /** Defaults to output.passed. */
  passed?: boolean
  updatedBy: string
  updatedAt?: Date
  source?: AuditSource
}

export interface AuditRows {
  policyAudits: PolicyAuditRow[]
  rulesetAudits: RulesetAuditRow[]
}

/** A policy audit record exactly as the API spec names its fields; updatedAt is ISO 8601 UTC with milliseconds. */
export interface PolicyAuditRecord {
  policyName: string
  input: string
  inputFormat: string
  output: PolicyResult
  updatedAt: string
  updatedBy: string
  requestId: string
}

export interface RulesetAuditRecord {
  rulesetName: string
  input: string
  inputFormat: string
  output: RulesetResult
  updatedAt: string
  updatedBy: string
  requestId: string
}

/**
 * Which records a count covers: `name` is exact, `*` (all) or a glob with `*` and `?`;
 * `start` and `end` are both inclusive.
 */
export interface AuditRange {
  name: string
  start: Date
  end: Date
}

/** A page of records, newest first; page counts from 1. */
export interface AuditPageQuery extends AuditRange {
  page: number
  pageSize: number
  /** Only audits from this source; every source when absent. */
  source?: AuditSource
  /** Only audits that passed (true) or failed (false); both when absent. */
  passed?: boolean
}
