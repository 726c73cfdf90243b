import { createAuditPartitions, dropAuditPartitionsBefore, forgetAuditPartitions, utcDay } from '../store/audit-partitions.js'
import { retentionCutoff } from '../store/audit-retention.js'
import type { Db } from '../store/db.js'

const DAY_MS = 24 * 60 * 60 * 1000

export interface AuditPartitionJobOptions {
  db: Db
  /** 0 keeps audits forever: nothing is dropped. */
  retentionDays: number
  /** Days after today whose partitions are made ahead; default 2. */
  daysAhead?: number
  /** Only the leader creates and drops (replicas would take the same locks in turn). */
  isLeader: () => boolean
  logger: { info(fields: object, message: string): void; error(fields: object, message: string): void }
  /** Default: a minute after start, then every hour. */
  firstRunMs?: number
  everyMs?: number
  now?: () => Date
}

export interface AuditPartitionPass {
  /** Days whose partitions this pass created (UTC, YYYY-MM-DD). */
  created: string[]
  /** Days this pass dropped, with their counters, as older than the retention. */
  dropped: string[]
}

export interface AuditPartitionJob {
  /** One pass now (tests, and the timer); undefined when it did not run. */
  runOnce(): Promise<AuditPartitionPass | undefined>
  stop(): Promise<void>
}

/**
 * Keeps the audit tables' window of day partitions (migration 007): today's and the next
 * `daysAhead` days' exist before anything is written into them, and days wholly older than
 * `VERDICT_AUDIT_RETENTION_DAYS` are dropped, partitions and counters, in one short transaction
 * each pass. Runs on a timer that does not keep the process alive, only where `isLeader` says so
 * (the controller's Lease holder). Replicas without a controller all run it: harmless, the
 * database functions take an advisory lock and skip what is already done.
 */
export function startAuditPartitionJob(options: AuditPartitionJobOptions): AuditPartitionJob {
  const now = options.now ?? (() => new Date())
  const daysAhead = options.daysAhead ?? 2
  let running: Promise<AuditPartitionPass> | undefined
  let stopped = false

  const pass = async (): Promise<AuditPartitionPass> => {
    const today = now()
    const days = Array.from({ length: daysAhead + 1 }, (_, i) => utcDay(new Date(today.getTime() + i * DAY_MS)))
    const created = await createAuditPartitions(options.db, days)
    if (created.length > 0) options.logger.info({ days: created }, 'audit partitions created ahead')
    if (options.retentionDays <= 0) return { created, dropped: [] }
    const cutoff = retentionCutoff(today, options.retentionDays)
    const dropped = await options.db.transaction((tx) => dropAuditPartitionsBefore(tx, cutoff))
    if (dropped.length > 0) forgetAuditPartitions(options.db)
    if (dropped.length > 0) options.logger.info({ days: dropped, before: cutoff.toISOString() }, 'expired audit days dropped')
    return { created, dropped }
  }

  const runOnce: AuditPartitionJob['runOnce'] = async () => {
    if (stopped || !options.isLeader() || running) return undefined
    running = pass()
    try {
      return await running
    } finally {
      running = undefined
    }
  }

  const tick = (): void => {
    runOnce().catch((error: unknown) => options.logger.error({ err: error }, 'maintaining the audit partitions failed; the next pass tries again'))
  }
  const first = setTimeout(tick, options.firstRunMs ?? 60_000)
  const every = setInterval(tick, options.everyMs ?? 60 * 60 * 1000)
  first.unref()
  every.unref()
  return {
    runOnce,
    async stop() {
      stopped = true
      clearTimeout(first)
      clearInterval(every)
      await running?.catch(() => {})
    },
  }
}
