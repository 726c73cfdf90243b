import { readFileSync } from 'node:fs'
import * as yaml from 'js-yaml'
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

export function readKnownDifferences(file: string): Map<string, KnownDifference> {
  const parsed = yaml.load(readFileSync(file, 'utf8')) as { differences?: KnownDifference[] } | null
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
