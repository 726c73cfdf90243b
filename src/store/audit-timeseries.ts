import type { AuditRange } from './audit-records.js'
import { planAuditCount } from './audit-count-plan.js'
import type { Db } from './db.js'
import { COUNT_SPANS_SECONDS } from './migrations/002-audit-counts.js'
import { RULE_FAILURE_SPANS_SECONDS, ruleFailuresSql } from './migrations/004-audit-timeseries.js'
import { counterNameCondition, nameCondition, nameSelector } from './name-pattern.js'
import { isoTimestamp, timestampParam } from './timestamps.js'

/** Audits of `name` (exact, `*` or a glob) from `start` to `end` (both inclusive), in buckets of `intervalSeconds`. */
export interface TimeseriesQuery extends AuditRange {
  /** A whole number of minutes, in seconds: buckets must be unions of minute counters. */
  intervalSeconds: number
}

/** One bucket: `start` is ISO 8601 UTC with milliseconds, a multiple of the interval since the Unix epoch. */
export interface TimeseriesBucket {
  start: string
  total: number
  passed: number
  failed: number
}

export interface FailingRule {
  ruleset: string
  rule: string
  failures: number
}

export interface AuditTimeseries {
  buckets: TimeseriesBucket[]
  topFailingRules: FailingRule[]
}

/** How many rules `topFailingRules` lists at most. */
export const TOP_FAILING_RULES = 10

/** The most buckets one query answers (the API refuses more with a 400 before asking). */
export const MAX_TIMESERIES_BUCKETS = 10_000

/** The buckets [start, end] touches: from the one holding `start` to the one holding `end`. */
export function timeseriesBuckets(start: Date, end: Date, intervalSeconds: number): { first: Date; last: Date; count: number } {
  const interval = intervalSeconds * 1000
  const first = Math.floor(start.getTime() / interval) * interval
  const last = Math.floor(end.getTime() / interval) * interval
  return { first: new Date(first), last: new Date(last), count: (last - first) / interval + 1 }
}

const EPOCH = "TIMESTAMPTZ '1970-01-01 00:00:00+00'"

/** Appends values to a statement's parameters and names them `$n`. */
class Params {
  readonly values: unknown[] = []

  add(value: unknown): string {
    this.values.push(value)
    return `$${this.values.length}`
  }
}

/**
 * Timeseries of one audit table, from the counters of migrations 002 and 004 (see there). A
 * counter bucket whose span divides the interval lies inside exactly one interval bucket (both
 * are aligned to the epoch), so the range is split as for a count, using only those spans: whole
 * hours (when the interval is a whole number of hours) and minutes come from counters, and only
 * the rows of the two partial minutes at the edges are read from the audit table. The top failing
 * rules use every span of their counters (days too), as the interval does not matter for them. One statement, so buckets and rules are read
 * from one snapshot. Buckets are the intersection of each interval with [start, end]: the first
 * and last count only what lies inside the range.
 */
export class AuditTimeseriesTable {
  readonly #counts: string
  readonly #failures: string

  constructor(
    readonly table: 'policy_audits' | 'ruleset_audits',
    readonly nameColumn: 'policy_name' | 'ruleset_name',
  ) {
    this.#counts = table.replace('_audits', '_audit_counts')
    this.#failures = table.replace('_audits', '_rule_failure_counts')
  }

  /**
   * Parallel workers are turned off for the statement: it reads a few thousand counter rows at
   * most, but the planner, overestimating these range scans, starts workers for month-long
   * ranges, and starting them took 10-15 ms on two cores against 2-4 ms for the whole query.
   * SET LOCAL needs a transaction, hence a Db rather than any Queryable.
   */
  async query(db: Db, query: TimeseriesQuery): Promise<AuditTimeseries> {
    checkQuery(query)
    const params = new Params()
    const sql = this.#sql(query, params)
    const result = await db.transaction(async (tx) => {
      await tx.query('SET LOCAL max_parallel_workers_per_gather = 0')
      return tx.query<TimeseriesRow>(sql, params.values)
    })
    const timeseries: AuditTimeseries = { buckets: [], topFailingRules: [] }
    for (const row of result.rows) {
      const total = Number(row.total)
      if (row.part === 0) {
        const failed = Number(row.failed)
        timeseries.buckets.push({ start: isoTimestamp(new Date(Number(row.start))), total, passed: total - failed, failed })
      } else {
        timeseries.topFailingRules.push({ ruleset: row.ruleset ?? '', rule: row.rule ?? '', failures: total })
      }
    }
    return timeseries
  }

  /**
   * Two result shapes in one statement: part 0 the buckets in time order (every one, from
   * generate_series, empty ones as zeros; start in epoch milliseconds), part 1 the top rules. Rule names compare in byte
   * order ("C"), as names do everywhere in the store.
   */
  #sql(query: TimeseriesQuery, params: Params): string {
    const interval = `make_interval(secs => ${params.add(query.intervalSeconds)})`
    const series = timeseriesBuckets(query.start, query.end, query.intervalSeconds)
    return `WITH pieces (at, audits, failed) AS (
         ${this.#countPieces(query, params).join('\n         UNION ALL ')}
       ), binned AS (
         SELECT date_bin(${interval}, at, ${EPOCH}) AS start, sum(audits) AS audits, sum(failed) AS failed FROM pieces GROUP BY 1
       ), rule_pieces (ruleset, rule, failures) AS (
         ${this.#rulePieces(query, params).join('\n         UNION ALL ')}
       ), top_rules AS (
         SELECT ruleset COLLATE "C" AS ruleset, rule COLLATE "C" AS rule, sum(failures) AS failures FROM rule_pieces GROUP BY 1, 2
         ORDER BY failures DESC, ruleset, rule LIMIT ${TOP_FAILING_RULES}
       )
       SELECT 0 AS part, (extract(epoch FROM s.start) * 1000)::float8 AS start, coalesce(b.audits, 0)::bigint AS total, coalesce(b.failed, 0)::bigint AS failed, NULL::text AS ruleset, NULL::text AS rule
       FROM generate_series(${params.add(timestampParam(series.first))}::timestamptz, ${params.add(timestampParam(series.last))}::timestamptz, ${interval}) AS s(start)
       LEFT JOIN binned b ON b.start = s.start
       UNION ALL
       SELECT 1, NULL, failures::bigint, NULL, ruleset, rule FROM top_rules
       ORDER BY part, start, total DESC, ruleset, rule`
  }

  /** (time, audits, failed): counter buckets of the spans dividing the interval, and the edge rows one by one. */
  #countPieces(query: TimeseriesQuery, params: Params): string[] {
    const selector = nameSelector(query.name)
    const plan = planAuditCount(query.start, query.end, COUNT_SPANS_SECONDS.filter((span) => query.intervalSeconds % span === 0))
    return [
      ...plan.buckets.map(
        (buckets) => `SELECT bucket, audits, failed FROM ${this.#counts}
         WHERE ${counterNameCondition(selector, params.values)} AND span = ${params.add(buckets.spanSeconds)}
           AND bucket >= ${params.add(timestampParam(buckets.from))} AND bucket < ${params.add(timestampParam(buckets.to))}`,
      ),
      ...plan.raw.map(
        (raw) => `SELECT updated_at, 1::bigint, (NOT passed)::int::bigint FROM ${this.table}
         WHERE ${nameCondition(this.nameColumn, selector, params.values)}
           AND updated_at >= ${params.add(timestampParam(raw.from))} AND updated_at ${raw.toInclusive ? '<=' : '<'} ${params.add(timestampParam(raw.to))}`,
      ),
    ]
  }

  /** (ruleset, rule, failures): counter buckets of every span, and the failing results of the edge rows. */
  #rulePieces(query: TimeseriesQuery, params: Params): string[] {
    const selector = nameSelector(query.name)
    const plan = planAuditCount(query.start, query.end, RULE_FAILURE_SPANS_SECONDS)
    return [
      ...plan.buckets.map(
        (buckets) => `SELECT ruleset, rule, failures FROM ${this.#failures}
         WHERE ${counterNameCondition(selector, params.values)} AND span = ${params.add(buckets.spanSeconds)}
           AND bucket >= ${params.add(timestampParam(buckets.from))} AND bucket < ${params.add(timestampParam(buckets.to))}`,
      ),
      ...plan.raw.map((raw) => {
        const where =
          `${nameCondition(`r.${this.nameColumn}`, selector, params.values)} AND r.updated_at >= ${params.add(timestampParam(raw.from))}` +
          ` AND r.updated_at ${raw.toInclusive ? '<=' : '<'} ${params.add(timestampParam(raw.to))}`
        return `SELECT f.ruleset, f.rule, 1::bigint FROM (${ruleFailuresSql(this.table, this.nameColumn, where)}) AS f`
      }),
    ]
  }
}

interface TimeseriesRow {
  part: number
  /**
   * Milliseconds since the epoch: a driver that parses timestamp text itself may read years
   * 0001-0099 as 1901-1999 (PGlite does), and the API accepts ranges from year 0001.
   */
  start: number | null
  total: number | bigint
  failed: number | bigint | null
  ruleset: string | null
  rule: string | null
}

function checkQuery(query: TimeseriesQuery): void {
  const { intervalSeconds } = query
  if (!Number.isSafeInteger(intervalSeconds) || intervalSeconds < 60 || intervalSeconds % 60 !== 0) {
    throw new RangeError(`intervalSeconds must be a positive whole number of minutes, got ${intervalSeconds}`)
  }
  if (query.start.getTime() > query.end.getTime()) {
    throw new RangeError(`start ${query.start.toISOString()} is after end ${query.end.toISOString()}`)
  }
  const { count } = timeseriesBuckets(query.start, query.end, intervalSeconds)
  if (count > MAX_TIMESERIES_BUCKETS) throw new RangeError(`the range holds ${count} buckets of ${intervalSeconds} s, more than ${MAX_TIMESERIES_BUCKETS}`)
}

const policyTimeseries = new AuditTimeseriesTable('policy_audits', 'policy_name')
const rulesetTimeseries = new AuditTimeseriesTable('ruleset_audits', 'ruleset_name')

/** Policy audits per bucket and the rules failing most in policy audits; `name` is exact, `*` or a glob. */
export function policyAuditTimeseries(db: Db, query: TimeseriesQuery): Promise<AuditTimeseries> {
  return policyTimeseries.query(db, query)
}

export function rulesetAuditTimeseries(db: Db, query: TimeseriesQuery): Promise<AuditTimeseries> {
  return rulesetTimeseries.query(db, query)
}
