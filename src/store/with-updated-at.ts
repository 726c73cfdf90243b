import type { AuditRows } from './audit-records.js'

/**
 * The rows with `updatedAt` set to `at` where they have none. Stamped once, before any attempt to
 * store them, a row keeps its time through a failed commit, the spool and its replay, which is
 * how the replay recognises a row already stored. Rows that all carry a time come back as is.
 */
export function withUpdatedAt(rows: AuditRows, at: Date): AuditRows {
  const unstamped = (row: { updatedAt?: Date }) => row.updatedAt === undefined
  if (!rows.policyAudits.some(unstamped) && !rows.rulesetAudits.some(unstamped)) return rows
  return {
    policyAudits: rows.policyAudits.map((row) => (row.updatedAt === undefined ? { ...row, updatedAt: at } : row)),
    rulesetAudits: rows.rulesetAudits.map((row) => (row.updatedAt === undefined ? { ...row, updatedAt: at } : row)),
  }
}
