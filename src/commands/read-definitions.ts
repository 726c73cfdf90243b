import { readFileSync } from 'node:fs'
import {
  LoadError,
  loadDefinitions,
  parseDocuments,
  type Definitions,
  type SourceDocument,
} from '../engine/index.js'
import { importDocuments, isImportable, type SkippedRule } from '../import/index.js'
import { UsageError } from './usage-error.js'

export interface ReadDefinitions extends Definitions {
  /** Rules of foreign policies that could not be translated, each with its reason. */
  skipped: SkippedRule[]
}

/** Reads rulesets and policies from files holding Verdict documents, Kyverno policies or VAPs. */
export function readDefinitionFiles(paths: readonly string[]): ReadDefinitions {
  const out: ReadDefinitions = { rulesets: [], policies: [], skipped: [] }
  for (const path of new Set(paths)) {
    const documents = readDocuments(path)
    const foreign = documents.filter((document) => isImportable(document.value))
    const own = documents.filter((document) => !isImportable(document.value))
    const loaded = loadDefinitions(own)
    out.rulesets.push(...loaded.rulesets)
    out.policies.push(...loaded.policies)
    if (foreign.length > 0) {
      for (const imported of importDocuments(foreign.map((document) => document.value))) {
        out.rulesets.push(...imported.rulesets)
        out.policies.push(...imported.policies)
        out.skipped.push(...imported.skipped)
      }
    }
  }
  refuseDuplicateNames('ruleset', out.rulesets)
  refuseDuplicateNames('policy', out.policies)
  return out
}

/** Two definitions of one name would make the result depend on file order. */
function refuseDuplicateNames(kind: string, definitions: readonly { name: string }[]): void {
  const seen = new Set<string>()
  for (const { name } of definitions) {
    if (seen.has(name)) throw new UsageError(`${kind} "${name}" is defined more than once`)
    seen.add(name)
  }
}

/** `-` reads standard input, so `kubectl get pod x -o yaml | verdict eval -f - ...` works. */
export function readDocuments(path: string): SourceDocument[] {
  let text: string
  try {
    text = readFileSync(path === '-' ? 0 : path, 'utf8')
  } catch (error) {
    throw new UsageError(`${path}: cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
  return parseDocuments(text, path === '-' ? 'stdin' : path)
}

export function isLoadError(error: unknown): error is LoadError {
  return error instanceof LoadError
}
