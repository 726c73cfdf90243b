import type { AuditRows, PolicyAuditRow, RulesetAuditRow } from './audit-records.js'
import { storableText } from './storable-text.js'

/**
 * The rows with every text column storable (see storable-text.ts): request id, name, input and
 * updatedBy. The output goes to jsonb through storableJson when the rows are written. Done
 * before a replay compares rows with what is stored, so a row whose request id held U+0000 is
 * recognised once stored, and never written twice. Rows that need nothing come back as they are.
 */
export function storableAuditRows(rows: AuditRows): AuditRows {
  if (!rows.policyAudits.some(needsChange) && !rows.rulesetAudits.some(needsChange)) return rows
  return {
    policyAudits: rows.policyAudits.map((row): PolicyAuditRow => ({ ...storableColumns(row), policyName: storableText(row.policyName) })),
    rulesetAudits: rows.rulesetAudits.map((row): RulesetAuditRow => ({ ...storableColumns(row), rulesetName: storableText(row.rulesetName) })),
  }
}

function storableColumns<T extends PolicyAuditRow | RulesetAuditRow>(row: T): T {
  return { ...row, requestId: storableText(row.requestId), input: storableText(row.input), updatedBy: storableText(row.updatedBy) }
}

function needsChange(row: PolicyAuditRow | RulesetAuditRow): boolean {
  const name = 'policyName' in row ? row.policyName : row.rulesetName
  return [row.requestId, name, row.input, row.updatedBy].some((text) => storableText(text) !== text)
}
