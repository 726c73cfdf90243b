import { describeLocation, describeObject } from '../manifests/manifest-object.js'
import { scanFindings } from '../scan-findings.js'
import type { ScanReport, ScanSummary } from '../scan-result.js'

const HEADER = ['OBJECT', 'LOCATION', 'POLICY', 'ACTION', 'RULE', 'SEVERITY', 'MESSAGE'] as const

/**
 * One aligned row per failed or erring rule (and per rule a PolicyException let through, its
 * message naming it), for people reading a CI log, then the summary line.
 * Messages are folded onto their row so each finding stays one line that grep can find.
 */
export function formatTable(report: ScanReport): string {
  const rows = scanFindings(report).map((finding) => [
    describeObject(finding.object),
    describeLocation(finding.object),
    finding.policy,
    finding.action,
    `${finding.ruleset}/${finding.rule}`,
    finding.severity,
    (finding.status === 'error' ? `error: ${finding.message}` : finding.message).replace(/\s*\n\s*/g, ' '),
  ])
  const lines: string[] = []
  if (rows.length > 0) {
    const table = [[...HEADER], ...rows]
    const widths = HEADER.map((_, column) => Math.max(...table.map((row) => (row[column] as string).length)))
    for (const row of table) lines.push(row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] as number))).join('  ').trimEnd())
  }
  lines.push(summaryLine(report.summary))
  return lines.join('\n')
}

export function summaryLine(summary: ScanSummary): string {
  const byAction = summary.failuresByAction
  const failures = byAction.Deny + byAction.Warn + byAction.Audit
  return `${count(summary.objects, 'object')}, ${summary.judged} judged by a policy; ${count(failures, 'failure')}: Deny ${byAction.Deny}, Warn ${byAction.Warn}, Audit ${byAction.Audit}`
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`
}
