import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The Kyverno policy library with its CLI tests lives in the workspace beside the repository
 * (../shared/conformance/kyverno), not in it. A clone on its own has none: the suites that read
 * it are skipped, and their titles say so and how to get it.
 */
export const CONFORMANCE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'shared', 'conformance', 'kyverno')

export const HAS_CONFORMANCE = existsSync(join(CONFORMANCE_DIR, 'index.json'))

/** Appended to a suite's title when it is skipped for want of the library. */
export const WITHOUT_CONFORMANCE = HAS_CONFORMANCE ? '' : ' (skipped: needs ../shared/conformance/kyverno beside the repository, as in the project workspace)'

export interface ConformanceEntry {
  dir: string
  tier: string
}

/** The library's index, or no tests without it. */
export function conformanceIndex(): ConformanceEntry[] {
  if (!HAS_CONFORMANCE) return []
  return (JSON.parse(readFileSync(join(CONFORMANCE_DIR, 'index.json'), 'utf8')) as { tests: ConformanceEntry[] }).tests
}
