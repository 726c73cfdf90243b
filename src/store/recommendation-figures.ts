import { planAuditCount } from './audit-count-plan.js'
import type { Queryable } from './db.js'
import { timestampParam } from './timestamps.js'

/**
 * The audit figures recommendations are drawn from, aggregated in SQL over an N-day window so
 * that none of them reads the audit rows one by one on a table of a million:
 * - audits per name: the counters of migration 002 (kept by the writer since 007), row counts only for the partial
 *   minutes at the window's edges;
 * - "did this policy fail at all": an EXISTS per candidate over its (name, updated_at) index
 *   range, which stops at the first failure;
 * - the newest audit of a policy: one step down that same index;
 * - rule results: only ruleset audits with `passed = false`, newest first, bounded by a limit.
 */

/** The window, both ends inclusive. */
export interface FigureWindow {
  from: Date
  to: Date
}

export type AuditKind = 'policy' | 'ruleset'

const TABLES = {
  policy: { audits: 'policy_audits', name: 'policy_name', counters: 'policy_audit_counts' },
  ruleset: { audits: 'ruleset_audits', name: 'ruleset_name', counters: 'ruleset_audit_counts' },
} as const

/**
 * Audits per name in the window, from one snapshot. Whole hours and minutes come from the counter
 * tables (their (span, bucket) index: names x buckets rows, a few thousand for a week), the
 * partial minutes at the two edges from the audit table's time index. Names without audits are
 * absent.
 */
export async function auditCountsByName(q: Queryable, kind: AuditKind, window: FigureWindow): Promise<Map<string, number>> {
  const table = TABLES[kind]
  const plan = planAuditCount(window.from, window.to)
  const params: unknown[] = []
  const parts: string[] = []
  for (const buckets of plan.buckets) {
    params.push(buckets.spanSeconds, timestampParam(buckets.from), timestampParam(buckets.to))
    const n = params.length
    // name '' is the counter of every name together.
    parts.push(`SELECT name, audits FROM ${table.counters} WHERE span = $${n - 2} AND bucket >= $${n - 1} AND bucket < $${n} AND name <> ''`)
  }
  for (const raw of plan.raw) {
    params.push(timestampParam(raw.from), timestampParam(raw.to))
    const n = params.length
    parts.push(
      `SELECT ${table.name} AS name, count(*) AS audits FROM ${table.audits} WHERE updated_at >= $${n - 1} AND updated_at ${raw.toInclusive ? '<=' : '<'} $${n} GROUP BY ${table.name}`,
    )
  }
  if (parts.length === 0) return new Map()
  const result = await q.query<{ name: string; audits: number | bigint }>(
    `SELECT name, sum(audits)::bigint AS audits FROM (${parts.join(' UNION ALL ')}) AS counted GROUP BY name`,
    params,
  )
  return new Map(result.rows.map((row) => [row.name, Number(row.audits)]))
}

/**
 * Which of the named policies have at least one failed policy audit in the window. Each is an
 * EXISTS over the policy's range of the (policy_name, updated_at) index: a failing policy stops at
 * its newest failure; a policy without failures reads its rows of the window (the case being
 * recommended, and only for the few policies that qualify).
 */
export async function policiesWithFailures(q: Queryable, names: readonly string[], window: FigureWindow): Promise<Set<string>> {
  if (names.length === 0) return new Set()
  const result = await q.query<{ name: string }>(
    `SELECT n.name FROM unnest($1::text[]) AS n(name)
     WHERE EXISTS (SELECT 1 FROM policy_audits a
                   WHERE a.policy_name = n.name AND a.updated_at >= $2 AND a.updated_at <= $3 AND NOT a.passed)`,
    [names, timestampParam(window.from), timestampParam(window.to)],
  )
  return new Set(result.rows.map((row) => row.name))
}

/** The newest audit time of each named policy, at any time; null for a policy with none. One index step per name. */
export async function lastPolicyAudits(q: Queryable, names: readonly string[]): Promise<Map<string, Date | null>> {
  if (names.length === 0) return new Map()
  const result = await q.query<{ name: string; last_at: Date | null }>(
    `SELECT n.name,
            (SELECT a.updated_at FROM policy_audits a WHERE a.policy_name = n.name ORDER BY a.updated_at DESC, a.id DESC LIMIT 1) AS last_at
     FROM unnest($1::text[]) AS n(name)`,
    [names],
  )
  return new Map(result.rows.map((row) => [row.name, row.last_at]))
}

/**
 * How many failed ruleset audits the rule-result scan reads at most. Each carries its results as
 * jsonb, so reading them is what this figure costs; past the limit the tallies cover the newest
 * failures only, which is what recommendations are about anyway, and say so.
 */
export const RULE_RESULT_SCAN_LIMIT = 20_000

export interface RuleResultTally {
  ruleset: string
  rule: string
  status: 'fail' | 'error'
  /** Ruleset audits in which the rule ended with this status. */
  audits: number
  lastAt: Date
  /** The message of the newest such result. */
  latestMessage: string | null
}

export interface RuleResultFigures {
  tallies: RuleResultTally[]
  scannedAudits: number
  /** True when more failed audits were in the window than the limit let the scan read. */
  sampled: boolean
  /** The window's start, or when sampled the time of the oldest audit read. */
  countedFrom: Date
}

interface TallyRow {
  scanned: number | bigint
  more: boolean
  oldest: Date | null
  ruleset: string | null
  rule: string | null
  status: 'fail' | 'error' | null
  audits: number | bigint | null
  last_at: Date | null
  latest_message: string | null
}

/**
 * Fail and error results per (ruleset, rule) in the window, from the ruleset audits with
 * `passed = false` only (a ruleset audit fails when any rule fails or errors, so no result is
 * missed), read newest first through the time index and at most `limit` of them (one more is
 * read to tell whether the limit cut the window short). The engine reports each rule once per
 * evaluation, so a result counts one audit. Groups are counted by hashing; the latest message is
 * found by joining each group's newest time back to its results, rather than sorting them all.
 */
export async function ruleResultFigures(q: Queryable, window: FigureWindow, limit = RULE_RESULT_SCAN_LIMIT): Promise<RuleResultFigures> {
  const result = await q.query<TallyRow>(
    `WITH read AS (
       SELECT id, ruleset_name, output -> 'results' AS results, updated_at, row_number() OVER (ORDER BY updated_at DESC, id DESC) AS n
       FROM ruleset_audits
       WHERE NOT passed AND updated_at >= $1 AND updated_at <= $2
       ORDER BY updated_at DESC, id DESC
       LIMIT $3 + 1
     ), results AS (
       SELECT f.id, f.updated_at, f.ruleset_name AS ruleset, r.value ->> 'rule' AS rule, r.value ->> 'status' AS status, r.value ->> 'message' AS message
       FROM read f
       CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(f.results) = 'array' THEN f.results ELSE '[]'::jsonb END) AS r(value)
       WHERE f.n <= $3 AND r.value ->> 'status' IN ('fail', 'error') AND r.value ->> 'rule' IS NOT NULL
     ), tallies AS (
       SELECT ruleset, rule, status, count(*) AS audits, max(updated_at) AS last_at FROM results GROUP BY ruleset, rule, status
     ), latest AS (
       SELECT DISTINCT ON (t.ruleset, t.rule, t.status) t.ruleset, t.rule, t.status, t.audits, t.last_at, r.message
       FROM tallies t
       JOIN results r ON r.ruleset = t.ruleset AND r.rule = t.rule AND r.status = t.status AND r.updated_at = t.last_at
       ORDER BY t.ruleset, t.rule, t.status, r.id DESC
     )
     SELECT s.scanned, s.more, s.oldest, l.ruleset, l.rule, l.status, l.audits, l.last_at, l.message AS latest_message
     FROM (SELECT count(*) FILTER (WHERE n <= $3) AS scanned, count(*) > $3 AS more, min(updated_at) FILTER (WHERE n <= $3) AS oldest FROM read) s
     LEFT JOIN latest l ON TRUE
     ORDER BY l.ruleset, l.rule, l.status`,
    [timestampParam(window.from), timestampParam(window.to), limit],
  )
  const first = result.rows[0]
  const sampled = first?.more === true
  const tallies: RuleResultTally[] = []
  for (const row of result.rows) {
    if (row.ruleset === null || row.rule === null || row.status === null || row.last_at === null) continue
    tallies.push({ ruleset: row.ruleset, rule: row.rule, status: row.status, audits: Number(row.audits ?? 0), lastAt: row.last_at, latestMessage: row.latest_message })
  }
  return {
    tallies,
    scannedAudits: Number(first?.scanned ?? 0),
    sampled,
    countedFrom: sampled && first?.oldest ? first.oldest : window.from,
  }
}
