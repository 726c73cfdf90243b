import { insertAudits, type AuditRows } from './audits-repository.js'
import { ensureAuditPartitions, utcDays } from './audit-partitions.js'
import type { Db } from './db.js'
import { storableAuditRows } from './storable-audit-rows.js'

export interface ReplayOutcome {
  /** Audit rows written now. */
  inserted: number
  /** Rows the store already held: a write that committed although its client saw the connection fail, or a replay repeated after a crash. */
  skipped: number
}

/**
 * Writes spooled audits exactly once. A row is already stored when one with its request id,
 * name and updatedAt exists: request ids are unique per evaluation, and the writer stamps
 * updatedAt before the first attempt, so a repeated row has all three equal. The check and the
 * insert share one transaction; only the replaying writer adds rows for these request ids.
 * Rows are compared as the store holds them (storable-audit-rows.ts), so a request id with
 * U+0000 is matched by its stored form.
 */
export async function insertMissingAudits(db: Db, given: AuditRows): Promise<ReplayOutcome> {
  const rows = storableAuditRows(given)
  for (const row of [...rows.policyAudits, ...rows.rulesetAudits]) {
    if (row.updatedAt === undefined) throw new Error(`a replayed audit needs its updatedAt (request ${row.requestId})`)
  }
  const requestIds = [...new Set([...rows.policyAudits, ...rows.rulesetAudits].map((row) => row.requestId))]
  if (requestIds.length === 0) return { inserted: 0, skipped: 0 }
  // Outside the transaction: a day's partitions created inside it would keep the audit tables locked until it commits.
  await ensureAuditPartitions(db, utcDays([...rows.policyAudits, ...rows.rulesetAudits].map((row) => row.updatedAt as Date)))
  return db.transaction(async (tx) => {
    const stored = await tx.query<{ kind: string; request_id: string; name: string; updated_at: Date }>(
      `SELECT 'policy' AS kind, request_id, policy_name AS name, updated_at FROM policy_audits WHERE request_id = ANY($1::text[])
       UNION ALL
       SELECT 'ruleset', request_id, ruleset_name, updated_at FROM ruleset_audits WHERE request_id = ANY($1::text[])`,
      [requestIds],
    )
    const seen = new Set(stored.rows.map((row) => keyOf(row.kind, row.request_id, row.name, new Date(row.updated_at))))
    const fresh = <T extends { requestId: string; updatedAt?: Date }>(kind: string, nameOf: (row: T) => string) => (row: T) => {
      const key = keyOf(kind, row.requestId, nameOf(row), row.updatedAt as Date)
      if (seen.has(key)) return false
      seen.add(key)
      return true
    }
    const missing: AuditRows = {
      policyAudits: rows.policyAudits.filter(fresh('policy', (row) => row.policyName)),
      rulesetAudits: rows.rulesetAudits.filter(fresh('ruleset', (row) => row.rulesetName)),
    }
    await insertAudits(tx, missing)
    const inserted = missing.policyAudits.length + missing.rulesetAudits.length
    return { inserted, skipped: rows.policyAudits.length + rows.rulesetAudits.length - inserted }
  })
}

function keyOf(kind: string, requestId: string, name: string, updatedAt: Date): string {
  return `${kind}\u0000${requestId}\u0000${name}\u0000${updatedAt.getTime()}`
}
