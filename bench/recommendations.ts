// The figures behind GET /api/recommendations on 1,000,000 policy audits and 1,000,000 ruleset
// audits in real PostgreSQL, and the whole service call, for a 7-day and a 30-day window.
// BENCH_FAILED_SHARE (default 0.3) is the share of failed audits: the rule-result scan reads
// failed ruleset audits newest first, so the rarer failures are, the more rows it passes over.
// Starts its own embedded PostgreSQL in a temporary directory and removes it afterwards.
import type { Db } from '../src/store/db.js'
import { recountAudits } from '../src/store/audit-counters.js'
import { migrate } from '../src/store/migrate.js'
import { openDb } from '../src/store/open-db.js'
import { insertPolicy } from '../src/store/policies-repository.js'
import { insertRuleset } from '../src/store/rulesets-repository.js'
import { auditCountsByName, lastPolicyAudits, policiesWithFailures, ruleResultFigures } from '../src/store/recommendation-figures.js'
import { DefinitionCatalog } from '../src/services/definition-catalog.js'
import { RecommendationService } from '../src/services/recommendation-service.js'
import { prepareAuditDays } from './audit-days.js'
import { startBenchPostgres } from './postgres-server.js'
import { fmt, medianMs, timed } from './median-time.js'

const RECORDS = Number(process.env.BENCH_AUDIT_RECORDS ?? 1_000_000)
const FAILED_SHARE = Number(process.env.BENCH_FAILED_SHARE ?? 0.3)
const POLICIES = 20
const RULESETS = 10
const DAYS = 30
const RUNS = 10
const WARMUP = 2

async function main(): Promise<void> {
  const server = await startBenchPostgres({ durable: false })
  const db = await openDb({ databaseUrl: server.url, dataDir: 'memory://' })
  try {
    await migrate(db)
    const loadMs = await timed(async () => {
      await load(db)
      // Loaded by INSERT ... SELECT, not the writer: nothing counted these rows yet.
      await recountAudits(db)
    })
    console.log(`loaded ${RECORDS.toLocaleString('en')} policy audits and as many ruleset audits over ${DAYS} days, ${FAILED_SHARE * 100}% failed, in ${(loadMs / 1000).toFixed(1)} s`)
    await db.query('VACUUM ANALYZE policy_audits, ruleset_audits, policy_audit_counts, ruleset_audit_counts')
    await define(db)
    const catalog = new DefinitionCatalog(db)
    await catalog.resync()
    const service = new RecommendationService(db, catalog)
    const names = Array.from({ length: POLICIES }, (_, i) => policyName(i))
    console.log(`median of ${RUNS} runs after ${WARMUP} warm-ups, after VACUUM ANALYZE`)
    const windowOf = (days: number) => {
      const to = new Date()
      return { from: new Date(to.getTime() - days * 86_400_000), to }
    }
    for (const days of [7, DAYS]) {
      const window = windowOf(days)
      const scan = await ruleResultFigures(db, window)
      console.log(`${days} days (rule scan read ${scan.scannedAudits.toLocaleString('en')} failed ruleset audits, sampled: ${scan.sampled}):`)
      console.log(`  policy audit counts by name   ${fmt(await median(() => auditCountsByName(db, 'policy', window)))} ms`)
      console.log(`  ruleset audit counts by name  ${fmt(await median(() => auditCountsByName(db, 'ruleset', window)))} ms`)
      console.log(`  failures of ${POLICIES} policies (EXISTS) ${fmt(await median(() => policiesWithFailures(db, names, window)))} ms`)
      console.log(`  failures of the never-failing busiest policy ${fmt(await median(() => policiesWithFailures(db, [policyName(0)], window)))} ms`)
      console.log(`  last audit of ${POLICIES} policies    ${fmt(await median(() => lastPolicyAudits(db, names)))} ms`)
      console.log(`  rule results scan             ${fmt(await median(() => ruleResultFigures(db, window)))} ms`)
      console.log(`  the whole recommend() call    ${fmt(await median(() => service.recommend({ days })))} ms`)
    }
  } finally {
    await db.close()
    await server.stop()
  }
}

function policyName(index: number): string {
  return `policy-${String(index).padStart(2, '0')}`
}

/**
 * Skewed names (the busiest policy holds about a fifth of the rows), times spread evenly over the
 * last DAYS days in write order. The busiest policy never fails (the worst case of the failure
 * EXISTS, which then reads all its rows of the window); failed ruleset audits carry one or two
 * rule results, one in twenty of them an error.
 */
async function load(db: Db): Promise<void> {
  const secondsPerRecord = (DAYS * 24 * 3600) / RECORDS
  await prepareAuditDays(db, new Date(), DAYS)
  await db.transaction(async (tx) => {
    await tx.query('SELECT setseed(0.42)')
    await tx.query(
      `INSERT INTO policy_audits (request_id, policy_name, input, input_format, output, passed, updated_at, updated_by)
       SELECT 'req-' || i, name, '{}', 'json', jsonb_build_object('policy', name, 'passed', passed, 'results', '[]'::jsonb), passed,
              date_trunc('milliseconds', now() - make_interval(secs => ($1 - i) * $2::float8)), 'load@example.com'
       FROM (SELECT i, name, NOT (name <> 'policy-00' AND random() < $4) AS passed
             FROM (SELECT i, 'policy-' || lpad(floor($3 * power(random(), 2))::int::text, 2, '0') AS name FROM generate_series(1, $1::int) AS i) AS named) AS g`,
      [RECORDS, secondsPerRecord, POLICIES, FAILED_SHARE],
    )
    await tx.query(
      `INSERT INTO ruleset_audits (request_id, ruleset_name, input, input_format, output, passed, updated_at, updated_by)
       SELECT 'req-' || i, name, '{}', 'json',
              jsonb_build_object('ruleset', name, 'passed', NOT failed, 'results', CASE WHEN NOT failed THEN '[]'::jsonb ELSE
                jsonb_build_array(jsonb_build_object('ruleset', name, 'rule', 'rule-' || (i % 7), 'status', CASE WHEN i % 20 = 0 THEN 'error' ELSE 'fail' END, 'severity', 'high', 'message', 'rule ' || (i % 7) || ' failed on web-' || i))
                || CASE WHEN i % 3 = 0 THEN jsonb_build_array(jsonb_build_object('ruleset', name, 'rule', 'rule-9', 'status', 'fail', 'severity', 'low', 'message', 'labels')) ELSE '[]'::jsonb END END),
              NOT failed,
              date_trunc('milliseconds', now() - make_interval(secs => ($1 - i) * $2::float8)), 'load@example.com'
       FROM (SELECT i, 'ruleset-' || floor($3 * power(random(), 2))::int AS name, random() < $4 AS failed FROM generate_series(1, $1::int) AS i) AS g`,
      [RECORDS, secondsPerRecord, RULESETS, FAILED_SHARE],
    )
  })
}

/** Rulesets with the rules the load reports, Audit policies over them, and two kept off the webhook. */
async function define(db: Db): Promise<void> {
  const stamp = { source: 'api' as const, createdBy: 'load@example.com', updatedBy: 'load@example.com', createdAt: new Date(Date.now() - 60 * 86_400_000).toISOString() }
  const rules = Array.from({ length: 10 }, (_, i) => ({ name: `rule-${i}`, remediation: `fix rule ${i}`, validate: { cel: [{ expression: 'true' }] } }))
  for (let i = 0; i < RULESETS; i++) await insertRuleset(db, { name: `ruleset-${i}`, rules, ...stamp })
  for (let i = 0; i < POLICIES; i++) {
    await insertPolicy(db, { name: policyName(i), rulesets: [`ruleset-${i % RULESETS}`], action: i % 4 === 0 ? 'Deny' : 'Audit', ...stamp })
  }
}

function median(run: () => Promise<unknown>): Promise<number> {
  return medianMs(run, { runs: RUNS, warmup: WARMUP })
}

await main()
