/** The oldest moment `VERDICT_AUDIT_RETENTION_DAYS` keeps (whole days are dropped: audit-partitions.ts). */
export function retentionCutoff(now: Date, retentionDays: number): Date {
  return new Date(now.getTime() - retentionDays * 24 * 60 * 60 * 1000)
}
