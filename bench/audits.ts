// Audit queries on 1,000,000 records in real PostgreSQL: the repository calls behind the count
// route and the first and 1,000th page of the list routes, for one policy name and for '*'.
// Starts its own embedded PostgreSQL in a temporary directory and removes it afterwards.
import { countPolicyAudits, listPolicyAudits } from '../src/store/audits-repository.js'
import type { Db } from '../src/store/db.js'
import { migrate } from '../src/store/migrate.js'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../src/config.js'
import { startServer } from '../src/server/start-server.js'
import { openDb } from '../src/store/open-db.js'
import { startBenchPostgres } from './postgres-server.js'
import { fmt, medianMs, timed } from './median-time.js'

const RECORDS = Number(process.env.BENCH_AUDIT_RECORDS ?? 1_000_000)
const POLICIES = 20
const RUNS = 20
const WARMUP = 3
const DAYS = 30

interface Figures {
  count: number
  firstPage: number
  page1000: number
}

async function main(): Promise<void> {
  // fsync off only to load quickly: the measured queries read, and their plans do not depend on it.
  const server = await startBenchPostgres({ durable: false })
  const db = await openDb({ databaseUrl: server.url, dataDir: 'memory://' })
  try {
    await migrate(db)
    const loadMs = await timed(() => load(db))
    console.log(`loaded ${RECORDS.toLocaleString('en')} policy audits over ${POLICIES} policies and ${DAYS} days in ${(loadMs / 1000).toFixed(1)} s`)
    const analyzeMs = await timed(() => db.query('ANALYZE policy_audits, policy_audit_counts'))
    console.log(`ANALYZE in ${(analyzeMs / 1000).toFixed(1)} s`)
    const busiest = await db.query<{ name: string; n: number }>(
      'SELECT policy_name AS name, count(*) AS n FROM policy_audits GROUP BY 1 ORDER BY 2 DESC LIMIT 1',
    )
    const single = busiest.rows[0]
    if (!single) throw new Error('no audits were loaded')
    const counters = await db.query<{ n: number }>('SELECT count(*) AS n FROM policy_audit_counts')
    console.log(`single name: ${single.name}, the busiest policy, with ${single.n.toLocaleString('en')} records`)
    console.log(`counter rows (hour and minute buckets per name and in total): ${counters.rows[0]?.n.toLocaleString('en')}`)
    const range = { start: new Date(0), end: new Date() }
    const names = [single.name, '*', 'policy-0*']
    console.log(`median of ${RUNS} runs after ${WARMUP} warm-ups, all time, pageSize 10; the glob is for reference only`)
    console.log('fresh after the load (no VACUUM yet, so index-only scans still visit the heap):')
    await report(db, names, range)
    console.log('the same through the REST routes (HTTP, auth and JSON included), still fresh:')
    const fresh = await reportRoutes(server.url, [single.name, '*'])
    const vacuumMs = await timed(() => db.query('VACUUM policy_audits'))
    console.log(`after VACUUM (${(vacuumMs / 1000).toFixed(1)} s; autovacuum does this in service):`)
    await report(db, names, range)
    const [one, all] = fresh
    if (!one || !all) throw new Error('nothing measured')
    console.log("figures below: the routes in the fresh state, the slower of the single name and '*'")
    console.log(
      `count_ms=${fmt(Math.max(one.count, all.count))} first_page_ms=${fmt(Math.max(one.firstPage, all.firstPage))} page_1000_ms=${fmt(Math.max(one.page1000, all.page1000))}`,
    )
  } finally {
    await db.close()
    await server.stop()
  }
}

/**
 * One INSERT ... SELECT from generate_series: names skewed so one policy holds about a fifth of
 * all records, times spread evenly over the last DAYS days in write order, as a live system
 * appends them, and a small Pod as input.
 */
async function load(db: Db): Promise<void> {
  const secondsPerRecord = (DAYS * 24 * 3600) / RECORDS
  await db.transaction(async (tx) => {
    await tx.query('SELECT setseed(0.42)')
    await tx.query(
      // As the writer stores them: the input once per request in audit_inputs, the row pointing to it.
      `INSERT INTO audit_inputs (request_id, input, input_format)
       SELECT 'req-' || i,
              '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-' || i || '","namespace":"prod","labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"registry.example.com/web:1.27.3","resources":{"limits":{"cpu":"500m","memory":"256Mi"}}}]}}',
              'json'
       FROM generate_series(1, $1::int) AS i`,
      [RECORDS],
    )
    await tx.query(
      `INSERT INTO policy_audits (request_id, policy_name, input, input_format, output, passed, updated_at, updated_by)
       SELECT 'req-' || i, name, NULL, 'json',
              jsonb_build_object('policy', name, 'passed', passed, 'results',
                CASE WHEN passed THEN '[]'::jsonb ELSE '[{"ruleset":"pods","rule":"no-latest","status":"fail","severity":"high","message":"image tag latest"}]'::jsonb END),
              passed,
              date_trunc('milliseconds', now() - make_interval(secs => ($1 - i) * $2::float8)),
              'load@example.com'
       FROM (SELECT i, 'policy-' || lpad(floor($3 * power(random(), 2))::int::text, 2, '0') AS name, random() > 0.3 AS passed
             FROM generate_series(1, $1::int) AS i) AS g`,
      [RECORDS, secondsPerRecord, POLICIES],
    )
  })
}

async function report(db: Db, names: string[], range: { start: Date; end: Date }): Promise<Figures[]> {
  const all: Figures[] = []
  for (const name of names) {
    const figures = await measure(db, name, range)
    console.log(`  '${name}': count ${fmt(figures.count)} ms, first page ${fmt(figures.firstPage)} ms, page 1000 ${fmt(figures.page1000)} ms`)
    all.push(figures)
  }
  return all
}

async function measure(db: Db, name: string, range: { start: Date; end: Date }): Promise<Figures> {
  return {
    count: await median(() => countPolicyAudits(db, { name, ...range })),
    firstPage: await median(() => listPolicyAudits(db, { name, ...range, page: 1, pageSize: 10 })),
    page1000: await median(() => listPolicyAudits(db, { name, ...range, page: 1000, pageSize: 10 })),
  }
}

/** The service on the same database, in this process; requests one at a time, so nothing queues. */
async function reportRoutes(databaseUrl: string, names: string[]): Promise<Figures[]> {
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
    const figures: Figures[] = []
    for (const name of names) {
      const list = name === '*' ? '/api/audits/policies?policy_name=*&' : `/api/audits/policies/${encodeURIComponent(name)}?`
      const measured = {
        count: await median(get(`/api/audits/count/policies/${encodeURIComponent(name)}`)),
        firstPage: await median(get(`${list}pageSize=10`)),
        page1000: await median(get(`${list}page=1000&pageSize=10`)),
      }
      console.log(`  '${name}': count ${fmt(measured.count)} ms, first page ${fmt(measured.firstPage)} ms, page 1000 ${fmt(measured.page1000)} ms`)
      figures.push(measured)
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
