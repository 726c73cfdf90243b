import { readFileSync } from 'node:fs'
import * as yaml from 'js-yaml'
import { resolve } from 'node:path'
import { pairKey, type PairOutcome } from './pair-outcome.js'

/** A pair where Verdict knowingly differs from Kyverno, with the reason written down. */
export interface KnownDifference {
  test: string
  policy: string
  rule: string
  resource: string
  expected: string
  reason: string
}

/** A relative `file` is below `cwd` (default the process's working directory); messages name it as given. */
export function readKnownDifferences(file: string, cwd: string = process.cwd()): Map<string, KnownDifference> {
  const parsed = yaml.load(readFileSync(resolve(cwd, file), 'utf8')) as { differences?: KnownDifference[] } | null
  const entries = parsed?.differences ?? []
  const byKey = new Map<string, KnownDifference>()
  entries.forEach((entry, index) => {
    for (const field of ['test', 'policy', 'rule', 'resource', 'expected', 'reason'] as const) {
      if (typeof entry[field] !== 'string' || entry[field] === '') {
        throw new Error(`${file}: differences[${index}].${field} is required`)
      }
    }
    byKey.set(pairKey(entry), entry)
  })
  return byKey
}

export function isKnownDifference(known: Map<string, KnownDifference>, pair: PairOutcome): boolean {
  return known.has(pairKey(pair))
}
