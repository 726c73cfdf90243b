// Audit queries on 1,000,000 records in real PostgreSQL (`npm run bench:audits -- --records
// 10000000` for ten million): through the REST routes, the count, first page and page 1,000 of
// one policy's audits, the first page of a glob, a lookup by request id and a 30-day timeseries
// by day; the repository calls behind them too. Prints the load time and the table sizes.
// Starts its own embedded PostgreSQL in a temporary directory and removes it afterwards.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../src/config.js'
import { startServer } from '../src/server/start-server.js'
import { recountAudits } from '../src/store/audit-counters.js'
import { policyAuditTimeseries } from '../src/store/audit-timeseries.js'
import { countPolicyAudits, listPolicyAudits, policyAuditByRequestId } from '../src/store/audits-repository.js'
import type { Db } from '../src/store/db.js'
import { migrate } from '../src/store/migrate.js'
import { openDb } from '../src/store/open-db.js'
import { prepareAuditDays } from './audit-days.js'
import { fmt, medianMs, timed } from './median-time.js'
import { startBenchPostgres } from './postgres-server.js'

const RECORDS = recordsWanted()
const POLICIES = 20
const RUNS = 20
const WARMUP = 3
const DAYS = 30
const DAY_MS = 86_400_000
/** Rows per INSERT: each its own transaction, so a ten-million load neither holds one huge one nor hides its progress. */
const CHUNK = 1_000_000

type Case = 'count' | 'firstPage' | 'page1000' | 'globFirstPage' | 'byRequestId' | 'timeseries30d'
const CASES: Case[] = ['count', 'firstPage', 'page1000', 'globFirstPage', 'byRequestId', 'timeseries30d']

/** `--records N` on the command line, else BENCH_AUDIT_RECORDS, else 1,000,000. */
function recordsWanted(): number {
  const flag = process.argv.indexOf('--records')
  const raw = flag >= 0 ? process.argv[flag + 1] : process.env.BENCH_AUDIT_RECORDS
  const records = Number(raw ?? 1_000_000)
  if (!Number.isSafeInteger(records) || records < 1000) throw new Error(`--records must be an integer >= 1000, got ${raw}`)
  return records
}

async function main(): Promise<void> {
  // fsync off only to load quickly: the measured queries read, and their plans do not depend on it.
  const server = await startBenchPostgres({ durable: false })
  const db = await openDb({ databaseUrl: server.url, dataDir: 'memory://' })
  try {
    await migrate(db)
    const end = new Date()
    const loadMs = await timed(() => load(db, end))
    const recountMs = await timed(() => recountAudits(db))
    console.log(
      `loaded ${RECORDS.toLocaleString('en')} policy audits over ${POLICIES} policies and ${DAYS} days in ${(loadMs / 1000).toFixed(1)} s, ` +
        `counted them in ${(recountMs / 1000).toFixed(1)} s`,
    )
    const analyzeMs = await timed(() => db.query('ANALYZE policy_audits, audit_inputs, policy_audit_counts, policy_rule_failure_counts'))
    console.log(`ANALYZE in ${(analyzeMs / 1000).toFixed(1)} s`)
    await printSizes(db)
    const single = (await db.query<{ name: string; n: number }>(
      "SELECT name, sum(audits)::bigint AS n FROM policy_audit_counts WHERE name <> '' AND span = 3600 GROUP BY name ORDER BY 2 DESC LIMIT 1",
    )).rows[0]
    if (!single) throw new Error('no audits were loaded')
    console.log(`single name: ${single.name}, the busiest policy, with ${Number(single.n).toLocaleString('en')} records`)
    const requestId = `req-${Math.floor(RECORDS / 3)}`
    console.log(`median of ${RUNS} runs after ${WARMUP} warm-ups, all time, pageSize 10; glob 'policy-0*'; request id ${requestId}; timeseries of the busiest policy over 30 days by day`)
    console.log('store calls, fresh after the load (no VACUUM yet, so index-only scans still visit the heap):')
    await reportStore(db, single.name, requestId, end)
    console.log('the same through the REST routes (HTTP, auth and JSON included), still fresh:')
    const routes = await reportRoutes(server.url, single.name, requestId, end)
    const vacuumMs = await timed(() => db.query('VACUUM policy_audits, audit_inputs'))
    console.log(`store calls after VACUUM (${(vacuumMs / 1000).toFixed(1)} s; autovacuum does this in service):`)
    await reportStore(db, single.name, requestId, end)
    console.log(`figures below: the REST routes in the fresh state, ${RECORDS.toLocaleString('en')} records`)
    console.log(
      `records=${RECORDS} load_s=${(loadMs / 1000).toFixed(1)} count_ms=${fmt(routes.count)} first_page_ms=${fmt(routes.firstPage)} page_1000_ms=${fmt(routes.page1000)} ` +
        `glob_first_page_ms=${fmt(routes.globFirstPage)} by_request_id_ms=${fmt(routes.byRequestId)} timeseries_30d_ms=${fmt(routes.timeseries30d)}`,
    )
  } finally {
    await db.close()
    await server.stop()
  }
}

/**
 * INSERT ... SELECT from generate_series, CHUNK rows a transaction: names skewed so one policy
 * holds about a fifth of all records, times spread evenly over the DAYS days before `end` in
 * write order, as a live system appends them, three in ten failing one rule. Each record has its
 * own input (a small Pod) in audit_inputs, as the writer stores it: the row's input NULL, the
 * input under the row's request id and time.
 */
async function load(db: Db, end: Date): Promise<void> {
  await prepareAuditDays(db, end, DAYS)
  const secondsPerRecord = (DAYS * 24 * 3600) / RECORDS
  for (let first = 1; first <= RECORDS; first += CHUNK) {
    const last = Math.min(RECORDS, first + CHUNK - 1)
    const started = performance.now()
    await db.transaction(async (tx) => {
      await tx.query(
        `CREATE TEMPORARY TABLE load_rows ON COMMIT DROP AS
         SELECT i, 'policy-' || lpad(floor($4 * power(random(), 2))::int::text, 2, '0') AS name, random() > 0.3 AS passed,
                date_trunc('milliseconds', $5::timestamptz - make_interval(secs => ($6 - i) * $3::float8)) AS at
         FROM generate_series($1::int, $2::int) AS i`,
        [first, last, secondsPerRecord, POLICIES, end.toISOString(), RECORDS],
      )
      await tx.query(
        `INSERT INTO audit_inputs (request_id, stored_at, input, input_format)
         SELECT 'req-' || i, at,
                '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-' || i || '","namespace":"prod","labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"registry.example.com/web:1.27.3","resources":{"limits":{"cpu":"500m","memory":"256Mi"}}}]}}',
                'json'
         FROM load_rows`,
      )
      await tx.query(
        `INSERT INTO policy_audits (request_id, policy_name, input, input_format, output, passed, updated_at, updated_by)
         SELECT 'req-' || i, name, NULL, 'json',
                jsonb_build_object('policy', name, 'passed', passed, 'results',
                  CASE WHEN passed THEN '[]'::jsonb ELSE '[{"ruleset":"pods","rule":"no-latest","status":"fail","severity":"high","message":"image tag latest"}]'::jsonb END),
                passed, at, 'load@example.com'
         FROM load_rows ORDER BY i`,
      )
    })
    if (RECORDS > CHUNK) console.log(`  rows ${first.toLocaleString('en')}-${last.toLocaleString('en')} in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  }
}

async function printSizes(db: Db): Promise<void> {
  const sizes = await db.query<{ parent: string; partitions: number; heap: string; indexes: string; total: string }>(
    `SELECT p.relname AS parent, count(*)::int AS partitions,
            pg_size_pretty(sum(pg_table_size(c.oid))) AS heap, pg_size_pretty(sum(pg_indexes_size(c.oid))) AS indexes,
            pg_size_pretty(sum(pg_total_relation_size(c.oid))) AS total
     FROM pg_inherits h JOIN pg_class c ON c.oid = h.inhrelid JOIN pg_class p ON p.oid = h.inhparent
     WHERE p.relname IN ('policy_audits', 'audit_inputs') GROUP BY p.relname
     UNION ALL
     SELECT relname, 0, pg_size_pretty(pg_table_size(oid)), pg_size_pretty(pg_indexes_size(oid)), pg_size_pretty(pg_total_relation_size(oid))
     FROM pg_class WHERE relname IN ('policy_audit_counts', 'policy_rule_failure_counts')
     ORDER BY 1`,
  )
  for (const row of sizes.rows) {
    const parts = row.partitions > 0 ? ` in ${row.partitions} day partitions` : ''
    console.log(`  ${row.parent}${parts}: ${row.total} (table and TOAST ${row.heap}, indexes ${row.indexes})`)
  }
}

async function reportStore(db: Db, name: string, requestId: string, end: Date): Promise<void> {
  const allTime = { start: new Date(0), end }
  const figures: Record<Case, number> = {
    count: await median(() => countPolicyAudits(db, { name, ...allTime })),
    firstPage: await median(() => listPolicyAudits(db, { name, ...allTime, page: 1, pageSize: 10 })),
    page1000: await median(() => listPolicyAudits(db, { name, ...allTime, page: 1000, pageSize: 10 })),
    globFirstPage: await median(() => listPolicyAudits(db, { name: 'policy-0*', ...allTime, page: 1, pageSize: 10 })),
    byRequestId: await median(async () => {
      if (!(await policyAuditByRequestId(db, requestId))) throw new Error(`${requestId} not found`)
    }),
    timeseries30d: await median(() => policyAuditTimeseries(db, { name, start: new Date(end.getTime() - DAYS * DAY_MS), end, intervalSeconds: 86_400 })),
  }
  console.log(`  ${CASES.map((key) => `${key} ${fmt(figures[key])} ms`).join(', ')}`)
}

/** The service on the same database, in this process; requests one at a time, so nothing queues. */
async function reportRoutes(databaseUrl: string, name: string, requestId: string, end: Date): Promise<Record<Case, number>> {
  const dir = mkdtempSync(join(tmpdir(), 'verdict-bench-audits-'))
  const config = loadConfig(
    { VERDICT_API_PORT: '0', VERDICT_WEBHOOK_PORT: '0', VERDICT_OPS_PORT: '0', VERDICT_DATABASE_URL: databaseUrl, VERDICT_ADMIN_TOKEN_FILE: join(dir, 'admin-token'), VERDICT_LOG_LEVEL: 'warn', VERDICT_RATE_LIMIT: '100000', VERDICT_RATE_BURST: '100000' },
    [],
  )
  const service = await startServer(config, { host: '127.0.0.1', logger: false })
  try {
    const headers = { authorization: `Bearer ${readFileSync(join(dir, 'admin-token'), 'utf8').trim()}` }
    const get = (path: string) => async (): Promise<void> => {
      const response = await fetch(`${service.apiUrl}${path}`, { headers })
      if (response.status !== 200) throw new Error(`${path}: ${response.status} ${await response.text()}`)
      await response.arrayBuffer()
    }
    const encoded = encodeURIComponent(name)
    const window = `startTimestamp=${new Date(end.getTime() - DAYS * DAY_MS).toISOString()}&endTimestamp=${end.toISOString()}`
    const figures: Record<Case, number> = {
      count: await median(get(`/api/audits/count/policies/${encoded}`)),
      firstPage: await median(get(`/api/audits/policies/${encoded}?pageSize=10`)),
      page1000: await median(get(`/api/audits/policies/${encoded}?page=1000&pageSize=10`)),
      globFirstPage: await median(get(`/api/audits/policies?policy_name=${encodeURIComponent('policy-0*')}&pageSize=10`)),
      byRequestId: await median(get(`/api/audits/policies/uuid/${requestId}`)),
      timeseries30d: await median(get(`/api/timeseries/policies/${encoded}?${window}&interval=1d`)),
    }
    console.log(`  ${CASES.map((key) => `${key} ${fmt(figures[key])} ms`).join(', ')}`)
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
