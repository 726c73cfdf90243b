import { deleteAuditsOlderThan, retentionCutoff } from '../store/audit-retention.js'
import type { Db } from '../store/db.js'

export interface RetentionJobOptions {
  db: Db
  /** 0 keeps audits forever: the job never runs. */
  retentionDays: number
  /** Only the leader prunes (several replicas would delete the same rows in turn). */
  isLeader: () => boolean
  logger: { info(fields: object, message: string): void; error(fields: object, message: string): void }
  /** Default: a minute after start, then every hour. */
  firstRunMs?: number
  everyMs?: number
  /** Rows per DELETE statement, each committed alone; default 10,000. */
  batchSize?: number
  now?: () => Date
}

export interface RetentionJob {
  /** One pass now (tests, and the timer); resolves with what it deleted, or undefined when it did not run. */
  runOnce(): Promise<{ policyAudits: number; rulesetAudits: number } | undefined>
  stop(): Promise<void>
}

/**
 * Deletes audits older than `VERDICT_AUDIT_RETENTION_DAYS`, in bounded batches that each commit
 * on their own (see deleteAuditsOlderThan), on a timer that does not keep the process alive.
 * A pass runs only where `isLeader` says so (the controller's Lease holder). Replicas without a
 * controller all prune: harmless, since a row deleted by one is simply not found by the other
 * (the count triggers subtract only rows actually deleted), just wasted work.
 */
export function startRetentionJob(options: RetentionJobOptions): RetentionJob {
  const now = options.now ?? (() => new Date())
  let running: Promise<unknown> | undefined
  let stopped = false

  const runOnce: RetentionJob['runOnce'] = async () => {
    if (stopped || options.retentionDays <= 0 || !options.isLeader()) return undefined
    if (running) return undefined
    const pass = (async () => {
      const cutoff = retentionCutoff(now(), options.retentionDays)
      const deleted = await deleteAuditsOlderThan(options.db, cutoff, options.batchSize === undefined ? {} : { batchSize: options.batchSize })
      if (deleted.policyAudits + deleted.rulesetAudits > 0) options.logger.info({ ...deleted, before: cutoff.toISOString() }, 'expired audits deleted')
      return deleted
    })()
    running = pass
    try {
      return await pass
    } finally {
      running = undefined
    }
  }

  const tick = (): void => {
    runOnce().catch((error: unknown) => options.logger.error({ err: error }, 'deleting expired audits failed; the next pass tries again'))
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
