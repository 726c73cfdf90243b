// The webhook bench/admission.ts loads, in a process of its own so the load generator does not
// share its event loop: the admission server as the service composes it (catalog, group-commit
// audit writer on PostgreSQL with fsync on), with the benchmark's 50 rules. The PostgreSQL URL is
// the first argument. BENCH_HOSTILE=<kind> replaces one of the rules by a hostile one (see
// HOSTILE_RULES). BENCH_EXCEPTIONS=<n> stores n PolicyExceptions naming every policy, none of which
// matches the benchmark's Pod, so each review pays for asking them all (issue 33's 100-exception figure).
// Prints one JSON line with the port and the certificate to trust.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { join } from 'node:path'
import pino from 'pino'
import { startAdmissionServer } from '../src/admission/index.js'
import { AuditWriter } from '../src/audit/audit-writer.js'
import { DefinitionCatalog } from '../src/services/definition-catalog.js'
import { DefinitionService } from '../src/services/definition-service.js'
import { ExceptionCatalog } from '../src/services/exception-catalog.js'
import { ExceptionService } from '../src/services/exception-service.js'
import { ConflictError } from '../src/services/service-errors.js'
import { migrate } from '../src/store/migrate.js'
import { openDb } from '../src/store/open-db.js'
import { BENCH_DEFINITIONS, withHostileRule } from './admission-policies.js'

const databaseUrl = process.argv[2]
if (!databaseUrl) throw new Error('usage: admission-target.js <postgres url>')
const dataDir = mkdtempSync(join(tmpdir(), 'verdict-bench-admission-'))
const logger = pino({ level: 'warn' }, pino.destination(2))

const db = await openDb({ dataDir, databaseUrl })
await migrate(db)
const catalog = new DefinitionCatalog(db, { onError: (error) => logger.error({ err: error }, 'catalog refresh failed') })
await catalog.start()
const definitions = new DefinitionService(db, catalog)
const wanted = process.env.BENCH_HOSTILE ? withHostileRule(process.env.BENCH_HOSTILE) : BENCH_DEFINITIONS
// A later run on the same database (the hostile run) finds the definitions there and replaces them.
const write = async (create: () => Promise<unknown>, replace: () => Promise<unknown>): Promise<void> => {
  await create().catch(async (error: unknown) => {
    if (!(error instanceof ConflictError)) throw error
    await replace()
  })
}
for (const [name, body] of Object.entries(wanted.rulesets)) {
  await write(() => definitions.createRuleset(name, body, { by: 'bench' }), () => definitions.replaceRuleset(name, body, { by: 'bench' }))
}
for (const [name, body] of Object.entries(wanted.policies)) {
  await write(() => definitions.createPolicy(name, body, { by: 'bench' }), () => definitions.replacePolicy(name, body, { by: 'bench' }))
}
const exceptions = new ExceptionCatalog(db)
await exceptions.start()
const exceptionCount = Number(process.env.BENCH_EXCEPTIONS ?? 0)
const exceptionService = new ExceptionService(db, exceptions)
for (let index = 0; index < exceptionCount; index++) {
  const name = `bench-exception-${index}`
  const body = { policies: ['*'], match: { kinds: ['Pod'], namespaces: [`elsewhere-${index}`] }, reason: 'benchmark', expiresAt: '2999-01-01T00:00:00Z' }
  await write(() => exceptionService.create(name, body, { by: 'bench' }), () => exceptionService.replace(name, body, { by: 'bench' }))
}

// What the webhook's own process went through, printed at exit: a stalled event loop delays every review in it.
const loopDelay = monitorEventLoopDelay({ resolution: 5 })
const batches = { count: 0, entries: 0, maxEntries: 0, slowest: 0 }
const audits = new AuditWriter(db, {
  onBatch: (batch) => {
    batches.count += 1
    batches.entries += batch.entries
    batches.maxEntries = Math.max(batches.maxEntries, batch.entries)
    batches.slowest = Math.max(batches.slowest, batch.durationMs)
  },
})
const server = await startAdmissionServer({
  config: { webhookPort: 0, dataDir, podNamespace: 'verdict', tlsCertFile: undefined, tlsKeyFile: undefined },
  catalog,
  audits,
  namespaces: { get: () => undefined },
  logger,
  host: '127.0.0.1',
  exemptions: () => exceptions.exemptions(new Date()),
  // BENCH_AUDIT_WAIT_MS overrides how long a review waits for its audit commit, for experiments.
  ...(process.env.BENCH_AUDIT_WAIT_MS ? { auditWaitMs: Number(process.env.BENCH_AUDIT_WAIT_MS) } : {}),
})
process.stdout.write(`${JSON.stringify({ port: server.port, certFile: server.certFile })}\n`)
loopDelay.enable()

process.once('SIGTERM', () => {
  void (async () => {
    await server.close()
    await audits.close()
    loopDelay.disable()
    const delayMs = (nanoseconds: number): number => Math.round(nanoseconds / 1e5) / 10
    process.stderr.write(
      `webhook process: event loop delay p50 ${delayMs(loopDelay.percentile(50))} ms p99 ${delayMs(loopDelay.percentile(99))} ms max ${delayMs(loopDelay.max)} ms; ` +
        `${batches.count} audit commits, ${(batches.entries / Math.max(1, batches.count)).toFixed(1)} reviews per commit on average, ` +
        `at most ${batches.maxEntries}, slowest ${Math.round(batches.slowest)} ms\n`,
    )
    await catalog.stop()
    await exceptions.stop()
    await db.close()
    rmSync(dataDir, { recursive: true, force: true })
    process.exit(0)
  })()
})
