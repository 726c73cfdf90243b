// The timeseries routes on 1,000,000 policy audits in real PostgreSQL, through HTTP: the busiest
// policy over the last day by the hour, every policy over the last 30 days by the day, and a glob
// over the same month. Starts its own embedded PostgreSQL in a temporary directory and removes it
// afterwards. Loads the records as bench/audits.ts does, with failing rules in the outputs.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../src/config.js'
import { startServer } from '../src/server/start-server.js'
import { parseInterval } from '../src/services/timeseries-service.js'
import { policyAuditTimeseries } from '../src/store/audit-timeseries.js'
import type { Db } from '../src/store/db.js'
import { recountAudits } from '../src/store/audit-counters.js'
import { migrate } from '../src/store/migrate.js'
import { openDb } from '../src/store/open-db.js'
import { prepareAuditDays } from './audit-days.js'
import { startBenchPostgres } from './postgres-server.js'
import { fmt, medianMs, timed } from './median-time.js'

const RECORDS = Number(process.env.BENCH_AUDIT_RECORDS ?? 1_000_000)
const POLICIES = 20
const RUNS = 20
const WARMUP = 3
const DAYS = 30
const HOUR_MS = 3600 * 1000
const DAY_MS = 24 * HOUR_MS
/** What failing audits report: one or two of these, the first ones far more often. */
const RULES = ['pods/no-latest', 'pods/team-label', 'pods/privileged', 'pods/resources', 'images/registry', 'images/digest', 'network/egress', 'network/ingress']

interface Case {
  label: string
  name: string
  query: string
}

interface TimeseriesBody {
  buckets: { total: number; failed: number }[]
  topFailingRules: { ruleset: string; rule: string; failures: number }[]
}

async function main(): Promise<void> {
  // fsync off only to load quickly: the measured queries read, and their plans do not depend on it.
  const server = await startBenchPostgres({ durable: false })
  const db = await openDb({ databaseUrl: server.url, dataDir: 'memory://' })
  try {
    await migrate(db)
    const loadMs = await timed(async () => {
      await load(db)
      // Loaded by INSERT ... SELECT, not the writer: nothing counted these rows yet.
      await recountAudits(db)
    })
    console.log(`loaded ${RECORDS.toLocaleString('en')} policy audits over ${POLICIES} policies and ${DAYS} days in ${(loadMs / 1000).toFixed(1)} s`)
    await db.query('ANALYZE policy_audits, policy_audit_counts, policy_rule_failure_counts')
    const busiest = await db.query<{ name: string; n: number }>('SELECT policy_name AS name, count(*) AS n FROM policy_audits GROUP BY 1 ORDER BY 2 DESC LIMIT 1')
    const single = busiest.rows[0]
    if (!single) throw new Error('no audits were loaded')
    const sizes = await db.query<{ counts: number; failures: number }>(
      'SELECT (SELECT count(*) FROM policy_audit_counts) AS counts, (SELECT count(*) FROM policy_rule_failure_counts) AS failures',
    )
    console.log(`busiest policy: ${single.name} with ${single.n.toLocaleString('en')} records`)
    console.log(`counter rows: ${sizes.rows[0]?.counts.toLocaleString('en')} audit counts, ${sizes.rows[0]?.failures.toLocaleString('en')} rule failure counts`)

    // Ragged at both ends (now is not on a minute), so every request also reads the rows of two partial minutes.
    const end = new Date()
    const window = (ms: number) => `startTimestamp=${new Date(end.getTime() - ms).toISOString()}&endTimestamp=${end.toISOString()}`
    const cases: Case[] = [
      { label: 'day_by_hour', name: single.name, query: `${window(DAY_MS)}&interval=1h` },
      { label: 'month_by_day', name: '*', query: `${window(DAYS * DAY_MS)}&interval=1d` },
      { label: 'glob', name: 'policy-0*', query: `${window(DAYS * DAY_MS)}&interval=1d` },
      { label: 'glob_every_name', name: 'policy-*', query: `${window(DAYS * DAY_MS)}&interval=1d` },
      { label: 'day_by_5m_all', name: '*', query: `${window(DAY_MS)}&interval=5m` },
      { label: 'week_by_15m_busiest', name: single.name, query: `${window(7 * DAY_MS)}&interval=15m` },
    ]
    await checkAgainstRows(db, single.name, end)
    console.log(`median of ${RUNS} runs after ${WARMUP} warm-ups, fresh after the load (no VACUUM)`)
    console.log('store calls:')
    for (const benchCase of cases) {
      const params = new URLSearchParams(benchCase.query)
      const start = new Date(params.get('startTimestamp') ?? '')
      const intervalSeconds = parseInterval(params.get('interval') ?? '')
      const ms = await median(() => policyAuditTimeseries(db, { name: benchCase.name, start, end, intervalSeconds }))
      console.log(`  ${benchCase.label} ('${benchCase.name}', ${params.get('interval')}): ${fmt(ms)} ms`)
    }
    console.log('through the REST route (HTTP, auth and JSON included):')
    const figures = await reportRoutes(server.url, cases)
    console.log(`day_by_hour_ms=${fmt(figures.get('day_by_hour') ?? Number.NaN)} month_by_day_ms=${fmt(figures.get('month_by_day') ?? Number.NaN)} glob_ms=${fmt(figures.get('glob') ?? Number.NaN)}`)
  } finally {
    await db.close()
    await server.stop()
  }
}

/**
 * As bench/audits.ts: one INSERT ... SELECT from generate_series, names skewed so one policy holds
 * about a fifth of all records, times spread evenly over the last DAYS days in write order. A
 * failing record lists one or two failed rules, skewed towards the first of RULES.
 */
async function load(db: Db): Promise<void> {
  const secondsPerRecord = (DAYS * 24 * 3600) / RECORDS
  await prepareAuditDays(db, new Date(), DAYS)
  await db.transaction(async (tx) => {
    await tx.query('SELECT setseed(0.42)')
    await tx.query(
      `INSERT INTO audit_inputs (request_id, stored_at, input, input_format)
       SELECT 'req-' || i, date_trunc('milliseconds', now() - make_interval(secs => ($1 - i) * $2::float8)),
              '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-' || i || '","namespace":"prod","labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"registry.example.com/web:1.27.3"}]}}',
              'json'
       FROM generate_series(1, $1::int) AS i`,
      [RECORDS, secondsPerRecord],
    )
    // A failed rule result as the engine writes it, from 'ruleset/rule'.
    const failure = (rule: string) =>
      `jsonb_build_object('ruleset', split_part(${rule}, '/', 1), 'rule', split_part(${rule}, '/', 2), 'status', 'fail', 'severity', 'high', 'message', ${rule} || ' failed')`
    await tx.query(
      `INSERT INTO policy_audits (request_id, policy_name, input, input_format, output, passed, updated_at, updated_by)
       SELECT 'req-' || i, name, NULL, 'json',
              jsonb_build_object('policy', name, 'passed', passed, 'results',
                CASE WHEN passed THEN '[]'::jsonb
                     WHEN second_rule = first_rule THEN jsonb_build_array(${failure('first_rule')})
                     ELSE jsonb_build_array(${failure('first_rule')}, ${failure('second_rule')}) END),
              passed,
              date_trunc('milliseconds', now() - make_interval(secs => ($1 - i) * $2::float8)),
              'load@example.com'
       FROM (SELECT i, 'policy-' || lpad(floor($3 * power(random(), 2))::int::text, 2, '0') AS name, random() > 0.3 AS passed,
                    ($4::text[])[1 + floor(array_length($4::text[], 1) * power(random(), 2))::int] AS first_rule,
                    ($4::text[])[1 + floor(array_length($4::text[], 1) * random())::int] AS second_rule
             FROM generate_series(1, $1::int) AS i) AS g`,
      [RECORDS, secondsPerRecord, POLICIES, RULES],
    )
  })
}

/** The figures only mean something if the answers are right: three ragged days of one name against its rows. */
async function checkAgainstRows(db: Db, name: string, end: Date): Promise<void> {
  const start = new Date(end.getTime() - 3 * DAY_MS - 12_345)
  const answer = await policyAuditTimeseries(db, { name, start, end, intervalSeconds: 3600 })
  const rows = await db.query<{ total: number; failed: number }>(
    'SELECT count(*) AS total, count(*) FILTER (WHERE NOT passed) AS failed FROM policy_audits WHERE policy_name = $1 AND updated_at BETWEEN $2 AND $3',
    [name, start.toISOString(), end.toISOString()],
  )
  const total = answer.buckets.reduce((sum, bucket) => sum + bucket.total, 0)
  const failed = answer.buckets.reduce((sum, bucket) => sum + bucket.failed, 0)
  if (total !== rows.rows[0]?.total || failed !== rows.rows[0]?.failed) {
    throw new Error(`timeseries disagrees with the rows: ${total}/${failed} against ${rows.rows[0]?.total}/${rows.rows[0]?.failed}`)
  }
  console.log(`checked: ${name} over 3 days by the hour sums to its ${total.toLocaleString('en')} rows (${failed.toLocaleString('en')} failed)`)
}

/** The service on the same database, in this process; requests one at a time, so nothing queues. */
async function reportRoutes(databaseUrl: string, cases: Case[]): Promise<Map<string, number>> {
  const dir = mkdtempSync(join(tmpdir(), 'verdict-bench-timeseries-'))
  const config = loadConfig(
    { VERDICT_API_PORT: '0', VERDICT_WEBHOOK_PORT: '0', VERDICT_OPS_PORT: '0', VERDICT_DATABASE_URL: databaseUrl, VERDICT_ADMIN_TOKEN_FILE: join(dir, 'admin-token'), VERDICT_LOG_LEVEL: 'warn', VERDICT_RATE_LIMIT: '100000', VERDICT_RATE_BURST: '100000' },
    [],
  )
  const service = await startServer(config, { host: '127.0.0.1', logger: false })
  try {
    const headers = { authorization: `Bearer ${readFileSync(join(dir, 'admin-token'), 'utf8').trim()}` }
    const figures = new Map<string, number>()
    for (const benchCase of cases) {
      const path = `/api/timeseries/policies/${encodeURIComponent(benchCase.name)}?${benchCase.query}`
      let last: TimeseriesBody | undefined
      const ms = await median(async () => {
        const response = await fetch(`${service.apiUrl}${path}`, { headers })
        if (response.status !== 200) throw new Error(`${path}: ${response.status} ${await response.text()}`)
        last = (await response.json()) as TimeseriesBody
      })
      const total = last?.buckets.reduce((sum, bucket) => sum + bucket.total, 0) ?? 0
      const top = last?.topFailingRules[0]
      console.log(
        `  ${benchCase.label} ('${benchCase.name}'): ${fmt(ms)} ms, ${last?.buckets.length} buckets, ${total.toLocaleString('en')} audits, top rule ${top?.ruleset}/${top?.rule} (${top?.failures.toLocaleString('en')})`,
      )
      figures.set(benchCase.label, ms)
    }
    return figures
  } finally {
    await service.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

function median(run: () => Promise<unknown>): Promise<number> {
  return medianMs(run, { runs: RUNS, warmup: WARMUP })
}

await main()
