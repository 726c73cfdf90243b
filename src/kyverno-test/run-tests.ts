import { relative } from 'node:path'
import { findIndexFile, findTestFiles, testDirectoryOf } from './find-tests.js'
import { judgeTest } from './judge-test.js'
import { isKnownDifference, type KnownDifference } from './known-differences.js'
import { loadTest } from './load-test.js'
import type { PairOutcome } from './pair-outcome.js'
import { TierIndex } from './tier-index.js'

export interface TestRunOptions {
  tiers?: string[]
  known?: Map<string, KnownDifference>
  /** Relative roots are below it, and a test outside the tier index is named relative to it (default the process's working directory). */
  cwd?: string
  /** Judge every policy as the ValidatingAdmissionPolicies it exports to, imported back. */
  throughVap?: boolean
}

export interface TestReport {
  testId: string
  tier: string
  pairs: PairOutcome[]
  /** Set when the test could not be loaded at all; its pairs are then unknown. */
  loadError?: string
}

export interface RunSummary {
  reports: TestReport[]
  passed: number
  failed: number
  known: number
  /** Known differences that now agree with Kyverno: the list should shrink. */
  fixed: PairOutcome[]
}

export function runKyvernoTests(roots: readonly string[], options: TestRunOptions = {}): RunSummary {
  const cwd = options.cwd ?? process.cwd()
  const indexFile = findIndexFile(roots, cwd)
  const index = indexFile ? TierIndex.read(indexFile) : undefined
  if (options.tiers?.length && !index) throw new Error('--tier needs the index.json of the conformance data above the test directories')
  const known = options.known ?? new Map<string, KnownDifference>()
  const summary: RunSummary = { reports: [], passed: 0, failed: 0, known: 0, fixed: [] }
  for (const file of findTestFiles(roots, cwd)) {
    const directory = testDirectoryOf(file)
    const entry = index?.lookup(directory)
    const tier = entry?.tier ?? '-'
    if (options.tiers?.length && !options.tiers.includes(tier)) continue
    const testId = entry?.dir ?? relative(cwd, directory)
    const report: TestReport = { testId, tier, pairs: [] }
    try {
      report.pairs = judgeTest(loadTest(file, new Date(), { throughVap: options.throughVap === true }), testId)
    } catch (error) {
      report.loadError = error instanceof Error ? error.message : String(error)
    }
    for (const pair of report.pairs) {
      const agrees = pair.actual === pair.expected
      const listed = isKnownDifference(known, pair)
      if (agrees) summary.passed += 1
      else if (listed) summary.known += 1
      else summary.failed += 1
      if (agrees && listed) summary.fixed.push(pair)
    }
    if (report.loadError) summary.failed += 1
    summary.reports.push(report)
  }
  return summary
}
