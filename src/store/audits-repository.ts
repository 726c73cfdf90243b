import type {
  AuditPageQuery,
  AuditRange,
  AuditRows,
  PolicyAuditRecord,
  RulesetAuditRecord,
} from './audit-records.js'
import { AuditTable, updatedAtOf, type StoredAuditRow } from './audit-table.js'
import type { Queryable } from './db.js'
import { storableAuditRows } from './storable-audit-rows.js'
import type { PolicyResult, RulesetResult } from '../engine/results/evaluation-result.js'

export type {
  AuditPageQuery,
  AuditRange,
  AuditRows,
  AuditSource,
  InputFormat,
  PolicyAuditRecord,
  PolicyAuditRow,
  RulesetAuditRecord,
  RulesetAuditRow,
} from './audit-records.js'

const policyAudits = new AuditTable('policy_audits', 'policy_name')
const rulesetAudits = new AuditTable('ruleset_audits', 'ruleset_name')

/**
 * Each request's input once into audit_inputs, and the audit rows pointing to it (input NULL),
 * in ONE statement: atomic on its own, one round trip, and a named prepared statement, so a busy
 * writer pays neither BEGIN/COMMIT round trips nor re-planning per batch. A row keeps its input
 * inline when its request id already holds a different document, or when an earlier write stored
 * this request id's input (ON CONFLICT DO NOTHING returned nothing for it). Text PostgreSQL
 * cannot hold (U+0000, unpaired surrogates) is stored as U+FFFD rather than failing the write.
 */
export async function insertAudits(q: Queryable, given: AuditRows): Promise<void> {
  if (given.policyAudits.length === 0 && given.rulesetAudits.length === 0) return
  const rows = storableAuditRows(given)
  const firstInputs = new Map<string, { input: string; inputFormat: string }>()
  for (const row of [...rows.policyAudits, ...rows.rulesetAudits]) {
    if (!firstInputs.has(row.requestId)) firstInputs.set(row.requestId, { input: row.input, inputFormat: row.inputFormat })
  }
  // NULL asks the statement for the request's first input: dropped if this statement stored it.
  const shared = (row: { requestId: string; input: string; inputFormat: string }): string | null => {
    const first = firstInputs.get(row.requestId)
    return first?.input === row.input && first.inputFormat === row.inputFormat ? null : row.input
  }
  const ids = [...firstInputs.keys()]
  await q.query(
    INSERT_AUDITS_SQL,
    [
      ids,
      ids.map((id) => firstInputs.get(id)?.input ?? ''),
      ids.map((id) => firstInputs.get(id)?.inputFormat ?? 'json'),
      ...policyAudits.insertParams(rows.policyAudits.map((row) => ({ ...row, name: row.policyName, input: shared(row) }))),
      ...rulesetAudits.insertParams(rows.rulesetAudits.map((row) => ({ ...row, name: row.rulesetName, input: shared(row) }))),
    ],
    { name: 'verdict_insert_audits' },
  )
}

const INSERT_AUDITS_SQL = `WITH given_inputs AS (
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) AS g(request_id, input, input_format)
), stored_inputs AS (
  INSERT INTO audit_inputs (request_id, input, input_format)
  SELECT request_id, input, input_format FROM given_inputs
  ON CONFLICT (request_id) DO NOTHING
  RETURNING request_id
), policy_rows AS (
  ${policyAudits.insertSql(4, 'stored_inputs', 'given_inputs')}
)
${rulesetAudits.insertSql(13, 'stored_inputs', 'given_inputs')}`

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

/**
 * Every policy audit of a request, in the order written: an admission review judged by several
 * policies writes one per policy under the review's uid (an API evaluation writes one).
 */
export async function policyAuditsByRequestId(q: Queryable, requestId: string): Promise<PolicyAuditRecord[]> {
  return (await policyAudits.byRequestId(q, requestId)).map(toPolicyAudit)
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
