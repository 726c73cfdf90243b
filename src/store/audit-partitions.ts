import type { Queryable } from './db.js'
import { timestampParam } from './timestamps.js'

/**
 * Days (UTC, `YYYY-MM-DD`) whose partitions this process has seen in place, per connection pool
 * or transaction. A write whose days are all here asks the server nothing; a partition dropped
 * by another replica's retention is noticed by the write failing (isMissingPartition), which
 * forgets the days and asks again.
 */
const knownDays = new WeakMap<Queryable, Set<string>>()

const DAY_MS = 86_400_000

/** The UTC day of a moment, as the partitions are named and bounded. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10)
}

/** The distinct UTC days of these moments: one date formatted per day, not per row. */
export function utcDays(times: Iterable<Date>): string[] {
  const days = new Set<number>()
  for (const at of times) days.add(Math.floor(at.getTime() / DAY_MS))
  return [...days].map((day) => utcDay(new Date(day * DAY_MS)))
}

/**
 * Makes sure the partitions of every day in `days` exist (verdict_ensure_audit_partition,
 * migrations 007 and 008), creating the missing ones. Creating one no longer stops writers (008
 * attaches), but it is a catalog change under an advisory lock, so the leader creates the coming
 * days ahead (the partition job) and a writer only ever creates one for rows it could not store
 * otherwise: a spool replayed into a day nobody prepared, a clock that ran ahead.
 */
export async function ensureAuditPartitions(q: Queryable, days: Iterable<string>): Promise<void> {
  let known = knownDays.get(q)
  if (!known) {
    known = new Set()
    knownDays.set(q, known)
  }
  const missing = [...new Set(days)].filter((day) => !known.has(day))
  if (missing.length === 0) return
  await createAuditPartitions(q, missing)
  for (const day of missing) known.add(day)
}

/** Creates the partitions of `days` that are missing; returns the days it created anything for. */
export async function createAuditPartitions(q: Queryable, days: readonly string[]): Promise<string[]> {
  const result = await q.query<{ day: string; created: boolean }>(
    'SELECT d AS day, verdict_ensure_audit_partition(d::date) AS created FROM unnest($1::text[]) AS d ORDER BY d',
    [[...new Set(days)].sort()],
  )
  return result.rows.filter((row) => row.created).map((row) => row.day)
}

/** Forgets what ensureAuditPartitions learnt for `q`, after partitions were dropped. */
export function forgetAuditPartitions(q: Queryable): void {
  knownDays.delete(q)
}

/** PostgreSQL's refusal of a row no partition holds (SQLSTATE 23514, "no partition of relation ... found for row"). */
export function isMissingPartition(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false
  const { code, message } = error as { code?: unknown; message?: unknown }
  return code === '23514' && typeof message === 'string' && message.includes('no partition of relation')
}

/**
 * Drops every day of audits that ended at or before `cutoff`, with the counters of those days
 * (migration 007's verdict_drop_audit_partitions_before), in one transaction on `q`. Retention
 * therefore works in whole UTC days: an audit is kept until the whole day it was written in is
 * older than the cutoff. Returns the days dropped, oldest first.
 */
export async function dropAuditPartitionsBefore(q: Queryable, cutoff: Date): Promise<string[]> {
  const result = await q.query<{ day: string }>(
    "SELECT to_char(d, 'YYYY-MM-DD') AS day FROM verdict_drop_audit_partitions_before($1::timestamptz) AS d",
    [timestampParam(cutoff)],
  )
  forgetAuditPartitions(q)
  return result.rows.map((row) => row.day)
}

/** The days that have audit partitions, oldest first. */
export async function auditPartitionDays(q: Queryable): Promise<string[]> {
  const result = await q.query<{ day: string }>(
    `SELECT DISTINCT to_char(verdict_audit_partition_day(c.relname::text), 'YYYY-MM-DD') AS day
     FROM pg_inherits h JOIN pg_class c ON c.oid = h.inhrelid
     WHERE h.inhparent = 'policy_audits'::regclass AND verdict_audit_partition_day(c.relname::text) IS NOT NULL
     ORDER BY 1`,
  )
  return result.rows.map((row) => row.day)
}
