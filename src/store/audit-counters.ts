import { COUNT_SPANS_SECONDS } from './migrations/002-audit-counts.js'
import type { Db } from './db.js'
import { RULE_FAILURE_SPANS_SECONDS, ruleFailuresSql } from './migrations/004-audit-timeseries.js'
import { storableText } from './storable-text.js'

/** What the counters need of one audit row. */
export interface CountedAudit {
  name: string
  updatedAt: Date
  passed: boolean
  output: unknown
}

/** Increments of `*_audit_counts`, as the parallel arrays the insert statement unnests. */
export interface AuditCountIncrements {
  names: string[]
  spans: number[]
  buckets: string[]
  audits: number[]
  failed: number[]
}

/** Increments of `*_rule_failure_counts`, likewise. */
export interface RuleFailureIncrements {
  names: string[]
  spans: number[]
  buckets: string[]
  rulesets: string[]
  rules: string[]
  failures: number[]
}

/**
 * The counter increments of a batch of audit rows, added up once in the service rather than by a
 * trigger per statement from a transition table (migration 007 says why). They mean exactly what
 * the triggers of migrations 002 and 004 counted: per (name, span, bucket) and for name '' (every
 * name), rows and failed rows in minute and hour buckets, and fail and error results that name
 * their ruleset and rule in minute, hour and day buckets, buckets aligned on the epoch as
 * date_bin aligns them. The store adds these in the statement that inserts the rows, so rows and
 * counters commit together.
 */
export function auditCountIncrements(rows: readonly CountedAudit[]): { counts: AuditCountIncrements; ruleFailures: RuleFailureIncrements } {
  // Rows are first added up per smallest bucket and name, one map entry per row at most, then
  // each sum is spread over the spans and the every-name total: a batch of a busy writer holds
  // many rows of few names and minutes, so the second step is short.
  const perBucket = new Map<string, { name: string; bucket: number; audits: number; failed: number }>()
  const failuresPerBucket = new Map<string, { name: string; bucket: number; ruleset: string; rule: string; failures: number }>()
  for (const row of rows) {
    const bucket = bucketOf(row.updatedAt.getTime(), SMALLEST_SPAN_SECONDS)
    const key = `${bucket}\u0000${row.name}`
    let sum = perBucket.get(key)
    if (!sum) perBucket.set(key, (sum = { name: row.name, bucket, audits: 0, failed: 0 }))
    sum.audits += 1
    if (!row.passed) sum.failed += 1
    for (const { ruleset, rule } of failingRulesOf(row.output)) {
      const failureKey = `${key}\u0000${ruleset}\u0000${rule}`
      let failures = failuresPerBucket.get(failureKey)
      if (!failures) failuresPerBucket.set(failureKey, (failures = { name: row.name, bucket, ruleset, rule, failures: 0 }))
      failures.failures += 1
    }
  }
  const counts = new Map<string, { name: string; span: number; bucket: number; audits: number; failed: number }>()
  for (const sum of perBucket.values()) {
    for (const { name, span, bucket } of countersOf(sum, COUNT_SPANS_SECONDS)) {
      const key = `${span}\u0000${bucket}\u0000${name}`
      const entry = counts.get(key) ?? { name, span, bucket, audits: 0, failed: 0 }
      entry.audits += sum.audits
      entry.failed += sum.failed
      counts.set(key, entry)
    }
  }
  const failures = new Map<string, { name: string; span: number; bucket: number; ruleset: string; rule: string; failures: number }>()
  for (const sum of failuresPerBucket.values()) {
    for (const { name, span, bucket } of countersOf(sum, RULE_FAILURE_SPANS_SECONDS)) {
      const key = `${span}\u0000${bucket}\u0000${name}\u0000${sum.ruleset}\u0000${sum.rule}`
      const entry = failures.get(key) ?? { name, span, bucket, ruleset: sum.ruleset, rule: sum.rule, failures: 0 }
      entry.failures += sum.failures
      failures.set(key, entry)
    }
  }
  const countList = [...counts.values()]
  const failureList = [...failures.values()]
  return {
    counts: {
      names: countList.map((entry) => entry.name),
      spans: countList.map((entry) => entry.span),
      buckets: countList.map((entry) => new Date(entry.bucket).toISOString()),
      audits: countList.map((entry) => entry.audits),
      failed: countList.map((entry) => entry.failed),
    },
    ruleFailures: {
      names: failureList.map((entry) => entry.name),
      spans: failureList.map((entry) => entry.span),
      buckets: failureList.map((entry) => new Date(entry.bucket).toISOString()),
      rulesets: failureList.map((entry) => entry.ruleset),
      rules: failureList.map((entry) => entry.rule),
      failures: failureList.map((entry) => entry.failures),
    },
  }
}

/**
 * Every span is a whole number of the smallest (a minute), and buckets are aligned on the epoch,
 * so the bucket of any span holding a time is the one holding the start of its smallest bucket.
 */
const SMALLEST_SPAN_SECONDS = Math.min(...COUNT_SPANS_SECONDS, ...RULE_FAILURE_SPANS_SECONDS)
for (const span of [...COUNT_SPANS_SECONDS, ...RULE_FAILURE_SPANS_SECONDS]) {
  if (span % SMALLEST_SPAN_SECONDS !== 0) throw new Error(`counter span ${span} s is not a multiple of ${SMALLEST_SPAN_SECONDS} s`)
}

/** The counter rows a sum over one smallest bucket adds to: each span's bucket, for its name and for every name (''). */
function countersOf(sum: { name: string; bucket: number }, spans: readonly number[]): { name: string; span: number; bucket: number }[] {
  return [sum.name, ''].flatMap((name) => spans.map((span) => ({ name, span, bucket: bucketOf(sum.bucket, span) })))
}

/** The start of the `spanSeconds` bucket holding `timeMs`, in milliseconds since the epoch. */
function bucketOf(timeMs: number, spanSeconds: number): number {
  const span = spanSeconds * 1000
  return Math.floor(timeMs / span) * span
}

/**
 * The results ruleFailuresSql (migration 004) counts: entries of `output.results` whose status is
 * fail or error and that name a ruleset and a rule; anything else in an output counts for nothing.
 */
function failingRulesOf(output: unknown): { ruleset: string; rule: string }[] {
  if (typeof output !== 'object' || output === null) return []
  const results: unknown = (output as { results?: unknown }).results
  if (!Array.isArray(results)) return []
  const failing: { ruleset: string; rule: string }[] = []
  for (const result of results as unknown[]) {
    if (typeof result !== 'object' || result === null) continue
    const { status, ruleset, rule } = result as { status?: unknown; ruleset?: unknown; rule?: unknown }
    if (status !== 'fail' && status !== 'error') continue
    const rulesetText = jsonScalarText(ruleset)
    const ruleText = jsonScalarText(rule)
    if (rulesetText !== undefined && ruleText !== undefined) failing.push({ ruleset: rulesetText, rule: ruleText })
  }
  return failing
}

/**
 * What jsonb's `->>` gives for a value of the output as stored (storableJson): strings made
 * storable, JSON null as SQL NULL (undefined here).
 */
function jsonScalarText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined
  return storableText(typeof value === 'string' ? value : JSON.stringify(value))
}

/**
 * Statements that rebuild every counter of migrations 002 and 004 from the audit rows, in one
 * transaction: for rows that came in by other means than the writer (a bulk load, a restore of
 * the audit tables alone), which nothing counted.
 */
export function recountAuditsStatements(): string[] {
  const bucket = (time: string) => `date_bin(make_interval(secs => s.span), ${time}, TIMESTAMPTZ '1970-01-01 00:00:00+00')`
  const spans = (list: readonly number[]) => `(VALUES ${list.map((span) => `(${span})`).join(', ')}) AS s(span)`
  return (['policy', 'ruleset'] as const).flatMap((kind) => {
    const table = `${kind}_audits`
    const nameColumn = `${kind}_name` as const
    return [
      `DELETE FROM ${kind}_audit_counts`,
      `INSERT INTO ${kind}_audit_counts (name, span, bucket, audits, failed)
       SELECT n.name, s.span, ${bucket('r.updated_at')}, count(*), count(*) FILTER (WHERE NOT r.passed)
       FROM ${table} r CROSS JOIN ${spans(COUNT_SPANS_SECONDS)} CROSS JOIN LATERAL (VALUES (r.${nameColumn}), ('')) AS n(name)
       GROUP BY 1, 2, 3`,
      `DELETE FROM ${kind}_rule_failure_counts`,
      `INSERT INTO ${kind}_rule_failure_counts (name, span, bucket, ruleset, rule, failures)
       SELECT n.name, s.span, ${bucket('f.updated_at')}, f.ruleset, f.rule, count(*)
       FROM (${ruleFailuresSql(table, nameColumn)}) AS f CROSS JOIN ${spans(RULE_FAILURE_SPANS_SECONDS)} CROSS JOIN LATERAL (VALUES (f.name), ('')) AS n(name)
       GROUP BY 1, 2, 3, 4, 5`,
    ]
  })
}

/** Rebuilds the counters from the rows (recountAuditsStatements), in one transaction. */
export async function recountAudits(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    for (const statement of recountAuditsStatements()) await tx.query(statement)
  })
}
