import type { Queryable } from './db.js'
import type { AuditPageQuery, AuditRange, AuditSource, InputFormat } from './audit-records.js'
import { planAuditCount } from './audit-count-plan.js'
import { counterNameCondition, nameCondition, nameSelector } from './name-pattern.js'
import { auditCountIncrements } from './audit-counters.js'
import { storableJson } from './storable-text.js'
import type { TextPayload } from './text-payload.js'
import { isoTimestamp, timestampParam, timestampParams } from './timestamps.js'

/** What both audit tables hold, whatever their name column is called. */
export interface AuditInsert {
  requestId: string
  name: string
  /** Null when the row shares the input its request id's first row gave (see insertSql). */
  input: string | null
  inputFormat: InputFormat
  output: { passed: boolean }
  passed?: boolean
  updatedBy: string
  updatedAt?: Date
  source?: AuditSource
}

export interface StoredAuditRow {
  request_id: string
  name: string
  input: string
  input_format: string
  output: unknown
  updated_at: Date
  updated_by: string
}

/**
 * The SQL for policy_audits and ruleset_audits, which differ only in the name column.
 * Queries are shaped for the indexes and day partitions of migration 007 and the counters of 002 (see there).
 */
export class AuditTable {
  readonly #select: string
  readonly #counters: string

  constructor(
    readonly table: 'policy_audits' | 'ruleset_audits',
    readonly nameColumn: 'policy_name' | 'ruleset_name',
  ) {
    this.#counters = table === 'policy_audits' ? 'policy_audit_counts' : 'ruleset_audit_counts'
    this.#select =
      `SELECT a.request_id, a.${nameColumn} AS name, coalesce(a.input, i.input) AS input, a.input_format, a.output, a.updated_at, a.updated_by ` +
      `FROM ${table} a LEFT JOIN audit_inputs i ON a.input IS NULL AND i.request_id = a.request_id AND i.stored_at = a.updated_at`
  }

  /**
   * An INSERT of any number of rows whose columns travel as eleven array parameters numbered from
   * `first`, so the statement text and parameter count stay fixed however large the batch (no
   * 65,535-parameter ceiling, one prepared statement). Inputs and outputs are cut from the bytea
   * `payload` parameter (text-payload.ts) by byte offset and length. WITH ORDINALITY keeps ids in
   * the order given. A row's input is NULL when `storedInputs` (request_id, stored_at) holds its
   * request id and time and the row shares that input (no input of its own); without a stored
   * input, it takes the text from `givenInputs` (request_id, at, input).
   */
  insertSql(first: number, payload: string, storedInputs: string, givenInputs: string): string {
    const p = (offset: number) => `$${first + offset}`
    return `INSERT INTO ${this.table} (request_id, ${this.nameColumn}, input, input_format, output, passed, updated_by, updated_at, source)
       SELECT u.r, u.n,
              CASE WHEN u.io IS NOT NULL THEN convert_from(substring(${payload} FROM u.io FOR u.il), 'UTF8')
                   WHEN (u.r, u.t) IN (SELECT request_id, stored_at FROM ${storedInputs}) THEN NULL
                   ELSE (SELECT g.input FROM ${givenInputs} g WHERE g.request_id = u.r AND g.at = u.t) END,
              u.f, convert_from(substring(${payload} FROM u.oo FOR u.ol), 'UTF8')::jsonb, u.p, u.b, u.t, u.s
       FROM unnest(${p(0)}::text[], ${p(1)}::text[], ${p(2)}::int[], ${p(3)}::int[], ${p(4)}::text[], ${p(5)}::int[], ${p(6)}::int[],
                   ${p(7)}::boolean[], ${p(8)}::text[], ${p(9)}::timestamptz[], ${p(10)}::text[])
            WITH ORDINALITY AS u(r, n, io, il, f, oo, ol, p, b, t, s, ord)
       ORDER BY u.ord`
  }

  /**
   * The eleven array parameters of insertSql, in order, the texts added to `payload`. The text
   * columns arrive storable (storable-audit-rows.ts); the output is made so here, as it is
   * turned into JSON text. Every row has its time by now (insertAudits stamps those without).
   */
  insertParams(rows: readonly (AuditInsert & { updatedAt: Date })[], payload: TextPayload): unknown[] {
    const inputs = rows.map((row) => (row.input === null ? undefined : payload.add(row.input)))
    const outputs = rows.map((row) => payload.add(storableJson(row.output)))
    return [
      rows.map((row) => row.requestId),
      rows.map((row) => row.name),
      inputs.map((input) => input?.offset ?? null),
      inputs.map((input) => input?.length ?? null),
      rows.map((row) => row.inputFormat),
      outputs.map((output) => output.offset),
      outputs.map((output) => output.length),
      rows.map((row) => row.passed ?? row.output.passed),
      rows.map((row) => row.updatedBy),
      timestampParams(rows.map((row) => row.updatedAt)),
      rows.map((row) => row.source ?? 'api'),
    ]
  }

  /**
   * The counter upserts for `increments` (audit-counters.ts), as two data-modifying CTE bodies
   * with five and six array parameters from `first`. Rows go in primary key order, so writers
   * committing at once lock counter rows in one order and cannot deadlock.
   */
  counterUpsertsSql(first: number): { counts: string; ruleFailures: string } {
    const p = (offset: number) => `$${first + offset}`
    const failures = this.#counters.replace('_audit_counts', '_rule_failure_counts')
    return {
      counts: `INSERT INTO ${this.#counters} AS c (name, span, bucket, audits, failed)
       SELECT * FROM unnest(${p(0)}::text[], ${p(1)}::int[], ${p(2)}::timestamptz[], ${p(3)}::bigint[], ${p(4)}::bigint[]) AS u(name, span, bucket, audits, failed)
       ORDER BY name COLLATE "C", span, bucket
       ON CONFLICT (name, span, bucket) DO UPDATE SET audits = c.audits + excluded.audits, failed = c.failed + excluded.failed`,
      ruleFailures: `INSERT INTO ${failures} AS c (name, span, bucket, ruleset, rule, failures)
       SELECT * FROM unnest(${p(5)}::text[], ${p(6)}::int[], ${p(7)}::timestamptz[], ${p(8)}::text[], ${p(9)}::text[], ${p(10)}::bigint[]) AS u(name, span, bucket, ruleset, rule, failures)
       ORDER BY name COLLATE "C", span, bucket, ruleset COLLATE "C", rule COLLATE "C"
       ON CONFLICT (name, span, bucket, ruleset, rule) DO UPDATE SET failures = c.failures + excluded.failures`,
    }
  }

  /** The eleven array parameters of counterUpsertsSql for these rows. */
  counterParams(rows: readonly (AuditInsert & { updatedAt: Date })[]): unknown[] {
    const { counts, ruleFailures } = auditCountIncrements(
      rows.map((row) => ({ name: row.name, updatedAt: row.updatedAt, passed: row.passed ?? row.output.passed, output: row.output })),
    )
    return [
      counts.names,
      counts.spans,
      counts.buckets,
      counts.audits,
      counts.failed,
      ruleFailures.names,
      ruleFailures.spans,
      ruleFailures.buckets,
      ruleFailures.rulesets,
      ruleFailures.rules,
      ruleFailures.failures,
    ]
  }

  /**
   * Newest first, ties broken by id. The page's ids are found first from the index alone, then
   * only those rows are read: OFFSET skips index entries rather than whole (large) audit rows,
   * which keeps deep pages cheap.
   */
  async page(q: Queryable, query: AuditPageQuery): Promise<StoredAuditRow[]> {
    checkPaging(query)
    const params: unknown[] = []
    const where = this.#where(query, params)
    // page * pageSize can pass 2^53 while still fitting int8, so the offset is computed exactly.
    params.push(query.pageSize, String((BigInt(query.page) - 1n) * BigInt(query.pageSize)))
    const result = await q.query<StoredAuditRow>(
      `${this.#select}
       JOIN (SELECT updated_at, id FROM ${this.table} WHERE ${where}
             ORDER BY updated_at DESC, id DESC LIMIT $${params.length - 1} OFFSET $${params.length}) page ON page.updated_at = a.updated_at AND page.id = a.id
       ORDER BY a.updated_at DESC, a.id DESC`,
      params,
    )
    return result.rows
  }

  /**
   * Whole hours and minutes come from the counters (migrations 002, 007); only rows in
   * the partial minutes at the two edges are counted from the audit table. One statement, so
   * counters and rows are read from one snapshot.
   */
  async count(q: Queryable, range: AuditRange): Promise<number> {
    const selector = nameSelector(range.name)
    const plan = planAuditCount(range.start, range.end)
    const params: unknown[] = []
    const parts: string[] = []
    for (const buckets of plan.buckets) {
      const name = counterNameCondition(selector, params)
      params.push(buckets.spanSeconds, timestampParam(buckets.from), timestampParam(buckets.to))
      const n = params.length
      parts.push(`(SELECT coalesce(sum(audits), 0) FROM ${this.#counters} WHERE ${name} AND span = $${n - 2} AND bucket >= $${n - 1} AND bucket < $${n})`)
    }
    for (const raw of plan.raw) {
      const name = nameCondition(this.nameColumn, selector, params)
      params.push(timestampParam(raw.from), timestampParam(raw.to))
      const n = params.length
      parts.push(`(SELECT count(*) FROM ${this.table} WHERE ${name} AND updated_at >= $${n - 1} AND updated_at ${raw.toInclusive ? '<=' : '<'} $${n})`)
    }
    if (parts.length === 0) return 0
    const result = await q.query<{ count: number | bigint }>(`SELECT (${parts.join(' + ')})::bigint AS count`, params)
    return Number(result.rows[0]?.count ?? 0)
  }

  /** In the order written, which for a policy evaluation is the order its rulesets were applied. */
  async byRequestId(q: Queryable, requestId: string): Promise<StoredAuditRow[]> {
    const result = await q.query<StoredAuditRow>(`${this.#select} WHERE a.request_id = $1 ORDER BY a.id`, [requestId])
    return result.rows
  }

  #where(range: AuditRange & { source?: AuditSource; passed?: boolean }, params: unknown[]): string {
    const name = nameCondition(this.nameColumn, nameSelector(range.name), params)
    params.push(timestampParam(range.start), timestampParam(range.end))
    let where = `${name} AND updated_at >= $${params.length - 1} AND updated_at <= $${params.length}`
    if (range.source !== undefined) {
      params.push(range.source)
      where += ` AND source = $${params.length}`
    }
    if (range.passed !== undefined) {
      params.push(range.passed)
      where += ` AND passed = $${params.length}`
    }
    return where
  }
}

export function updatedAtOf(row: StoredAuditRow): string {
  return isoTimestamp(row.updated_at)
}

function checkPaging(query: AuditPageQuery): void {
  if (!Number.isSafeInteger(query.page) || query.page < 1) throw new RangeError(`page must be an integer >= 1, got ${query.page}`)
  if (!Number.isSafeInteger(query.pageSize) || query.pageSize < 1) throw new RangeError(`pageSize must be an integer >= 1, got ${query.pageSize}`)
}
