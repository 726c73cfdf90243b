// What a bench that loads audits with INSERT ... SELECT must do around it, now that the writer
// (not a trigger) keeps the counters and each day has its own partition (migration 007).
import { createAuditPartitions, utcDay } from '../src/store/audit-partitions.js'
import type { Db } from '../src/store/db.js'

const DAY_MS = 86_400_000

/** The partitions of every UTC day from `days` days before `end` to the day after it. */
export async function prepareAuditDays(db: Db, end: Date, days: number): Promise<void> {
  const wanted: string[] = []
  for (let at = end.getTime() - (days + 1) * DAY_MS; at <= end.getTime() + DAY_MS; at += DAY_MS) wanted.push(utcDay(new Date(at)))
  await createAuditPartitions(db, wanted)
}
