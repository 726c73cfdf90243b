// What every benchmark PostgreSQL shares, the embedded build (postgres-server.ts) and one from the
// machine's own binaries (system-postgres.ts): the contract, the server flags, the user it runs as,
// and how it is found and killed.
import { execFileSync } from 'node:child_process'
import { chownSync, readdirSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { userInfo } from 'node:os'
import { join } from 'node:path'

export interface BenchPostgres {
  url: string
  /** SIGKILL to the postmaster and every backend (bench:outage). */
  kill(): void
  /** The postmaster's process id, for CPU accounting (bench/process-cpu.ts). */
  postmasterPid(): number
  /** Starts it again on the same data directory and port after kill(). */
  restart(): Promise<void>
  stop(): Promise<void>
}

/**
 * As root, PostgreSQL refuses to run, so `dir` goes to the `postgres` user (created if missing),
 * whose ids are returned for the processes to run as; otherwise nothing changes.
 */
export function handToPostgresUser(dir: string): { uid?: number; gid?: number } {
  if (userInfo().uid !== 0) return {}
  const { uid, gid } = ensurePostgresUser()
  chownSync(dir, uid, gid)
  return { uid, gid }
}

/** The `postgres` user's ids, the user created first when missing. */
export function ensurePostgresUser(): { uid: number; gid: number } {
  if (!userExists('postgres')) {
    // A group called postgres may exist without the user (a removed package, for instance).
    const groupFlag = groupExists('postgres') ? ['--gid', 'postgres'] : ['--user-group']
    execFileSync('useradd', ['--system', ...groupFlag, '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres'], { stdio: 'pipe' })
  }
  return {
    uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()),
    gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()),
  }
}

function userExists(name: string): boolean {
  try {
    execFileSync('id', ['-u', name], { stdio: 'pipe' })
    return true
  } catch {
    return false
  }
}

function groupExists(name: string): boolean {
  try {
    execFileSync('getent', ['group', name], { stdio: 'pipe' })
    return true
  } catch {
    return false
  }
}

/** The server flags of every bench cluster, the unix socket in `socketDir`. */
export function serverFlags(socketDir: string, durable: boolean): string[] {
  // wal_init_zero=off: a fresh cluster under write load creates a new 16 MB WAL segment every few
  // seconds and, by default, zero-fills it first, stalling the commit waiting for it by 30-90 ms
  // on this machine (pg_stat_activity shows IO:WalInitWrite). A cluster in service recycles old
  // segments instead, so that stall is an artefact of the benchmark's brand-new database.
  // BENCH_PG_FLAGS adds server flags ("-c name=value ...") for experiments.
  const flags = ['-k', socketDir, '-c', 'listen_addresses=127.0.0.1', '-c', 'max_wal_size=4GB', '-c', 'wal_init_zero=off']
  flags.push(...(process.env.BENCH_PG_FLAGS ?? '').split(' ').filter(Boolean))
  if (!durable) flags.push('-c', 'fsync=off')
  return flags
}

/** A port nothing listens on right now: the OS picks one, and it is released for the server. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

/**
 * A crash, not a shutdown: SIGKILL to the postmaster of `dataDir` and to every process it started,
 * so connections drop mid-statement and the next start runs crash recovery.
 */
export function killPostgres(dataDir: string): void {
  const postmaster = postmasterPidOf(dataDir)
  for (const pid of [...childrenOf(postmaster), postmaster]) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // Already gone.
    }
  }
}

export function postmasterPidOf(dataDir: string): number {
  return Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0])
}

/** Processes whose parent is `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  const children: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      // The command name (field 2) may hold spaces; the parent pid is the second field after it.
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      if (parent === pid) children.push(Number(entry))
    } catch {
      // The process ended while we looked.
    }
  }
  return children
}
