import { readFileSync } from 'node:fs'

interface IndexEntry {
  dir: string
  tier: string
}

/** Tiers of the conformance tests (A = CEL only, ...), looked up by the end of a test's directory path. */
export class TierIndex {
  readonly #entries: IndexEntry[]

  constructor(entries: IndexEntry[]) {
    this.#entries = entries
  }

  static read(file: string): TierIndex {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { tests?: IndexEntry[] }
    return new TierIndex(parsed.tests ?? [])
  }

  /** The tier and the test's id (its directory as the index writes it). */
  lookup(testDirectory: string): IndexEntry | undefined {
    const normalized = testDirectory.replace(/\\/g, '/')
    return this.#entries.find((entry) => normalized.endsWith(`/${entry.dir}`))
  }
}
