import { readdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { generateValidatingAdmissionPolicies } from '../export/vap/index.js'
import { importDocuments, type ImportedDocument } from '../import/index.js'
import { readAll } from './load-test.js'
import type { PairOutcome } from './pair-outcome.js'
import { runKyvernoTests, type TestRunOptions } from './run-tests.js'

/** One policy of the policy files, and whether it could be exported as ValidatingAdmissionPolicies. */
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
  /** Every policy of the YAML files below the roots (tested or not), exported. */
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
 * the importer skipped whole (no ruleset) are not counted: there is nothing to export; policies
 * no test names are counted as generated or refused, with no pair.
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

/** Every policy the importer reads from the YAML files below the roots (test folders aside), each exported. */
function policiesOf(roots: readonly string[], cwd: string): RoundTripPolicy[] {
  const out: RoundTripPolicy[] = []
  for (const file of policyFiles(roots.map((root) => resolve(cwd, root)))) {
    let documents: unknown[]
    try {
      documents = readAll(file)
    } catch {
      continue
    }
    let imported: ImportedDocument[]
    try {
      imported = importDocuments(documents)
    } catch {
      // A file the importer refuses holds no policy Verdict would judge.
      continue
    }
    for (const document of imported) {
      for (const policy of document.policies) {
        const generated = generateValidatingAdmissionPolicies(policy, document.rulesets)
        out.push(
          generated.ok
            ? { file, name: policy.name, generated: generated.policies.length }
            : { file, name: policy.name, refused: generated.refusals.map((refusal) => `${refusal.field}: ${refusal.reason}`) },
        )
      }
    }
  }
  return out
}

/** The YAML files below the roots, hidden folders (the tests' `.kyverno-test`) left out, in a stable order. */
function policyFiles(roots: readonly string[]): string[] {
  const files: string[] = []
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (/\.ya?ml$/.test(entry.name)) files.push(path)
    }
  }
  for (const root of roots) walk(root)
  return files.sort()
}
