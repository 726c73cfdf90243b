import type { FastifyBaseLogger } from 'fastify'
import { join } from 'node:path'
import type { Config } from '../config.js'
import { AuditSpool, type AuditSpoolOptions } from './audit-spool.js'
import type { SpoolEvent } from './audit-writer.js'

/**
 * The spool lives under the data directory when the store is an external PostgreSQL server, the
 * one store that can be away while this process runs. The embedded server lives and dies with this
 * process (`verdict serve` exits when it ends), and `memory://` asks for nothing on disk.
 */
export async function openAuditSpool(
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'auditSpoolMaxBytes'>,
  onDamagedRecord: NonNullable<AuditSpoolOptions['onDamagedRecord']>,
): Promise<AuditSpool | undefined> {
  if (config.databaseUrl === undefined || config.dataDir === 'memory://') return undefined
  return AuditSpool.open({ dir: join(config.dataDir, 'spool'), maxBytes: config.auditSpoolMaxBytes, onDamagedRecord })
}

/** One line per change of state; per-batch events (spooled, replayed) are left to the metrics, failed replays to one line each attempt. */
export function logSpoolEvent(logger: FastifyBaseLogger | undefined, event: SpoolEvent, dir: string | undefined): void {
  if (!logger) return
  switch (event.type) {
    case 'spooling':
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
