import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The repository root, which a relative VERDICT_CONFORMANCE_DIR is resolved against. */
const REPOSITORY_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')

/** Where the data is looked for when VERDICT_CONFORMANCE_DIR is unset: the workspace beside the repository. */
export const DEFAULT_CONFORMANCE_DIR = '../shared/conformance/kyverno'

/** VERDICT_CONFORMANCE_DIR as given (an empty value counts as unset), or the default. */
const CONFORMANCE_DIR_SETTING = process.env.VERDICT_CONFORMANCE_DIR || DEFAULT_CONFORMANCE_DIR

/**
 * The tiered Kyverno policy library with its CLI tests (index.json, FORMAT.md, policies/...):
 * VERDICT_CONFORMANCE_DIR, resolved against the repository root, by default
 * ../shared/conformance/kyverno beside the repository as in the project workspace. Without its
 * index.json the suites that read it are skipped (never passed), and their titles say so and how
 * to get it.
 */
export const CONFORMANCE_DIR = resolve(REPOSITORY_ROOT, CONFORMANCE_DIR_SETTING)

export const HAS_CONFORMANCE = existsSync(join(CONFORMANCE_DIR, 'index.json'))

/** Appended to a suite's title when it is skipped for want of the library. */
export const WITHOUT_CONFORMANCE = HAS_CONFORMANCE
  ? ''
  : ` (skipped: no index.json in VERDICT_CONFORMANCE_DIR=${CONFORMANCE_DIR_SETTING}; point it at the tiered Kyverno conformance data, ${DEFAULT_CONFORMANCE_DIR} in the project workspace)`

export interface ConformanceEntry {
  dir: string
  tier: string
}

/** The library's index, or no tests without it. */
export function conformanceIndex(): ConformanceEntry[] {
  if (!HAS_CONFORMANCE) return []
  return (JSON.parse(readFileSync(join(CONFORMANCE_DIR, 'index.json'), 'utf8')) as { tests: ConformanceEntry[] }).tests
}
