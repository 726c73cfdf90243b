import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { ScanInputError } from '../scan-error.js'
import { helmSourceOf } from './helm-source.js'
import { manifestFiles } from './manifest-files.js'
import type { ManifestObject } from './manifest-object.js'
import { formatOf, parseManifestText, type ParsedDocument } from './parse-manifest-text.js'

export interface ReadManifestsOptions {
  /** Standard input's text, asked for only when `-` is among the paths. */
  readStdin: () => string
  /** Told of each document passed over, as `file:line: why`. */
  warn: (message: string) => void
  /** Relative paths name files below it (default the process's working directory); results name them as given. */
  cwd?: string
}

/** The name results give standard input where they give a file. */
export const STDIN_FILE = 'stdin'

/**
 * Every Kubernetes object of the files and directories named (standard input for `-`, and when
 * none is named), in file and document order, List items in place of their List. Any file that
 * does not parse fails the whole read, so a scan never reports on part of its input.
 */
export function readManifests(paths: readonly string[], options: ReadManifestsOptions): ManifestObject[] {
  const objects: ManifestObject[] = []
  const cwd = options.cwd ?? process.cwd()
  for (const path of manifestFiles(paths.length === 0 ? ['-'] : paths, cwd)) {
    const file = path === '-' ? STDIN_FILE : path
    const text = path === '-' ? options.readStdin() : readText(path, cwd)
    const documents = parseManifestText(text, file, formatOf(file, text))
    const lines = documents.some((document) => document.line !== undefined) ? text.split('\n') : []
    for (const document of documents) objects.push(...objectsOf(document, file, lines, options.warn))
  }
  return objects
}

function readText(path: string, cwd: string): string {
  try {
    return readFileSync(resolve(cwd, path), 'utf8')
  } catch (error) {
    throw new ScanInputError(`${path}: cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
}

function objectsOf(document: ParsedDocument, file: string, lines: readonly string[], warn: (message: string) => void): ManifestObject[] {
  // Empty documents are what Helm renders for a template that produced nothing.
  if (document.value === null || document.value === undefined || document.line === undefined) return []
  const template = helmSourceOf(lines, document.line)
  const items = listItems(document.value)
  const located = items
    ? items.map((value, index) => ({ value, line: document.itemLines?.[index] ?? (document.line as number) }))
    : [{ value: document.value, line: document.line }]
  const objects: ManifestObject[] = []
  for (const { value, line } of located) {
    const object = kubernetesObject(value, file, line, template)
    if (object) objects.push(object)
    else warn(`${file}:${line}: not a Kubernetes object (no apiVersion or kind), skipped`)
  }
  return objects
}

/** `kubectl get -o yaml` prints `kind: List` (or `PodList`, ...) with the objects under items. */
function listItems(value: unknown): unknown[] | undefined {
  if (!isRecord(value) || typeof value.kind !== 'string' || !value.kind.endsWith('List')) return undefined
  return Array.isArray(value.items) ? value.items : undefined
}

function kubernetesObject(value: unknown, file: string, line: number, template: string | undefined): ManifestObject | undefined {
  if (!isRecord(value)) return undefined
  const { apiVersion, kind } = value
  if (typeof apiVersion !== 'string' || apiVersion === '' || typeof kind !== 'string' || kind === '') return undefined
  const metadata = isRecord(value.metadata) ? value.metadata : {}
  return {
    file,
    line,
    ...(template === undefined ? {} : { template }),
    apiVersion,
    kind,
    namespace: typeof metadata.namespace === 'string' && metadata.namespace !== '' ? metadata.namespace : null,
    name: typeof metadata.name === 'string' && metadata.name !== '' ? metadata.name : null,
    value,
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
