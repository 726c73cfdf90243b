import type {
  AuditPageQuery,
  AuditRange,
  AuditRows,
  PolicyAuditRecord,
  RulesetAuditRecord,
} from './audit-records.js'
import { AuditTable, updatedAtOf, withoutNul, type StoredAuditRow } from './audit-table.js'
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

/**
 * Each request's input once into audit_inputs, then one multi-row INSERT per table whose rows
 * point to it (input NULL). A row keeps its input inline when its request id already holds a
 * different document, or when an earlier write stored this request id's input. Run it in a
 * transaction to write an evaluation's rows together.
 */
export async function insertAudits(q: Queryable, rows: AuditRows): Promise<void> {
  const firstInputs = new Map<string, { input: string; inputFormat: string }>()
  for (const row of [...rows.policyAudits, ...rows.rulesetAudits]) {
    if (!firstInputs.has(row.requestId)) firstInputs.set(row.requestId, { input: row.input, inputFormat: row.inputFormat })
  }
  const stored = await storeInputs(q, firstInputs)
  const shared = (row: { requestId: string; input: string; inputFormat: string }): string | null => {
    const first = firstInputs.get(row.requestId)
    return stored.has(row.requestId) && first?.input === row.input && first.inputFormat === row.inputFormat ? null : row.input
  }
  await policyAudits.insert(
    q,
    rows.policyAudits.map((row) => ({ ...row, name: row.policyName, input: shared(row) })),
  )
  await rulesetAudits.insert(
    q,
    rows.rulesetAudits.map((row) => ({ ...row, name: row.rulesetName, input: shared(row) })),
  )
}

/** The request ids whose input this call stored (not those some earlier write already holds). */
async function storeInputs(q: Queryable, inputs: Map<string, { input: string; inputFormat: string }>): Promise<Set<string>> {
  if (inputs.size === 0) return new Set()
  const ids = [...inputs.keys()]
  const result = await q.query<{ request_id: string }>(
    `INSERT INTO audit_inputs (request_id, input, input_format)
     SELECT r, i, f FROM unnest($1::text[], $2::text[], $3::text[]) AS u(r, i, f)
     ON CONFLICT (request_id) DO NOTHING
     RETURNING request_id`,
    [ids, ids.map((id) => withoutNul(inputs.get(id)?.input ?? '')), ids.map((id) => inputs.get(id)?.inputFormat ?? 'json')],
  )
  return new Set(result.rows.map((row) => row.request_id))
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
