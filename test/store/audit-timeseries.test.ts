import { describe, expect, it } from 'vitest'
import type { RuleResult } from '../../src/engine/results/rule-result.js'
import {
  policyAuditTimeseries,
  rulesetAuditTimeseries,
  type AuditTimeseries,
  type TimeseriesQuery,
} from '../../src/store/audit-timeseries.js'
import { insertAudits, type AuditRows, type PolicyAuditRow, type RulesetAuditRow } from '../../src/store/audits-repository.js'
import type { Db, Queryable } from '../../src/store/db.js'
import { migrate } from '../../src/store/migrate.js'
import { MIGRATIONS } from '../../src/store/migrations/index.js'
import { PostgresDb } from '../../src/store/postgres-db.js'
import { createTestDatabase, resetTestDatabase, testDatabases, useTestDatabase } from '../support/databases.js'

const MINUTE = 60
const HOUR = 3600
const DAY = 86_400
const t = (iso: string) => new Date(`2026-11-21T${iso}Z`)

type Failure = [ruleset: string, rule: string, status?: RuleResult['status']]

function result([ruleset, rule, status = 'fail']: Failure): RuleResult {
  return { ruleset, rule, status, severity: 'medium', message: `${rule} says no` }
}

/** A policy audit whose output lists `results`; it failed when one of them is a fail (errors may be ignored). */
function policyRow(requestId: string, policyName: string, updatedAt: Date, results: Failure[] = [], passed?: boolean): PolicyAuditRow {
  const outcomes = results.map(result)
  return {
    requestId,
    policyName,
    input: '{"kind":"Pod"}',
    inputFormat: 'json',
    output: { policy: policyName, passed: passed ?? !outcomes.some((r) => r.status === 'fail'), results: outcomes },
    updatedBy: 'alice@example.com',
    updatedAt,
  }
}

function rulesetRow(requestId: string, rulesetName: string, updatedAt: Date, results: Failure[] = []): RulesetAuditRow {
  const outcomes = results.map(result)
  return {
    requestId,
    rulesetName,
    input: '{"kind":"Pod"}',
    inputFormat: 'json',
    output: { ruleset: rulesetName, passed: outcomes.length === 0, results: outcomes },
    updatedBy: 'alice@example.com',
    updatedAt,
  }
}

const bucket = (start: string, total: number, failed: number) => ({ start: `2026-11-21T${start}Z`, total, passed: total - failed, failed })

/**
 * The answer computed from the rows alone, as the API defines it: every interval bucket from the
 * one holding start to the one holding end, counting the rows inside [start, end]; the ten rules
 * with most fail or error results, ties by ruleset then rule.
 */
function oracle(rows: readonly PolicyAuditRow[], query: TimeseriesQuery): AuditTimeseries {
  const interval = query.intervalSeconds * 1000
  const matches = globMatcher(query.name)
  const inRange = rows.filter(
    (row) => matches(row.policyName) && (row.updatedAt?.getTime() ?? 0) >= query.start.getTime() && (row.updatedAt?.getTime() ?? 0) <= query.end.getTime(),
  )
  const first = Math.floor(query.start.getTime() / interval) * interval
  const last = Math.floor(query.end.getTime() / interval) * interval
  const buckets = []
  for (let start = first; start <= last; start += interval) {
    const inside = inRange.filter((row) => Math.floor((row.updatedAt?.getTime() ?? 0) / interval) * interval === start)
    const failed = inside.filter((row) => !row.output.passed).length
    buckets.push({ start: new Date(start).toISOString(), total: inside.length, passed: inside.length - failed, failed })
  }
  const failures = new Map<string, number>()
  for (const row of inRange) {
    for (const entry of row.output.results) {
      if (entry.status !== 'fail' && entry.status !== 'error') continue
      const key = JSON.stringify([entry.ruleset, entry.rule])
      failures.set(key, (failures.get(key) ?? 0) + 1)
    }
  }
  const topFailingRules = [...failures]
    .map(([key, count]) => {
      const [ruleset, rule] = JSON.parse(key) as [string, string]
      return { ruleset, rule, failures: count }
    })
    .sort((a, b) => b.failures - a.failures || byteOrder(a.ruleset, b.ruleset) || byteOrder(a.rule, b.rule))
    .slice(0, 10)
  return { buckets, topFailingRules }
}

function globMatcher(name: string): (candidate: string) => boolean {
  if (/^\*+$/.test(name)) return () => true
  const pattern = new RegExp(`^${[...name].map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&'))).join('')}$`, 's')
  return (candidate) => pattern.test(candidate)
}

function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b))
}

/** A deterministic spread of rows over three hours around hour and minute boundaries, with failing rules. */
function spread(count: number, seed = 11): PolicyAuditRow[] {
  let state = seed
  const random = () => (state = (state * 48271) % 2147483647) / 2147483647
  const names = ['prod-web', 'prod-db', 'dev-web']
  const rules: Failure[] = [
    ['pods', 'no-latest'],
    ['pods', 'team-label'],
    ['pods', 'privileged'],
    ['images', 'registry'],
    ['images', 'digest'],
    ['network', 'egress'],
  ]
  const base = Date.UTC(2026, 10, 21, 6, 0)
  return Array.from({ length: count }, (_, index) => {
    const results: Failure[] = []
    rules.forEach(([ruleset, rule], rank) => {
      // Skewed so the counts differ: earlier rules fail more often; a few results are errors, a few verbose passes.
      const draw = random()
      if (draw < 0.3 / (rank + 1)) results.push([ruleset, rule, draw < 0.02 ? 'error' : 'fail'])
      else if (draw > 0.97) results.push([ruleset, rule, 'pass'])
    })
    // Some policies have failurePolicy Ignore: their errors are listed but do not fail them.
    const ignoreErrors = random() > 0.8
    const passed = !results.some(([, , status]) => status === 'fail' || (status === 'error' && !ignoreErrors))
    return policyRow(`spread-${index}`, names[index % 3] as string, new Date(base + Math.floor(random() * 3 * 3600 * 1000)), results, passed)
  })
}

const RANGES: Array<[string, string]> = [
  ['2026-11-21T06:00:00.000Z', '2026-11-21T09:00:00.000Z'],
  ['2026-11-21T06:17:31.123Z', '2026-11-21T08:44:02.999Z'],
  ['2026-11-21T06:59:59.999Z', '2026-11-21T07:00:00.001Z'],
  ['2026-11-21T07:00:00.000Z', '2026-11-21T07:59:59.999Z'],
  ['2026-11-21T07:30:00.000Z', '2026-11-21T07:31:00.000Z'],
  ['2026-11-21T08:10:00.000Z', '2026-11-21T08:10:00.000Z'],
  ['2026-11-20T23:00:00.000Z', '2026-11-22T01:00:00.000Z'],
]
const INTERVALS = [MINUTE, 5 * MINUTE, 7 * MINUTE, HOUR, 90 * MINUTE, DAY]
const NAMES = ['prod-web', '*', 'prod-*', '*-web', 'nothing']

async function expectOracle(q: Db, rows: readonly PolicyAuditRow[]): Promise<void> {
  for (const [from, to] of RANGES) {
    for (const intervalSeconds of INTERVALS) {
      for (const name of NAMES) {
        const query = { name, start: new Date(from), end: new Date(to), intervalSeconds }
        expect(await policyAuditTimeseries(q, query), `${name} ${from}..${to} by ${intervalSeconds} s`).toEqual(oracle(rows, query))
      }
    }
  }
}

describe.each(testDatabases())('audit timeseries ($kind)', ({ kind }) => {
  const database = useTestDatabase(kind)

  it('answers every bucket of the range in order, aligned to the epoch, empty ones as zeros', async () => {
    await resetTestDatabase(database.db)
    await insertAudits(database.db, {
      policyAudits: [
        policyRow('a', 'prod-web', t('07:00:10.000')),
        policyRow('b', 'prod-web', t('07:05:00.000'), [['pods', 'no-latest']]),
        policyRow('c', 'prod-web', t('07:59:59.999'), [['pods', 'no-latest'], ['pods', 'team-label']]),
        policyRow('d', 'prod-web', t('09:30:00.000')),
        policyRow('e', 'prod-db', t('07:10:00.000'), [['db', 'backups']]),
      ],
      rulesetAudits: [],
    })
    const answer = await policyAuditTimeseries(database.db, { name: 'prod-web', start: t('06:30:00.000'), end: t('09:45:00.000'), intervalSeconds: HOUR })
    expect(answer).toEqual({
      buckets: [bucket('06:00:00.000', 0, 0), bucket('07:00:00.000', 3, 2), bucket('08:00:00.000', 0, 0), bucket('09:00:00.000', 1, 0)],
      topFailingRules: [
        { ruleset: 'pods', rule: 'no-latest', failures: 2 },
        { ruleset: 'pods', rule: 'team-label', failures: 1 },
      ],
    })
    expect(Object.keys(answer.buckets[0] ?? {})).toEqual(['start', 'total', 'passed', 'failed'])
    expect(Object.keys(answer.topFailingRules[0] ?? {})).toEqual(['ruleset', 'rule', 'failures'])

    // 7 minutes does not divide an hour: buckets still start at multiples of 7 minutes since 1970.
    const sevens = await policyAuditTimeseries(database.db, { name: 'prod-web', start: t('07:00:00.000'), end: t('07:20:00.000'), intervalSeconds: 7 * MINUTE })
    expect(sevens.buckets).toEqual([bucket('06:57:00.000', 1, 0), bucket('07:04:00.000', 1, 1), bucket('07:11:00.000', 0, 0), bucket('07:18:00.000', 0, 0)])

    const days = await policyAuditTimeseries(database.db, { name: '*', start: new Date('2026-11-20T12:00:00Z'), end: new Date('2026-11-22T00:00:00Z'), intervalSeconds: DAY })
    expect(days.buckets).toEqual([
      { start: '2026-11-20T00:00:00.000Z', total: 0, passed: 0, failed: 0 },
      { start: '2026-11-21T00:00:00.000Z', total: 5, passed: 2, failed: 3 },
      { start: '2026-11-22T00:00:00.000Z', total: 0, passed: 0, failed: 0 },
    ])
    expect(days.topFailingRules).toEqual([
      { ruleset: 'pods', rule: 'no-latest', failures: 2 },
      { ruleset: 'db', rule: 'backups', failures: 1 },
      { ruleset: 'pods', rule: 'team-label', failures: 1 },
    ])

    const nothing = await policyAuditTimeseries(database.db, { name: 'nothing', start: t('07:00:00.000'), end: t('07:02:00.000'), intervalSeconds: MINUTE })
    expect(nothing).toEqual({ buckets: [bucket('07:00:00.000', 0, 0), bucket('07:01:00.000', 0, 0), bucket('07:02:00.000', 0, 0)], topFailingRules: [] })
  })

  it('counts only what lies inside the range in the first and last buckets, both ends inclusive', async () => {
    await resetTestDatabase(database.db)
    await insertAudits(database.db, {
      policyAudits: [
        policyRow('early', 'p', t('07:00:29.999'), [['r', 'x']]),
        policyRow('start', 'p', t('07:00:30.000'), [['r', 'x']]),
        policyRow('mid', 'p', t('07:30:00.000')),
        policyRow('end', 'p', t('07:59:30.000'), [['r', 'y']]),
        policyRow('late', 'p', t('07:59:30.001'), [['r', 'y']]),
      ],
      rulesetAudits: [],
    })
    const answer = await policyAuditTimeseries(database.db, { name: 'p', start: t('07:00:30.000'), end: t('07:59:30.000'), intervalSeconds: 30 * MINUTE })
    expect(answer).toEqual({
      buckets: [bucket('07:00:00.000', 1, 1), bucket('07:30:00.000', 2, 1)],
      topFailingRules: [
        { ruleset: 'r', rule: 'x', failures: 1 },
        { ruleset: 'r', rule: 'y', failures: 1 },
      ],
    })
    const instant = await policyAuditTimeseries(database.db, { name: 'p', start: t('07:59:30.000'), end: t('07:59:30.000'), intervalSeconds: MINUTE })
    expect(instant).toEqual({ buckets: [bucket('07:59:00.000', 1, 1)], topFailingRules: [{ ruleset: 'r', rule: 'y', failures: 1 }] })
  })

  it('lists the ten rules failing most: fail and error results, ties by ruleset then rule in byte order', async () => {
    await resetTestDatabase(database.db)
    // rule-NN fails NN times for NN = 1..12, except that three rules tie at 5; B sorts before a.
    const failures: Array<[Failure, number]> = [
      ...Array.from({ length: 12 }, (_, index): [Failure, number] => [['set', `rule-${String(index + 1).padStart(2, '0')}`], index + 1]),
      [['set', 'B-tie'], 5],
      [['set', 'a-tie'], 5],
      [['other', 'z-tie'], 5],
    ]
    const rows: PolicyAuditRow[] = []
    for (const [failure, times] of failures) {
      for (let i = 0; i < times; i += 1) rows.push(policyRow(`${failure[1]}-${i}`, 'p', t(`07:${String(i).padStart(2, '0')}:00.000`), [failure]))
    }
    rows.push(
      policyRow('errors', 'p', t('07:30:00.000'), [['set', 'rule-01', 'error'], ['set', 'rule-01', 'error']], false),
      // failurePolicy Ignore: the policy passed, yet the rule errored.
      policyRow('ignored', 'p', t('07:31:00.000'), [['set', 'rule-01', 'error']], true),
      policyRow('verbose', 'p', t('07:32:00.000'), [['set', 'rule-00', 'pass'], ['set', 'rule-00', 'skip']]),
    )
    await insertAudits(database.db, { policyAudits: rows, rulesetAudits: [] })
    const answer = await policyAuditTimeseries(database.db, { name: 'p', start: t('00:00:00.000'), end: t('23:59:59.999'), intervalSeconds: DAY })
    expect(answer.topFailingRules).toEqual([
      { ruleset: 'set', rule: 'rule-12', failures: 12 },
      { ruleset: 'set', rule: 'rule-11', failures: 11 },
      { ruleset: 'set', rule: 'rule-10', failures: 10 },
      { ruleset: 'set', rule: 'rule-09', failures: 9 },
      { ruleset: 'set', rule: 'rule-08', failures: 8 },
      { ruleset: 'set', rule: 'rule-07', failures: 7 },
      { ruleset: 'set', rule: 'rule-06', failures: 6 },
      { ruleset: 'other', rule: 'z-tie', failures: 5 },
      { ruleset: 'set', rule: 'B-tie', failures: 5 },
      { ruleset: 'set', rule: 'a-tie', failures: 5 },
    ])
    const all = rows.length
    expect(answer.buckets).toEqual([{ start: '2026-11-21T00:00:00.000Z', total: all, passed: 2, failed: all - 2 }])
    const early = await policyAuditTimeseries(database.db, { name: 'p', start: t('07:30:00.000'), end: t('07:31:00.000'), intervalSeconds: MINUTE })
    expect(early.topFailingRules).toEqual([{ ruleset: 'set', rule: 'rule-01', failures: 3 }])
  })

  it('selects exact names, * and globs, with % and _ as plain characters', async () => {
    await resetTestDatabase(database.db)
    const at = t('07:00:00.000')
    await insertAudits(database.db, {
      policyAudits: [
        policyRow('1', 'prod-web', at, [['r', 'web']]),
        policyRow('2', 'prod-db', at, [['r', 'db']]),
        policyRow('3', 'dev-web', at, [['r', 'dev']]),
        policyRow('4', 'prod_x', at, [['r', 'underscore']]),
        policyRow('5', 'a%b', at, [['r', 'percent']]),
      ],
      rulesetAudits: [],
    })
    const rules = async (name: string) =>
      (await policyAuditTimeseries(database.db, { name, start: at, end: at, intervalSeconds: HOUR })).topFailingRules.map((rule) => rule.rule)
    expect(await rules('prod-web')).toEqual(['web'])
    expect(await rules('*')).toEqual(['db', 'dev', 'percent', 'underscore', 'web'])
    expect(await rules('prod-*')).toEqual(['db', 'web'])
    expect(await rules('*web')).toEqual(['dev', 'web'])
    expect(await rules('prod?x')).toEqual(['underscore'])
    expect(await rules('prod_*')).toEqual(['underscore'])
    expect(await rules('a%*')).toEqual(['percent'])
    expect(await rules('prod')).toEqual([])
    const total = async (name: string) => (await policyAuditTimeseries(database.db, { name, start: at, end: at, intervalSeconds: HOUR })).buckets[0]?.total
    expect([await total('*'), await total('prod-*'), await total('prod?x'), await total('a%b'), await total('nothing')]).toEqual([5, 2, 1, 1, 0])
  })

  it('serves ruleset audits from their own counters', async () => {
    await resetTestDatabase(database.db)
    await insertAudits(database.db, {
      policyAudits: [policyRow('1', 'images', t('07:00:00.000'), [['images', 'policy-rule']])],
      rulesetAudits: [
        rulesetRow('1', 'images', t('07:00:00.000'), [['images', 'digest']]),
        rulesetRow('2', 'images', t('07:01:00.000')),
        rulesetRow('3', 'pods', t('08:00:00.000'), [['pods', 'no-latest'], ['pods', 'team-label', 'error']]),
      ],
    })
    expect(await rulesetAuditTimeseries(database.db, { name: '*', start: t('06:59:00.000'), end: t('08:00:00.000'), intervalSeconds: HOUR })).toEqual({
      buckets: [bucket('06:00:00.000', 0, 0), bucket('07:00:00.000', 2, 1), bucket('08:00:00.000', 1, 1)],
      topFailingRules: [
        { ruleset: 'images', rule: 'digest', failures: 1 },
        { ruleset: 'pods', rule: 'no-latest', failures: 1 },
        { ruleset: 'pods', rule: 'team-label', failures: 1 },
      ],
    })
    expect((await rulesetAuditTimeseries(database.db, { name: 'images', start: t('07:00:00.000'), end: t('07:59:59.999'), intervalSeconds: HOUR })).topFailingRules).toEqual([
      { ruleset: 'images', rule: 'digest', failures: 1 },
    ])
  })

  it('agrees with the rows for names, * and globs over aligned and ragged ranges and intervals', async () => {
    await resetTestDatabase(database.db)
    const rows = spread(600)
    // Three statements, the middle one in a transaction, so counters are summed across writes.
    await insertAudits(database.db, { policyAudits: rows.slice(0, 200), rulesetAudits: [] })
    await database.db.transaction((tx) => insertAudits(tx, { policyAudits: rows.slice(200, 400), rulesetAudits: [] }))
    await insertAudits(database.db, { policyAudits: rows.slice(400), rulesetAudits: [] })
    await expectOracle(database.db, rows)
  })

  it('follows DELETE and TRUNCATE, leaving no empty counter rows', async () => {
    await resetTestDatabase(database.db)
    const rows = spread(600, 23)
    await insertAudits(database.db, { policyAudits: rows, rulesetAudits: [] })
    const cutoff = new Date('2026-11-21T07:20:30.500Z')
    await database.db.query('DELETE FROM policy_audits WHERE updated_at < $1', [cutoff.toISOString()])
    await expectOracle(
      database.db,
      rows.filter((row) => (row.updatedAt?.getTime() ?? 0) >= cutoff.getTime()),
    )
    const empty = await database.db.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM policy_audit_counts WHERE audits <= 0 OR failed < 0 OR failed > audits)
            + (SELECT count(*) FROM policy_rule_failure_counts WHERE failures <= 0) AS n`,
    )
    expect(empty.rows).toEqual([{ n: 0 }])
    await database.db.query('TRUNCATE policy_audits')
    expect((await database.db.query('SELECT 1 FROM policy_rule_failure_counts')).rowCount).toBe(0)
    expect(await policyAuditTimeseries(database.db, { name: '*', start: t('06:00:00.000'), end: t('08:59:59.999'), intervalSeconds: HOUR })).toEqual({
      buckets: [bucket('06:00:00.000', 0, 0), bucket('07:00:00.000', 0, 0), bucket('08:00:00.000', 0, 0)],
      topFailingRules: [],
    })
  })

  it('follows DELETE and TRUNCATE aimed at a day partition, and a DELETE through the parent counts once', async () => {
    await resetTestDatabase(database.db)
    const dayOne = spread(300, 29)
    // The same shape 18 hours later: 00:00-03:00 on the next day, in the partition of 2026-11-22.
    const dayTwo = spread(120, 31).map((row) => ({ ...row, requestId: `next-${row.requestId}`, updatedAt: new Date((row.updatedAt?.getTime() ?? 0) + 18 * HOUR * 1000) }))
    await insertAudits(database.db, { policyAudits: [...dayOne, ...dayTwo], rulesetAudits: [] })
    const at = (row: PolicyAuditRow) => row.updatedAt?.getTime() ?? 0
    const cutoff = t('07:20:30.500')
    await database.db.query('DELETE FROM policy_audits_p20261121 WHERE updated_at < $1', [cutoff.toISOString()])
    let kept = [...dayOne, ...dayTwo].filter((row) => at(row) >= cutoff.getTime())
    await expectOracle(database.db, kept)
    const lateCutoff = new Date('2026-11-22T00:40:00.000Z')
    await database.db.query('DELETE FROM policy_audits WHERE updated_at >= $1', [lateCutoff.toISOString()])
    kept = kept.filter((row) => at(row) < lateCutoff.getTime())
    await expectOracle(database.db, kept)
    const badCounters = `SELECT (SELECT count(*) FROM policy_audit_counts WHERE audits <= 0 OR failed < 0 OR failed > audits)
                              + (SELECT count(*) FROM policy_rule_failure_counts WHERE failures <= 0) AS n`
    expect((await database.db.query<{ n: number }>(badCounters)).rows).toEqual([{ n: 0 }])
    await database.db.query('TRUNCATE policy_audits_p20261121')
    kept = kept.filter((row) => at(row) >= Date.parse('2026-11-22T00:00:00.000Z'))
    expect(kept.length).toBeGreaterThan(0)
    await expectOracle(database.db, kept)
    expect((await database.db.query<{ n: number }>(badCounters)).rows).toEqual([{ n: 0 }])
    const dayOneCounters = await database.db.query(
      `SELECT 1 FROM policy_audit_counts WHERE bucket < '2026-11-22T00:00:00Z' UNION ALL SELECT 1 FROM policy_rule_failure_counts WHERE bucket < '2026-11-22T00:00:00Z'`,
    )
    expect(dayOneCounters.rowCount).toBe(0)

    const rulesetRows = [rulesetRow('r-1', 'pods', t('07:00:00.000'), [['pods', 'no-latest']]), rulesetRow('r-2', 'pods', t('07:30:00.000')), rulesetRow('r-3', 'pods', t('08:00:00.000'))]
    await insertAudits(database.db, { policyAudits: [], rulesetAudits: rulesetRows })
    await database.db.query("DELETE FROM ruleset_audits_p20261121 WHERE request_id = 'r-1'")
    expect(await rulesetAuditTimeseries(database.db, { name: 'pods', start: t('07:00:00.000'), end: t('08:59:59.999'), intervalSeconds: HOUR })).toEqual({
      buckets: [bucket('07:00:00.000', 1, 0), bucket('08:00:00.000', 1, 0)],
      topFailingRules: [],
    })
    await database.db.query('TRUNCATE ruleset_audits_p20261121')
    expect((await database.db.query('SELECT 1 FROM ruleset_audit_counts UNION ALL SELECT 1 FROM ruleset_rule_failure_counts')).rowCount).toBe(0)
  })

  it('buckets by UTC whatever the session time zone, days included across a DST change', async () => {
    await resetTestDatabase(database.db)
    const zone = 'America/New_York'
    // A store whose sessions all run in a zone with DST: PGlite has one session, PostgreSQL a pool of them.
    const zoned = kind === 'postgres' ? new PostgresDb({ connectionString: `${database.current.url}?options=${encodeURIComponent(`-c TimeZone=${zone}`)}` }) : database.db
    try {
      await zoned.query(`SET TIME ZONE '${zone}'`)
      expect((await zoned.query<{ zone: string }>('SELECT current_setting($1) AS zone', ['TimeZone'])).rows).toEqual([{ zone }])
      await insertAudits(zoned, {
        policyAudits: [
          policyRow('before', 'p', new Date('2026-10-31T23:30:00Z'), [['r', 'x']]),
          policyRow('after', 'p', new Date('2026-11-01T23:30:00Z')),
          policyRow('next', 'p', new Date('2026-11-02T00:30:00Z')),
        ],
        rulesetAudits: [],
      })
      const answer = await policyAuditTimeseries(zoned, { name: 'p', start: new Date('2026-10-31T00:00:00Z'), end: new Date('2026-11-02T23:59:59.999Z'), intervalSeconds: DAY })
      expect(answer.buckets).toEqual([
        { start: '2026-10-31T00:00:00.000Z', total: 1, passed: 0, failed: 1 },
        { start: '2026-11-01T00:00:00.000Z', total: 1, passed: 1, failed: 0 },
        { start: '2026-11-02T00:00:00.000Z', total: 1, passed: 1, failed: 0 },
      ])
    } finally {
      if (zoned === database.db) await zoned.query('RESET TIME ZONE')
      else await zoned.close()
    }
  })

  it('refuses an interval that is not a whole number of minutes, a start after the end, or too many buckets', async () => {
    const query = { name: '*', start: t('07:00:00.000'), end: t('08:00:00.000') }
    for (const intervalSeconds of [0, 30, 90, -60, 1.5 * MINUTE]) {
      await expect(policyAuditTimeseries(database.db, { ...query, intervalSeconds })).rejects.toBeInstanceOf(RangeError)
    }
    await expect(policyAuditTimeseries(database.db, { ...query, start: query.end, end: query.start, intervalSeconds: MINUTE })).rejects.toBeInstanceOf(RangeError)
    await expect(
      policyAuditTimeseries(database.db, { name: '*', start: new Date('2026-01-01T00:00:00Z'), end: new Date('2026-12-31T00:00:00Z'), intervalSeconds: MINUTE }),
    ).rejects.toBeInstanceOf(RangeError)
  })
})

describe.each(testDatabases())('migration 004 on audits written before it ($kind)', ({ kind }) => {
  it('back-fills failed counts and rule failures, then the triggers carry on from there', async () => {
    const database = await createTestDatabase(kind, { migrated: false })
    try {
      const upTo003 = MIGRATIONS.findIndex((migration) => migration.name === '004-audit-timeseries')
      await migrate(database.db, MIGRATIONS.slice(0, upTo003))
      const rows = spread(300, 5)
      await insertBeforeSources(database.db, { policyAudits: rows.slice(0, 200), rulesetAudits: [rulesetRow('r-1', 'images', t('07:15:00.000'), [['images', 'digest']])] })
      // A row whose output is not shaped as the engine writes it is counted, never refused.
      await database.db.query(
        `INSERT INTO policy_audits (request_id, policy_name, input, input_format, output, passed, updated_at, updated_by)
         VALUES ('odd', 'prod-web', '{}', 'json', '{"results": {"not": "a list"}}', false, '2026-11-21T07:00:00Z', 'a')`,
      )
      expect((await migrate(database.db)).applied).toEqual(MIGRATIONS.slice(upTo003).map((migration) => migration.name))

      const odd = policyRow('odd', 'prod-web', new Date('2026-11-21T07:00:00Z'), [], false)
      await insertAudits(database.db, { policyAudits: rows.slice(200), rulesetAudits: [] })
      await expectOracle(database.db, [...rows, odd])
      expect(await rulesetAuditTimeseries(database.db, { name: 'images', start: t('07:00:00.000'), end: t('07:59:59.999'), intervalSeconds: HOUR })).toEqual({
        buckets: [bucket('07:00:00.000', 1, 1)],
        topFailingRules: [{ ruleset: 'images', rule: 'digest', failures: 1 }],
      })
    } finally {
      await database.dispose()
    }
  })
})

/** Rows as the schema before 006-audit-sources holds them (no source column), as insertAudits wrote them then. */
async function insertBeforeSources(db: Queryable, rows: AuditRows): Promise<void> {
  const insert = async (table: string, nameColumn: string, row: PolicyAuditRow | RulesetAuditRow, name: string): Promise<void> => {
    await db.query(
      `INSERT INTO ${table} (request_id, ${nameColumn}, input, input_format, output, passed, updated_at, updated_by) VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8)`,
      [row.requestId, name, row.input, row.inputFormat, JSON.stringify(row.output), row.passed ?? row.output.passed, row.updatedAt ?? new Date(), row.updatedBy],
    )
  }
  for (const row of rows.policyAudits) await insert('policy_audits', 'policy_name', row, row.policyName)
  for (const row of rows.rulesetAudits) await insert('ruleset_audits', 'ruleset_name', row, row.rulesetName)
}
