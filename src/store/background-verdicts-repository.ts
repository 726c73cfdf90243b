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
  passed: boolean
  /** Rules that failed or erred. */
  failures: number
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
    const stored = { ...verdict, policy: storableText(verdict.policy), object: storableText(verdict.object) }
    unique.set(`${stored.policy}\u0000${stored.object}`, stored)
  }
  if (unique.size === 0) return []
  const given = [...unique.values()]
  const result = await q.query<{ policy_name: string; object_key: string }>(
    `WITH given AS (
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $5::boolean[], $6::integer[]) AS g(policy_name, object_key, digest, passed, failures)
     ), previous AS (
       SELECT b.policy_name, b.object_key, b.digest FROM background_verdicts b JOIN given g USING (policy_name, object_key)
     ), noted AS (
       INSERT INTO background_verdicts (policy_name, object_key, digest, passed, failures, seen_at)
       SELECT policy_name, object_key, digest, passed, failures, $4 FROM given
       ON CONFLICT (policy_name, object_key) DO UPDATE SET digest = excluded.digest, passed = excluded.passed, failures = excluded.failures, seen_at = excluded.seen_at
     )
     SELECT g.policy_name, g.object_key FROM given g LEFT JOIN previous p USING (policy_name, object_key)
     WHERE p.digest IS DISTINCT FROM g.digest`,
    [
      given.map((verdict) => verdict.policy),
      given.map((verdict) => verdict.object),
      given.map((verdict) => verdict.digest),
      timestampParam(seenAt),
      given.map((verdict) => verdict.passed),
      given.map((verdict) => verdict.failures),
    ],
  )
  const changed = new Set(result.rows.map((row) => `${row.policy_name}\u0000${row.object_key}`))
  return given.filter((verdict) => changed.has(`${verdict.policy}\u0000${verdict.object}`))
}

/**
 * After a scan that read everything: forgets the verdicts it did not see (objects deleted, policies
 * gone or no longer scanned), so that the table holds what the cluster holds, and an object that
 * comes back is audited again. With `policies` (a scan of those only), only their verdicts are
 * forgotten. Returns how many were forgotten.
 */
export async function forgetVerdictsNotSeenSince(q: Queryable, scanStart: Date, policies?: readonly string[]): Promise<number> {
  const result = policies
    ? await q.query('DELETE FROM background_verdicts WHERE seen_at < $1 AND policy_name = ANY($2::text[])', [timestampParam(scanStart), policies.map(storableText)])
    : await q.query('DELETE FROM background_verdicts WHERE seen_at < $1', [timestampParam(scanStart)])
  return result.rowCount
}

/** How many verdicts are noted: one per scanned (policy, object), whatever the number of scans. */
export async function countNotedVerdicts(q: Queryable): Promise<number> {
  const result = await q.query<{ count: number | bigint }>('SELECT count(*)::bigint AS count FROM background_verdicts')
  return Number(result.rows[0]?.count ?? 0)
}

/** What the last scans found for one policy: objects judged, those failing, and the worst of them. */
export interface ClusterFigures {
  scanned: number
  failing: number
  /** Up to `top` failing objects, most failing rules first, then by key. */
  worst: string[]
}

/** Per policy, from the noted verdicts (the cluster as the last scans saw it). */
export async function clusterFigures(q: Queryable, top: number): Promise<Map<string, ClusterFigures>> {
  const result = await q.query<{ policy_name: string; scanned: number | bigint; failing: number | bigint; worst: string[] | null }>(
    `SELECT p.policy_name, p.scanned, p.failing, w.worst
     FROM (SELECT policy_name, count(*)::bigint AS scanned, count(*) FILTER (WHERE NOT passed)::bigint AS failing
           FROM background_verdicts GROUP BY policy_name) p
     LEFT JOIN LATERAL (
       SELECT array_agg(object_key ORDER BY failures DESC, object_key) AS worst
       FROM (SELECT object_key, failures FROM background_verdicts b
             WHERE b.policy_name = p.policy_name AND NOT b.passed
             ORDER BY failures DESC, object_key LIMIT $1) t
     ) w ON true`,
    [top],
  )
  return new Map(result.rows.map((row) => [row.policy_name, { scanned: Number(row.scanned), failing: Number(row.failing), worst: row.worst ?? [] }]))
}
