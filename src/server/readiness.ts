import type { AuditSpool } from '../audit/audit-spool.js'
import type { AuditWriter } from '../audit/audit-writer.js'
import type { Db } from '../store/db.js'

export type Readiness = { ready: true; note?: string } | { ready: false; reason: string }

/**
 * Ready when this replica can do its work: the definition caches are loaded before any listener
 * opens, so what is left is the store. While the store is away a replica with a spool still
 * answers evaluations and reviews (their audits are kept on disk), so it stays ready: taking
 * every replica out of the Service during a database outage would turn it into an admission
 * outage. Without a spool, or with the spool failing, it is not ready.
 */
export async function readiness(deps: { db: Db; audits: AuditWriter; spool: AuditSpool | undefined }): Promise<Readiness> {
  const store = await storeAnswers(deps.db)
  if (store === true) return deps.audits.spooling ? { ready: true, note: 'replaying the audit spool' } : { ready: true }
  if (deps.spool) return { ready: true, note: `${store}; audits are spooled (${deps.spool.bytes} bytes waiting)` }
  return { ready: false, reason: store }
}

/** True, or why not: the store must answer within two seconds. */
async function storeAnswers(db: Db): Promise<true | string> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('the store did not answer within 2 s')), 2000)
  })
  try {
    await Promise.race([db.query('SELECT 1'), timeout])
    return true
  } catch (error) {
    return `store: ${error instanceof Error ? error.message : String(error)}`
  } finally {
    clearTimeout(timer)
  }
}
