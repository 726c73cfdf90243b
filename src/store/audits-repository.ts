import type {
  AuditPageQuery,
  AuditRange,
  AuditRows,
  PolicyAuditRecord,
  RulesetAuditRecord,
} from './audit-records.js'
import { AuditTable, updatedAtOf, type StoredAuditRow } from './audit-table.js'
import type { Queryable } from './db.js'
import type { PolicyResult, RulesetResult } from '../engine/results/evaluation-result.js'

export type {
  AuditPageQuery,
  AuditRange,
  AuditRows,
  InputFormat,
  PolicyAuditRecord,
  PolicyAuditRow,
  RulesetAuditRecord,
  RulesetAuditRow,
} from './audit-records.js'

const policyAudits = new AuditTable('policy_audits', 'policy_name')
const rulesetAudits = new AuditTable('ruleset_audits', 'ruleset_name')

/** One multi-row INSERT per table; run it in a transaction to write an evaluation's rows together. */
export async function insertAudits(q: Queryable, rows: AuditRows): Promise<void> {
  await policyAudits.insert(
    q,
    rows.policyAudits.map((row) => ({ ...row, name: row.policyName })),
  )
  await rulesetAudits.insert(
    q,
    rows.rulesetAudits.map((row) => ({ ...row, name: row.rulesetName })),
  )
}

/** Newest first (updatedAt, then write order); `name` is exact, `*` or a glob; start and end inclusive. */
export async function listPolicyAudits(q: Queryable, query: AuditPageQuery): Promise<PolicyAuditRecord[]> {
  return (await policyAudits.page(q, query)).map(toPolicyAudit)
}

export function countPolicyAudits(q: Queryable, range: AuditRange): Promise<number> {
  return policyAudits.count(q, range)
}

/** The one policy audit of an evaluation request. */
export async function policyAuditByRequestId(q: Queryable, requestId: string): Promise<PolicyAuditRecord | undefined> {
  const [row] = await policyAudits.byRequestId(q, requestId)
  return row ? toPolicyAudit(row) : undefined
}

export async function listRulesetAudits(q: Queryable, query: AuditPageQuery): Promise<RulesetAuditRecord[]> {
  return (await rulesetAudits.page(q, query)).map(toRulesetAudit)
}

export function countRulesetAudits(q: Queryable, range: AuditRange): Promise<number> {
  return rulesetAudits.count(q, range)
}

/** Every ruleset audit of an evaluation request (a policy evaluation writes one per ruleset), in the order written. */
export async function rulesetAuditsByRequestId(q: Queryable, requestId: string): Promise<RulesetAuditRecord[]> {
  return (await rulesetAudits.byRequestId(q, requestId)).map(toRulesetAudit)
}

function toPolicyAudit(row: StoredAuditRow): PolicyAuditRecord {
  return {
    policyName: row.name,
    input: row.input,
    inputFormat: row.input_format,
    output: row.output as PolicyResult,
    updatedAt: updatedAtOf(row),
    updatedBy: row.updated_by,
    requestId: row.request_id,
  }
}

function toRulesetAudit(row: StoredAuditRow): RulesetAuditRecord {
  return {
    rulesetName: row.name,
    input: row.input,
    inputFormat: row.input_format,
    output: row.output as RulesetResult,
    updatedAt: updatedAtOf(row),
    updatedBy: row.updated_by,
    requestId: row.request_id,
  }
}
