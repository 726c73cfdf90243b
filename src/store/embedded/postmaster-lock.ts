import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/** What a PostgreSQL server writes to `postmaster.pid` in its data directory while it runs. */
export interface PostmasterLock {
  readonly pid: number
  /** The first directory of unix_socket_directories. */
  readonly socketDir: string
  readonly port: number
  /** `starting`, `ready`, `stopping`, `standby`; empty while the line is not written yet. */
  readonly status: string
}

/** The lock file of `dataDir`, or undefined when there is none or it is not whole yet. */
export function readPostmasterLock(dataDir: string): PostmasterLock | undefined {
  let text: string
  try {
    text = readFileSync(join(dataDir, 'postmaster.pid'), 'utf8')
  } catch {
    return undefined
  }
  // Lines: pid, data directory, start time, port, socket directory, listen address, shared memory key, status.
  const lines = text.split('\n')
  const pid = Number(lines[0])
  const port = Number(lines[3])
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port)) return undefined
  return { pid, port, socketDir: (lines[4] ?? '').trim(), status: (lines[7] ?? '').trim() }
}

/** Whether a process with this id exists (one of another user counts: EPERM). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
