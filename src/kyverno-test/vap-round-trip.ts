import { dirname, resolve } from 'node:path'
import { generateValidatingAdmissionPolicies } from '../export/vap/index.js'
import { importDocuments } from '../import/index.js'
import { findTestFiles } from './find-tests.js'
import { readAll } from './load-test.js'
import type { PairOutcome } from './pair-outcome.js'
import { runKyvernoTests, type TestRunOptions } from './run-tests.js'
import type { KyvernoTestFile } from './test-file.js'

/** One policy of the tests' policy files, and whether it could be exported as ValidatingAdmissionPolicies. */
export interface RoundTripPolicy {
  file: string
  name: string
  /** Generated: how many ValidatingAdmissionPolicies. */
  generated?: number
  /** Refused: the generator's reasons, `field: reason`. */
  refused?: string[]
}

export interface RoundTripPair {
  original: PairOutcome
  throughVap: PairOutcome
}

export interface RoundTripFigures {
  policies: RoundTripPolicy[]
  /** Pairs of the tests whose policy was generated, each judged both ways. */
  compared: RoundTripPair[]
  /** Those whose result through the VAPs is not the original's. */
  differing: RoundTripPair[]
  /** Pairs of policies that were refused (not compared). */
  refusedPairs: number
}

/**
 * The round trip of issue 34: every policy of the Kyverno test folders below `roots` imported,
 * exported as ValidatingAdmissionPolicies, imported back through the VAP importer and judged by
 * `verdict test`, pair by pair against the same tests judged with the policy as imported. Policies
 * the importer skipped whole (no ruleset) are not counted: there is nothing to export.
 */
export function measureVapRoundTrip(roots: readonly string[], options: Pick<TestRunOptions, 'cwd'> = {}): RoundTripFigures {
  const original = runKyvernoTests(roots, options)
  const through = runKyvernoTests(roots, { ...options, throughVap: true })
  const compared: RoundTripPair[] = []
  let refusedPairs = 0
  original.reports.forEach((report, i) => {
    const other = through.reports[i]
    if (!other || other.testId !== report.testId) throw new Error(`the two runs listed different tests (${report.testId})`)
    report.pairs.forEach((pair, j) => {
      const throughVap = other.pairs[j] as PairOutcome
      if (throughVap.actual === 'unsupported' && throughVap.detail?.startsWith('not generated as a ValidatingAdmissionPolicy')) refusedPairs += 1
      else if (pair.actual !== 'unsupported') compared.push({ original: pair, throughVap })
    })
  })
  return {
    policies: policiesOf(roots, options.cwd ?? process.cwd()),
    compared,
    differing: compared.filter((pair) => pair.original.actual !== pair.throughVap.actual),
    refusedPairs,
  }
}

function policiesOf(roots: readonly string[], cwd: string): RoundTripPolicy[] {
  const seen = new Map<string, RoundTripPolicy>()
  for (const testFile of findTestFiles(roots, cwd)) {
    const definition = readAll(testFile)[0] as KyvernoTestFile
    for (const path of definition.policies ?? []) {
      const file = resolve(dirname(testFile), path)
      for (const imported of importDocuments(readAll(file))) {
        const ruleset = imported.rulesets[0]
        const policy = imported.policies[0]
        const key = `${file}\u0000${imported.sourceName}`
        if (!ruleset || !policy || seen.has(key)) continue
        const generated = generateValidatingAdmissionPolicies(policy, [ruleset])
        seen.set(
          key,
          generated.ok
            ? { file, name: imported.sourceName, generated: generated.policies.length }
            : { file, name: imported.sourceName, refused: generated.refusals.map((refusal) => `${refusal.field}: ${refusal.reason}`) },
        )
      }
    }
  }
  return [...seen.values()]
}
