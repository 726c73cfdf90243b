import { execFileSync, spawnSync } from 'node:child_process'
import { statSync } from 'node:fs'
import { userInfo } from 'node:os'

/** The user and group the embedded PostgreSQL runs as; empty: this process's own. */
export interface ServerAccount {
  readonly uid?: number
  readonly gid?: number
}

/**
 * PostgreSQL refuses to run as root. As root, the server runs as the owner of its data directory
 * when that is not root (a store made earlier, or prepared by hand), else as the `postgres` user
 * when the machine has one, else as `nobody`. Users are never created: that is the machine's
 * administrator's call, not a database's.
 */
export function serverAccount(dataDir: string): ServerAccount {
  if (userInfo().uid !== 0) return {}
  const owner = ownerOf(dataDir)
  if (owner && owner.uid !== 0) return owner
  return idsOf('postgres') ?? idsOf('nobody') ?? failNoAccount()
}

function ownerOf(path: string): { uid: number; gid: number } | undefined {
  try {
    const stat = statSync(path)
    return { uid: stat.uid, gid: stat.gid }
  } catch {
    return undefined
  }
}

function idsOf(user: string): { uid: number; gid: number } | undefined {
  try {
    const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim())
    const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim())
    return Number.isInteger(uid) && Number.isInteger(gid) ? { uid, gid } : undefined
  } catch {
    return undefined
  }
}

function failNoAccount(): never {
  throw new Error('running as root, the embedded database needs a user to run PostgreSQL as (postgres or nobody), and this machine has neither: run Verdict as another user')
}

/**
 * As root, the server's user must be able to enter the data directory (every parent searchable):
 * a directory made with mkdtemp, or under /root, is not. Said before initdb, which would only
 * report "permission denied" on a path.
 */
export function checkAccountReaches(dir: string, account: ServerAccount): void {
  if (account.uid === undefined) return
  const probe = spawnSync('/bin/sh', ['-c', 'test -x "$1"', 'reach', dir], { uid: account.uid, gid: account.gid ?? account.uid, stdio: 'ignore' })
  if (probe.status !== 0) {
    throw new Error(`running as root, Verdict runs the embedded PostgreSQL as uid ${account.uid}, which cannot enter ${dir}: give it access (for example chown ${account.uid} ${dir} and chmod o+x on its parents), or run Verdict as another user`)
  }
}
