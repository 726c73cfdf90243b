// A PostgreSQL from binaries already on the machine (BENCH_POSTGRES_BIN, such as Debian's
// /usr/lib/postgresql/15/bin), for figures on the build a cluster really runs: the embedded build
// has no lz4, and the audit inputs' compression is a sixth of PostgreSQL's CPU per durable evaluation.
// The same contract as the embedded one (postgres-server.ts): a fresh cluster in a temporary
// directory, removed at stop.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { handToPostgresUser, killPostgres, serverFlags, type BenchPostgres } from './postgres-cluster.js'

const USER = 'verdict'
const PASSWORD = 'verdict-bench'

async function waitUntilAccepting(url: string, server: ChildProcess, logs: string[]): Promise<void> {
  const deadline = Date.now() + 30_000
  for (;;) {
    if (server.exitCode !== null) throw new Error(`PostgreSQL exited with ${server.exitCode}:\n${logs.slice(-20).join('')}`)
    const client = new pg.Client({ connectionString: url })
    try {
      await client.connect()
      return
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`PostgreSQL did not accept connections within 30 s:\n${logs.slice(-20).join('')}`, { cause: error })
      await new Promise((resolve) => setTimeout(resolve, 100))
    } finally {
      await client.end().catch(() => {})
    }
  }
}

export async function startSystemPostgres(binDir: string, port: number, durable: boolean): Promise<BenchPostgres> {
  for (const program of ['initdb', 'postgres']) {
    if (!existsSync(join(binDir, program))) throw new Error(`BENCH_POSTGRES_BIN=${binDir} has no ${program}`)
  }
  const baseDir = mkdtempSync(join(tmpdir(), 'verdict-bench-syspg-'))
  const dataDir = join(baseDir, 'data')
  const owner = handToPostgresUser(baseDir)
  const flags = serverFlags(baseDir, durable)
  const passwordFile = join(baseDir, 'password')
  writeFileSync(passwordFile, `${PASSWORD}\n`, { mode: 0o600 })
  if (owner.uid !== undefined) chownSync(passwordFile, owner.uid, owner.gid ?? owner.uid)
  execFileSync(
    join(binDir, 'initdb'),
    ['-D', dataDir, '-U', USER, '--pwfile', passwordFile, '--auth=scram-sha-256', '--encoding=UTF8', ...(durable ? [] : ['--no-sync'])],
    { stdio: 'pipe', ...owner },
  )
  rmSync(passwordFile)
  const urlFor = (database: string) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`
  const logs: string[] = []
  let server: ChildProcess
  const start = async (): Promise<void> => {
    server = spawn(join(binDir, 'postgres'), ['-D', dataDir, '-p', String(port), ...flags], { stdio: ['ignore', 'ignore', 'pipe'], ...owner })
    server.stderr?.on('data', (chunk: Buffer) => logs.push(chunk.toString('utf8')))
    await waitUntilAccepting(urlFor('postgres'), server, logs)
  }
  let version: string | undefined
  try {
    await start()
    const admin = new pg.Client({ connectionString: urlFor('postgres') })
    await admin.connect()
    try {
      version = (await admin.query<{ server_version: string }>('SHOW server_version')).rows[0]?.server_version
      await admin.query(`CREATE DATABASE ${USER}`)
    } finally {
      await admin.end()
    }
  } catch (error) {
    try {
      killPostgres(dataDir)
    } catch {
      // It never wrote its postmaster.pid: nothing runs.
    }
    rmSync(baseDir, { recursive: true, force: true })
    throw error
  }
  console.log(`PostgreSQL ${version} from ${binDir} on 127.0.0.1:${port} (${durable ? 'fsync on' : 'fsync off'}), data in ${baseDir}`)
  const exited = (): Promise<void> =>
    new Promise((resolve) => {
      if (server.exitCode !== null || server.signalCode !== null) resolve()
      else server.once('exit', () => resolve())
    })
  return {
    url: urlFor(USER),
    kill: () => killPostgres(dataDir),
    postmasterPid: () => server.pid ?? 0,
    restart: start,
    async stop() {
      server.kill('SIGINT')
      await exited()
      rmSync(baseDir, { recursive: true, force: true })
    },
  }
}
