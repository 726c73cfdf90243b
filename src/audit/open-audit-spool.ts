import type { FastifyBaseLogger } from 'fastify'
import { join } from 'node:path'
import type { Config } from '../config.js'
import { AuditSpool, type AuditSpoolOptions } from './audit-spool.js'
import { AuditBacklogError, type SpoolEvent } from './audit-writer.js'

/**
 * The spool lives under the data directory. It holds audits while an external PostgreSQL server is
 * away, and on either store the backlog past what memory may hold when the store falls behind the
 * admission rate (reviews are answered before their audits commit). `memory://` asks for nothing
 * on disk, so it has none.
 */
export async function openAuditSpool(
  config: Pick<Config, 'dataDir' | 'auditSpoolMaxBytes'>,
  onDamagedRecord: NonNullable<AuditSpoolOptions['onDamagedRecord']>,
): Promise<AuditSpool | undefined> {
  if (config.dataDir === 'memory://') return undefined
  return AuditSpool.open({ dir: join(config.dataDir, 'spool'), maxBytes: config.auditSpoolMaxBytes, onDamagedRecord })
}

/** One line per change of state; per-batch events (spooled, replayed) are left to the metrics, failed replays to one line each attempt. */
export function logSpoolEvent(logger: FastifyBaseLogger | undefined, event: SpoolEvent, dir: string | undefined): void {
  if (!logger) return
  switch (event.type) {
    case 'spooling':
      if (event.reason instanceof AuditBacklogError) {
        logger.warn({ queuedChars: event.reason.queuedChars, spoolDir: dir }, 'the store is behind: audits past what memory holds go to the local spool and are replayed in order')
        return
      }
      logger.warn({ err: event.reason, spoolDir: dir }, 'the store is unreachable: audits go to the local spool and are replayed when it is back')
      return
    case 'drained':
      logger.info({ spoolDir: dir }, 'the audit spool is replayed; audits go to the store again')
      return
    case 'replay-failed':
      logger.warn({ err: event.error, retryInMs: event.retryInMs }, 'replaying the audit spool failed; trying again')
      return
    case 'rejected':
      logger.error({ err: event.error, entries: event.entries }, 'audits could be kept neither in the store nor in the spool')
      return
    default:
      return
  }
}
