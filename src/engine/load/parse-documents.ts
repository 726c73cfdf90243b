import * as yaml from 'js-yaml'
import { LoadError } from './load-error.js'

/** YAML 1.2 core types plus `<<` merge keys, which hand-written Kubernetes manifests use. */
const MANIFEST_SCHEMA = yaml.CORE_SCHEMA.withTags(yaml.mergeTag)

export type DocumentFormat = 'json' | 'yaml'

/** A document of a multi-document input, with its 1-based position for error messages. */
export interface SourceDocument {
  source: string
  index: number
  value: unknown
}

/**
 * Parses JSON or (multi-document) YAML text. Empty YAML documents are dropped but still counted,
 * so "document 3" in an error is the third `---` section the author sees in the file.
 */
export function parseDocuments(text: string, source: string, format: DocumentFormat = detectFormat(text)): SourceDocument[] {
  if (format === 'json') return expandList(parseJson(text, source)).map((value) => ({ source, index: 1, value }))
  let values: unknown[]
  try {
    values = yaml.loadAll(text, null, { schema: MANIFEST_SCHEMA }) as unknown[]
  } catch (error) {
    throw new LoadError([{ source, document: yamlDocumentOf(text, error), message: yamlMessage(error) }])
  }
  const documents: SourceDocument[] = []
  values.forEach((value, position) => {
    if (value === null || value === undefined) return
    for (const item of expandList(value)) documents.push({ source, index: position + 1, value: item })
  })
  return documents
}

export function detectFormat(text: string): DocumentFormat {
  const first = text.trimStart()[0]
  return first === '{' || first === '[' ? 'json' : 'yaml'
}

/** `kind: List` (what `kubectl get -o yaml` prints) holds its documents under items. */
function expandList(value: unknown): unknown[] {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const record = value as Record<string, unknown>
    if (typeof record.kind === 'string' && record.kind.endsWith('List') && Array.isArray(record.items)) return record.items
  }
  return [value]
}

function parseJson(text: string, source: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new LoadError([{ source, document: 1, message: `invalid JSON: ${(error as Error).message}` }])
  }
}

function yamlMessage(error: unknown): string {
  if (error instanceof yaml.YAMLException) {
    const mark = error.mark as { line?: number; column?: number } | undefined
    const at = mark?.line === undefined ? '' : ` at line ${mark.line + 1}, column ${(mark.column ?? 0) + 1}`
    return `invalid YAML${at}: ${error.reason}`
  }
  return `invalid YAML: ${(error as Error).message}`
}

/** js-yaml reports the line of the whole text; count the `---` separators before it. */
function yamlDocumentOf(text: string, error: unknown): number | undefined {
  const line = error instanceof yaml.YAMLException ? (error.mark as { line?: number } | undefined)?.line : undefined
  if (line === undefined) return undefined
  const lines = text.split('\n').slice(0, line + 1)
  let document = 1
  let sawContent = false
  for (const current of lines) {
    if (/^---(\s|$)/.test(current)) {
      if (sawContent) document += 1
      sawContent = false
    } else if (current.trim() !== '' && !current.trimStart().startsWith('#')) {
      sawContent = true
    }
  }
  return document
}
