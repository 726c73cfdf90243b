import type { Queryable } from './db.js'
import { storableText } from './storable-text.js'
import { timestampParam } from './timestamps.js'

/** One policy's verdict on one object, as a background scan notes it. */
export interface NotedVerdict {
  policy: string
  /** Which object: `<apiVersion>/<kind>/<namespace>/<name>`. */
  object: string
  /** A digest of the verdict: equal digests, same verdict. */
  digest: string
}

/**
 * Notes the verdicts of one page of a scan and answers which of them changed since the last scan
 * noted them (or were never noted): those are the ones to audit. One statement: the previous
 * digests are read from the statement's snapshot, before its upsert writes the new ones and
 * `seenAt`. A verdict given twice in one call counts once.
 */
export async function noteVerdicts(q: Queryable, verdicts: readonly NotedVerdict[], seenAt: Date): Promise<NotedVerdict[]> {
  const unique = new Map<string, NotedVerdict>()
  for (const verdict of verdicts) {
    const stored = { policy: storableText(verdict.policy), object: storableText(verdict.object), digest: verdict.digest }
    unique.set(`${stored.policy}\u0000${stored.object}`, stored)
  }
  if (unique.size === 0) return []
  const given = [...unique.values()]
  const result = await q.query<{ policy_name: string; object_key: string }>(
    `WITH given AS (
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) AS g(policy_name, object_key, digest)
     ), previous AS (
       SELECT b.policy_name, b.object_key, b.digest FROM background_verdicts b JOIN given g USING (policy_name, object_key)
     ), noted AS (
       INSERT INTO background_verdicts (policy_name, object_key, digest, seen_at)
       SELECT policy_name, object_key, digest, $4 FROM given
       ON CONFLICT (policy_name, object_key) DO UPDATE SET digest = excluded.digest, seen_at = excluded.seen_at
     )
     SELECT g.policy_name, g.object_key FROM given g LEFT JOIN previous p USING (policy_name, object_key)
     WHERE p.digest IS DISTINCT FROM g.digest`,
    [given.map((verdict) => verdict.policy), given.map((verdict) => verdict.object), given.map((verdict) => verdict.digest), timestampParam(seenAt)],
  )
  const changed = new Set(result.rows.map((row) => `${row.policy_name}\u0000${row.object_key}`))
  return given.filter((verdict) => changed.has(`${verdict.policy}\u0000${verdict.object}`))
}

/**
 * After a scan that read everything: forgets the verdicts it did not see (objects deleted, policies
 * gone or no longer scanned), so that the table holds what the cluster holds, and an object that
 * comes back is audited again. Returns how many were forgotten.
 */
export async function forgetVerdictsNotSeenSince(q: Queryable, scanStart: Date): Promise<number> {
  const result = await q.query('DELETE FROM background_verdicts WHERE seen_at < $1', [timestampParam(scanStart)])
  return result.rowCount
}

/** How many verdicts are noted: one per scanned (policy, object), whatever the number of scans. */
export async function countNotedVerdicts(q: Queryable): Promise<number> {
  const result = await q.query<{ count: number | bigint }>('SELECT count(*)::bigint AS count FROM background_verdicts')
  return Number(result.rows[0]?.count ?? 0)
}
