import type {
  AuditPageQuery,
  AuditRange,
  AuditRows,
  PolicyAuditRecord,
  PolicyAuditRow,
  RulesetAuditRecord,
  RulesetAuditRow,
} from './audit-records.js'
import { AuditTable, updatedAtOf, type AuditInsert, type StoredAuditRow } from './audit-table.js'
import type { Queryable } from './db.js'
import { ensureAuditPartitions, forgetAuditPartitions, isMissingPartition, utcDays } from './audit-partitions.js'
import { storableAuditRows } from './storable-audit-rows.js'
import { TextPayload } from './text-payload.js'
import { timestampParams } from './timestamps.js'
import { withUpdatedAt } from './with-updated-at.js'
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
 * Each request's input once into audit_inputs, the audit rows pointing to it (input NULL), and
 * the counters those rows add to (audit-counters.ts), in ONE statement: atomic on its own, one
 * round trip, and a named prepared statement, so a busy writer pays neither BEGIN/COMMIT round
 * trips nor re-planning per batch. An input is shared by the rows of its request id written at
 * the same moment; a row keeps its input inline when its request id already holds a different
 * document, or when an earlier write stored this request id's input for that moment (ON
 * CONFLICT DO NOTHING returned nothing for it). Text PostgreSQL cannot hold (U+0000, unpaired
 * surrogates) is stored as U+FFFD rather than failing the write. Rows without a time get the
 * current one, to the millisecond. The days' partitions are made sure of first
 * (audit-partitions.ts); when one went missing meanwhile (another replica's retention), the
 * write learns the days again and is tried once more.
 */
export async function insertAudits(q: Queryable, given: AuditRows): Promise<void> {
  if (given.policyAudits.length === 0 && given.rulesetAudits.length === 0) return
  const rows = withUpdatedAt(storableAuditRows(given), new Date())
  const days = utcDays([...rows.policyAudits, ...rows.rulesetAudits].map((row) => row.updatedAt as Date))
  await ensureAuditPartitions(q, days)
  const params = insertParams(rows)
  try {
    await q.query(INSERT_AUDITS_SQL, params, { name: 'verdict_insert_audits' })
  } catch (error) {
    if (!isMissingPartition(error)) throw error
    forgetAuditPartitions(q)
    await ensureAuditPartitions(q, days)
    await q.query(INSERT_AUDITS_SQL, params, { name: 'verdict_insert_audits' })
  }
}

function insertParams(rows: AuditRows): unknown[] {
  const timeOf = (row: { updatedAt?: Date }) => (row.updatedAt as Date).getTime()
  const firstInputs = new Map<string, { requestId: string; at: Date; input: string; inputFormat: string }>()
  const keyOf = (row: { requestId: string; updatedAt?: Date }) => `${row.requestId}\u0000${timeOf(row)}`
  for (const list of [rows.policyAudits, rows.rulesetAudits]) {
    for (const row of list) {
      const key = keyOf(row)
      if (!firstInputs.has(key)) firstInputs.set(key, { requestId: row.requestId, at: row.updatedAt as Date, input: row.input, inputFormat: row.inputFormat })
    }
  }
  // NULL asks the statement for the input stored for the row's request id and time.
  const shared = (row: { requestId: string; input: string; inputFormat: string; updatedAt?: Date }): string | null => {
    const first = firstInputs.get(keyOf(row))
    return first?.input === row.input && first.inputFormat === row.inputFormat ? null : row.input
  }
  // Built field by field rather than spread: this runs for every row a busy writer commits.
  const toInsert = (row: PolicyAuditRow | RulesetAuditRow, name: string): AuditInsert & { updatedAt: Date } => ({
    requestId: row.requestId,
    name,
    input: shared(row),
    inputFormat: row.inputFormat,
    output: row.output,
    passed: row.passed,
    updatedBy: row.updatedBy,
    updatedAt: row.updatedAt as Date,
    source: row.source,
  })
  const payload = new TextPayload()
  const inputs = [...firstInputs.values()]
  const inputTexts = inputs.map((input) => payload.add(input.input))
  const policyRows = rows.policyAudits.map((row) => toInsert(row, row.policyName))
  const rulesetRows = rows.rulesetAudits.map((row) => toInsert(row, row.rulesetName))
  const rowParams = [...policyAudits.insertParams(policyRows, payload), ...rulesetAudits.insertParams(rulesetRows, payload)]
  return [
    payload.toBuffer(),
    inputs.map((input) => input.requestId),
    timestampParams(inputs.map((input) => input.at)),
    inputTexts.map((text) => text.offset),
    inputTexts.map((text) => text.length),
    inputs.map((input) => input.inputFormat),
    ...rowParams,
    ...policyAudits.counterParams(policyRows),
    ...rulesetAudits.counterParams(rulesetRows),
  ]
}

const POLICY_COUNTERS = policyAudits.counterUpsertsSql(29)
const RULESET_COUNTERS = rulesetAudits.counterUpsertsSql(40)

const INSERT_AUDITS_SQL = `WITH given_inputs AS MATERIALIZED (
  SELECT g.request_id, g.at, convert_from(substring($1::bytea FROM g.off FOR g.len), 'UTF8') AS input, g.input_format
  FROM unnest($2::text[], $3::timestamptz[], $4::int[], $5::int[], $6::text[]) AS g(request_id, at, off, len, input_format)
), stored_inputs AS (
  INSERT INTO audit_inputs (request_id, stored_at, input, input_format)
  SELECT request_id, at, input, input_format FROM given_inputs
  ON CONFLICT (request_id, stored_at) DO NOTHING
  RETURNING request_id, stored_at
), policy_rows AS (
  ${policyAudits.insertSql(7, '$1::bytea', 'stored_inputs', 'given_inputs')}
), ruleset_rows AS (
  ${rulesetAudits.insertSql(18, '$1::bytea', 'stored_inputs', 'given_inputs')}
), policy_counts AS (
  ${POLICY_COUNTERS.counts}
), policy_rule_failures AS (
  ${POLICY_COUNTERS.ruleFailures}
), ruleset_counts AS (
  ${RULESET_COUNTERS.counts}
)
${RULESET_COUNTERS.ruleFailures}`

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
