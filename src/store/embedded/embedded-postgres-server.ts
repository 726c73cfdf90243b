import { spawn, type ChildProcess } from 'node:child_process'
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import pg from 'pg'
import { findPostgresBinaries, type PostgresBinaries } from './postgres-binaries.js'
import { isProcessAlive, readPostmasterLock, type PostmasterLock } from './postmaster-lock.js'
import { checkAccountReaches, serverAccount, type ServerAccount } from './server-account.js'
import { levelOfServerLine, type ServerLogLevel } from './server-log.js'
import { serverSettings, settingsArguments } from './server-settings.js'

/** The role and database Verdict uses on its embedded server. */
const ROLE = 'verdict'
const DATABASE = 'verdict'
/** The socket file's name ends in the port, which is all a server without TCP uses it for. */
const PORT = 5432
/** sun_path holds 108 bytes on Linux (104 on macOS), the socket's name `.s.PGSQL.5432` included. */
const MAX_SOCKET_DIR_LENGTH = 90
/** Last lines of the server's log kept for the error when it fails to start. */
const LOG_LINES_KEPT = 30

/**
 * Runs the server as a child of a shell that stops it when Verdict goes: the shell waits on its
 * standard input, a pipe from Verdict, which closes when Verdict exits for any reason (a SIGKILL
 * and an OOM kill included); the shell then asks the server for a fast shutdown. So no server is
 * left behind holding the data directory, and a normal stop is the same path: close the pipe.
 * Standard input of an asynchronous list is /dev/null unless redirected, hence fd 3.
 */
const WATCHDOG = 'exec 3<&0; "$@" </dev/null & server=$!; (read _ <&3; kill -INT "$server" 2>/dev/null) & watcher=$!; exec 3<&-; wait "$server"; status=$?; kill "$watcher" 2>/dev/null; exit $status'

export interface EmbeddedPostgresOptions {
  /** `VERDICT_DATA_DIR`: the cluster lives in `<dataDir>/postgres`. */
  readonly dataDir: string
  /** The server's log lines, each with how much it matters. */
  readonly onLog?: (line: string, level: ServerLogLevel) => void
  /** The server this process started ended without being asked to: the store is gone. */
  readonly onUnexpectedExit?: (code: number | null, signal: NodeJS.Signals | null) => void
  /** How long a start (crash recovery included) may take; default 120 s, as long as the chart's startup probe waits. */
  readonly startTimeoutMs?: number
}

export interface EmbeddedPostgres {
  /** A node-postgres connection string over the unix socket. */
  readonly connectionString: string
  /** False when another Verdict process on the same data directory runs the server (a CLI command beside `verdict serve`). */
  readonly owned: boolean
  /** Stops the server when this process started it: fast shutdown, committed work kept. */
  stop(): Promise<void>
}

/** The cluster directory of a data directory. */
export function clusterDirOf(dataDir: string): string {
  return join(resolve(dataDir), 'postgres')
}

/**
 * The embedded store: a real PostgreSQL server process on `<dataDir>/postgres`, created on first
 * use, reached over a unix socket. When a server already runs on that directory (a CLI command
 * while `verdict serve` runs) it is used as it is.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const clusterDir = clusterDirOf(options.dataDir)
  const timeoutMs = options.startTimeoutMs ?? 120_000
  const running = liveLock(clusterDir)
  if (running) return attachToRunning(clusterDir, running, timeoutMs)
  const binaries = await findPostgresBinaries()
  mkdirSync(resolve(options.dataDir), { recursive: true })
  const account = serverAccount(existsSync(clusterDir) ? clusterDir : resolve(options.dataDir))
  checkAccountReaches(existsSync(clusterDir) ? clusterDir : resolve(options.dataDir), account)
  if (!existsSync(join(clusterDir, 'PG_VERSION'))) await createCluster(binaries, clusterDir, account)
  // A pod's fsGroup makes every directory of its volume group-writable at each mount, and
  // PostgreSQL refuses to start on a data directory that is.
  chmodSync(clusterDir, 0o700)
  const socketDir = socketDirFor(clusterDir, account)
  const server = launch(binaries, clusterDir, socketDir, account, options)
  try {
    await server.ready(timeoutMs)
    await ensureDatabase(socketDir)
  } catch (error) {
    await server.stop()
    throw error
  }
  return { connectionString: connectionStringFor(socketDir, DATABASE), owned: true, stop: () => server.stop() }
}

/** The lock of a server that runs now, not one left by a server that is gone (nor a pid since reused by this process). */
function liveLock(clusterDir: string): PostmasterLock | undefined {
  const lock = readPostmasterLock(clusterDir)
  if (!lock || lock.pid === process.pid || lock.pid === process.ppid) return undefined
  return isProcessAlive(lock.pid) ? lock : undefined
}

async function attachToRunning(clusterDir: string, lock: PostmasterLock, timeoutMs: number): Promise<EmbeddedPostgres> {
  const deadline = Date.now() + timeoutMs
  let current: PostmasterLock | undefined = lock
  while (current && current.status !== 'ready' && Date.now() < deadline) {
    await delay(100)
    current = liveLock(clusterDir)
  }
  if (!current || current.status !== 'ready') {
    throw new Error(`the embedded database in ${clusterDir} is held by PostgreSQL process ${lock.pid}, which is not ready (status "${current?.status ?? 'gone'}"); wait for it or stop it`)
  }
  const connectionString = connectionStringFor(current.socketDir, DATABASE)
  try {
    await withClient(connectionString, async () => {})
  } catch (error) {
    throw new Error(`${join(clusterDir, 'postmaster.pid')} names process ${lock.pid}, which runs, but no server answers on ${current.socketDir}: if no PostgreSQL runs on this directory, remove that file`, { cause: error })
  }
  return { connectionString, owned: false, stop: async () => {} }
}

/** initdb into a directory beside the cluster's, renamed into place when whole: an interrupted first start leaves nothing half-made. */
async function createCluster(binaries: PostgresBinaries, clusterDir: string, account: ServerAccount): Promise<void> {
  const staging = `${clusterDir}.initdb`
  rmSync(staging, { recursive: true, force: true })
  mkdirSync(staging, { mode: 0o700 })
  handTo(staging, account)
  const args = ['-D', staging, '-U', ROLE, '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-instructions']
  const { code, output } = await runToEnd(binaries.initdb, args, account)
  if (code !== 0) {
    rmSync(staging, { recursive: true, force: true })
    throw new Error(`initdb failed for the embedded database in ${clusterDir} (exit ${code}): ${output.trim().split('\n').slice(-5).join(' | ')}`)
  }
  renameSync(staging, clusterDir)
}

/** The socket lives in the cluster directory, or in a private temporary directory when that path is too long for a socket. */
function socketDirFor(clusterDir: string, account: ServerAccount): string {
  if (clusterDir.length <= MAX_SOCKET_DIR_LENGTH) return clusterDir
  const dir = mkdtempSync(join(tmpdir(), 'verdict-pg-'))
  handTo(dir, account)
  return dir
}

function handTo(path: string, account: ServerAccount): void {
  if (account.uid !== undefined && account.gid !== undefined) chownSync(path, account.uid, account.gid)
}

interface LaunchedServer {
  ready(timeoutMs: number): Promise<void>
  stop(): Promise<void>
}

function launch(binaries: PostgresBinaries, clusterDir: string, socketDir: string, account: ServerAccount, options: EmbeddedPostgresOptions): LaunchedServer {
  const args = ['-D', clusterDir, '-p', String(PORT), ...settingsArguments(serverSettings(socketDir))]
  // detached: a Ctrl-C at the terminal reaches Verdict alone, which flushes its audits before it stops the server.
  const child = spawn('/bin/sh', ['-c', WATCHDOG, 'verdict-postgres', binaries.postgres, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
    env: serverEnvironment(),
    ...account,
  })
  const recent: string[] = []
  let level: ServerLogLevel = 'info'
  const onLine = (line: string): void => {
    recent.push(line)
    if (recent.length > LOG_LINES_KEPT) recent.shift()
    level = levelOfServerLine(line, level)
    options.onLog?.(line, level)
  }
  createInterface({ input: child.stdout! }).on('line', onLine)
  createInterface({ input: child.stderr! }).on('line', onLine)
  // The pipe may break when the server is already gone; that is an exit, reported below.
  child.stdin!.on('error', () => {})
  let stopping = false
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveExit) => {
    child.once('exit', (code, signal) => resolveExit({ code, signal }))
    child.once('error', () => resolveExit({ code: null, signal: null }))
  })
  void exited.then(({ code, signal }) => {
    if (!stopping) options.onUnexpectedExit?.(code, signal)
  })
  return {
    async ready(timeoutMs) {
      const deadline = Date.now() + timeoutMs
      let gone = false
      void exited.then(() => (gone = true))
      for (;;) {
        if (gone) throw new Error(`the embedded database did not start in ${clusterDir}: ${recent.slice(-8).join(' | ') || 'the server exited without a message'}`)
        if (readPostmasterLock(clusterDir)?.status === 'ready') return
        if (Date.now() > deadline) throw new Error(`the embedded database in ${clusterDir} was not ready after ${Math.round(timeoutMs / 1000)} s: ${recent.slice(-8).join(' | ')}`)
        await delay(50)
      }
    },
    async stop() {
      if (stopping) return exited.then(() => {})
      stopping = true
      child.stdin!.end()
      const timer = setTimeout(() => killGroup(child, 'SIGQUIT'), 60_000)
      await exited
      clearTimeout(timer)
    },
  }
}

/** SIGQUIT: PostgreSQL's immediate shutdown, for a server that did not finish a fast one in time. */
function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid) process.kill(-child.pid, signal)
  } catch {
    // Already gone.
  }
}

/** The server reads no PG* variables of Verdict's environment (a PGDATA or PGPORT of the user's must not redirect it). */
function serverEnvironment(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C', TZ: 'UTC' }
}

function runToEnd(program: string, args: string[], account: ServerAccount): Promise<{ code: number | null; output: string }> {
  return new Promise((resolveRun, rejectRun) => {
    const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'], env: serverEnvironment(), ...account })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.once('error', rejectRun)
    child.once('exit', (code) => resolveRun({ code, output }))
  })
}

/** A new cluster has only the `postgres` database: Verdict's own is made on first start. */
async function ensureDatabase(socketDir: string): Promise<void> {
  await withClient(connectionStringFor(socketDir, 'postgres'), async (client) => {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE])
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${DATABASE}`)
  })
}

async function withClient(connectionString: string, work: (client: pg.Client) => Promise<void>): Promise<void> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 5_000 })
  await client.connect()
  try {
    await work(client)
  } finally {
    await client.end()
  }
}

/** node-postgres takes a host that starts with `/` as the directory of a unix socket. */
function connectionStringFor(socketDir: string, database: string): string {
  return `postgres://${ROLE}@${encodeURIComponent(socketDir)}:${PORT}/${database}`
}

function delay(ms: number): Promise<void> {
  return new Promise((resolveDelay) => setTimeout(resolveDelay, ms))
}
