import type { Queryable } from './db.js'
import { isoTimestamp, timestampParam } from './timestamps.js'

/**
 * Notes that these exceptions let something through at `at`. Only ever moves a time forward, so
 * replicas and late writes never turn it back; names no longer stored are passed over.
 */
export async function noteExceptionsApplied(q: Queryable, names: readonly string[], at: Date): Promise<void> {
  if (names.length === 0) return
  await q.query(
    `UPDATE policy_exceptions SET last_applied_at = $2::timestamptz
     WHERE name = ANY($1::text[]) AND (last_applied_at IS NULL OR last_applied_at < $2::timestamptz)`,
    [names, timestampParam(at)],
  )
}

/** When each stored exception last let something through (ISO 8601); absent: never, as far as the store knows. */
export async function lastExceptionApplications(q: Queryable): Promise<Map<string, string>> {
  const result = await q.query<{ name: string; last_applied_at: Date }>('SELECT name, last_applied_at FROM policy_exceptions WHERE last_applied_at IS NOT NULL')
  return new Map(result.rows.map((row) => [row.name, isoTimestamp(row.last_applied_at)]))
}
