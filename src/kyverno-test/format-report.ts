import type { KnownDifference } from './known-differences.js'
import { isKnownDifference } from './known-differences.js'
import type { PairOutcome } from './pair-outcome.js'
import type { RunSummary, TestReport } from './run-tests.js'

/** One line per test (failing pairs, then pairs an exception let through, below it), a table per tier, and the plain closing line. */
export function formatReport(summary: RunSummary, known: Map<string, KnownDifference>): string[] {
  const lines: string[] = []
  for (const report of summary.reports) lines.push(...testLines(report, known))
  lines.push('', ...tierTable(summary.reports, known))
  for (const pair of summary.fixed) lines.push(`now agrees, remove from known differences: ${describePair(pair)}`)
  if (summary.known > 0) lines.push(`${summary.known} pairs differ as recorded in the known-differences file`)
  lines.push(`${summary.passed} passed, ${summary.failed} failed`)
  return lines
}

function testLines(report: TestReport, known: Map<string, KnownDifference>): string[] {
  if (report.loadError) return [`ERROR ${report.testId}: ${report.loadError}`]
  const agreeing = report.pairs.filter((pair) => pair.actual === pair.expected).length
  const unexpected = report.pairs.filter((pair) => pair.actual !== pair.expected && !isKnownDifference(known, pair))
  const knownCount = report.pairs.length - agreeing - unexpected.length
  const status = unexpected.length > 0 ? 'FAIL ' : knownCount > 0 ? 'KNOWN' : 'ok   '
  const lines = [`${status} ${report.testId} [${report.tier}] ${agreeing}/${report.pairs.length}`]
  for (const pair of unexpected) lines.push(`      ${describePair(pair)}`)
  for (const pair of report.pairs) {
    if (pair.exception !== undefined && pair.actual === pair.expected) lines.push(`      ${pair.test} ${pair.policy}/${pair.rule} ${pair.resource}: skip, exempted by exception "${pair.exception}"`)
  }
  return lines
}

function describePair(pair: PairOutcome): string {
  const detail = pair.detail ? ` (${pair.detail})` : ''
  return `${pair.test} ${pair.policy}/${pair.rule} ${pair.resource}: expected ${pair.expected}, got ${pair.actual}${detail}`
}

function tierTable(reports: TestReport[], known: Map<string, KnownDifference>): string[] {
  const tiers = new Map<string, { tests: number; pairs: number; passed: number; known: number; failed: number }>()
  for (const report of reports) {
    const row = tiers.get(report.tier) ?? { tests: 0, pairs: 0, passed: 0, known: 0, failed: 0 }
    row.tests += 1
    row.pairs += report.pairs.length
    for (const pair of report.pairs) {
      if (pair.actual === pair.expected) row.passed += 1
      else if (isKnownDifference(known, pair)) row.known += 1
      else row.failed += 1
    }
    if (report.loadError) row.failed += 1
    tiers.set(report.tier, row)
  }
  const header = ['tier', 'tests', 'pairs', 'passed', 'known', 'failed', 'agreement']
  const rows = [...tiers.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([tier, row]) => [
      tier,
      `${row.tests}`,
      `${row.pairs}`,
      `${row.passed}`,
      `${row.known}`,
      `${row.failed}`,
      row.pairs === 0 ? '-' : `${((100 * row.passed) / row.pairs).toFixed(2)}%`,
    ])
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)))
  const format = (cells: string[]): string => cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd()
  return [format(header), ...rows.map(format)]
}
