import type { Queryable } from './db.js'
import { timestampParam } from './timestamps.js'

const DEFAULT_BATCH = 10_000

/** The oldest moment `VERDICT_AUDIT_RETENTION_DAYS` keeps. */
export function retentionCutoff(now: Date, retentionDays: number): Date {
  return new Date(now.getTime() - retentionDays * 24 * 60 * 60 * 1000)
}

/**
 * Deletes policy and ruleset audits written before `before`. It works in batches of
 * `batchSize` rows, each its own statement: on the Db (not a transaction) every batch commits
 * alone, so a first run over millions of expired rows neither holds locks for minutes nor
 * builds one huge transaction. The batches walk the (updated_at, id) index.
 */
export async function deleteAuditsOlderThan(
  q: Queryable,
  before: Date,
  options: { batchSize?: number } = {},
): Promise<{ policyAudits: number; rulesetAudits: number }> {
  const batchSize = options.batchSize ?? DEFAULT_BATCH
  if (!Number.isSafeInteger(batchSize) || batchSize < 1) throw new RangeError(`batchSize must be an integer >= 1, got ${batchSize}`)
  const deleted = {
    policyAudits: await deleteBatches(q, 'policy_audits', before, batchSize),
    rulesetAudits: await deleteBatches(q, 'ruleset_audits', before, batchSize),
  }
  await deleteOrphanInputs(q, before, batchSize)
  return deleted
}

/** Inputs stored before the cutoff that no remaining audit points to. */
async function deleteOrphanInputs(q: Queryable, before: Date, batchSize: number): Promise<void> {
  for (;;) {
    const result = await q.query(
      `DELETE FROM audit_inputs WHERE request_id IN (
         SELECT i.request_id FROM audit_inputs i
         WHERE i.stored_at < $1
           AND NOT EXISTS (SELECT 1 FROM policy_audits p WHERE p.request_id = i.request_id)
           AND NOT EXISTS (SELECT 1 FROM ruleset_audits r WHERE r.request_id = i.request_id)
         ORDER BY i.stored_at LIMIT $2)`,
      [timestampParam(before), batchSize],
    )
    if (result.rowCount < batchSize) return
  }
}

async function deleteBatches(q: Queryable, table: 'policy_audits' | 'ruleset_audits', before: Date, batchSize: number): Promise<number> {
  let deleted = 0
  for (;;) {
    const result = await q.query(
      `DELETE FROM ${table} WHERE id IN (SELECT id FROM ${table} WHERE updated_at < $1 ORDER BY updated_at, id LIMIT $2)`,
      [timestampParam(before), batchSize],
    )
    deleted += result.rowCount
    if (result.rowCount < batchSize) return deleted
  }
}
