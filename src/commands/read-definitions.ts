import { readFileSync } from 'node:fs'
import {
  LoadError,
  loadDefinitions,
  parseDocuments,
  type Definitions,
  type LoadProblem,
  type PolicyException,
  type SourceDocument,
} from '../engine/index.js'
import { importDocuments, isImportable, type SkippedRule } from '../import/index.js'
import { parseExceptionBody } from '../services/exception-body.js'
import { InvalidRequestError } from '../services/service-errors.js'
import { processContext, resolvePath, type CliContext } from './cli-context.js'
import { UsageError } from './usage-error.js'

export interface ReadDefinitions extends Definitions {
  /** Rules of foreign policies that could not be translated, each with its reason. */
  skipped: SkippedRule[]
  /** Verdict PolicyExceptions found beside the definitions: judging honours them as the service does. */
  exceptions: PolicyException[]
}

/** Reads rulesets, policies and policy exceptions from files holding Verdict documents, Kyverno policies or VAPs. */
/** Relative paths name files below the context's cwd, `-` its standard input (by default the process's). */
export function readDefinitionFiles(paths: readonly string[], context: Pick<CliContext, 'cwd' | 'stdin'> = processContext()): ReadDefinitions {
  const out: ReadDefinitions = { rulesets: [], policies: [], skipped: [], exceptions: [] }
  for (const path of new Set(paths)) {
    const documents = readDocuments(path, context)
    const foreign = documents.filter((document) => isImportable(document.value))
    const own = documents.filter((document) => !isImportable(document.value) && !isExceptionManifest(document.value))
    out.exceptions.push(...readExceptions(documents.filter((document) => isExceptionManifest(document.value))))
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
  refuseDuplicateNames('exception', out.exceptions)
  return out
}

function isExceptionManifest(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'PolicyException' && 'apiVersion' in value
}

/** Checked as the REST API and the controller check them (schema, CEL conditions, expiresAt); every problem of every document reported. */
function readExceptions(documents: readonly SourceDocument[]): PolicyException[] {
  const exceptions: PolicyException[] = []
  const problems: LoadProblem[] = []
  for (const document of documents) {
    const name = (document.value as { metadata?: { name?: unknown } }).metadata?.name
    if (typeof name !== 'string') {
      problems.push({ source: document.source, document: document.index, path: 'metadata.name', message: 'is required' })
      continue
    }
    try {
      exceptions.push({ name, ...parseExceptionBody(name, document.value, '').spec })
    } catch (error) {
      if (!(error instanceof InvalidRequestError)) throw error
      problems.push({ source: document.source, document: document.index, message: error.details })
    }
  }
  if (problems.length > 0) throw new LoadError(problems)
  return exceptions
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
export function readDocuments(path: string, context: Pick<CliContext, 'cwd' | 'stdin'> = processContext()): SourceDocument[] {
  let text: string
  try {
    text = path === '-' ? context.stdin.read() : readFileSync(resolvePath(context, path), 'utf8')
  } catch (error) {
    throw new UsageError(`${path}: cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
  return parseDocuments(text, path === '-' ? 'stdin' : path)
}

export function isLoadError(error: unknown): error is LoadError {
  return error instanceof LoadError
}
