import * as yaml from 'js-yaml'
import { documentPositions, type DocumentPosition } from './document-positions.js'
import { findJsonSyntaxError } from './json-syntax-error.js'
import { ManifestError } from './manifest-error.js'
import { TextLines } from './text-lines.js'

/** The schema the engine reads manifests with: YAML 1.2 core plus `<<` merge keys. */
const MANIFEST_SCHEMA = yaml.CORE_SCHEMA.withTags(yaml.mergeTag)

export type ManifestFormat = 'json' | 'yaml'

/** One document of a file: its value and the lines results point at. */
export interface ParsedDocument {
  /** 1-based line of the document's root node; undefined for an empty document. */
  line: number | undefined
  /** For a List, the line of each of its items, in order. */
  itemLines: number[] | undefined
  value: unknown
}

/** `.json` files are JSON and YAML files YAML; otherwise (standard input) the first character decides, as for the engine. */
export function formatOf(file: string, text: string): ManifestFormat {
  if (/\.json$/i.test(file)) return 'json'
  if (/\.ya?ml$/i.test(file)) return 'yaml'
  const first = text.trimStart()[0]
  return first === '{' || first === '[' ? 'json' : 'yaml'
}

export function parseManifestText(text: string, file: string, format: ManifestFormat): ParsedDocument[] {
  // A byte order mark is no content: JSON.parse refuses it and it would shift no line anyway.
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text
  return format === 'json' ? [parseJson(source, file)] : parseYaml(source, file)
}

function parseYaml(text: string, file: string): ParsedDocument[] {
  let values: unknown[]
  let positions: DocumentPosition[]
  try {
    const events = yaml.parseEvents(text, { filename: file })
    positions = documentPositions(events, text)
    values = yaml.constructFromEvents(events, { source: text, filename: file, schema: MANIFEST_SCHEMA })
  } catch (error) {
    throw yamlError(error, file)
  }
  const lines = new TextLines(text)
  return values.map((value, index) => located(value, positions[index], lines))
}

function parseJson(text: string, file: string): ParsedDocument {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    const lines = new TextLines(text)
    const found = findJsonSyntaxError(text)
    if (found) throw new ManifestError(file, lines.lineOf(found.offset), lines.columnOf(found.offset), `invalid JSON: ${found.reason}`)
    throw new ManifestError(file, undefined, undefined, `invalid JSON: ${(error as Error).message}`)
  }
  return located(value, jsonPosition(text), new TextLines(text))
}

/** JSON is YAML 1.2 flow syntax, so the YAML parser's events locate List items in JSON too. */
function jsonPosition(text: string): DocumentPosition | undefined {
  try {
    return documentPositions(yaml.parseEvents(text, {}), text)[0]
  } catch {
    // Valid JSON that the YAML parser will not take (a key longer than YAML allows on one line):
    // the first character still locates the document.
    const start = text.search(/\S/)
    return { start: start === -1 ? undefined : start, itemStarts: undefined }
  }
}

function located(value: unknown, position: DocumentPosition | undefined, lines: TextLines): ParsedDocument {
  const start = position?.start
  return {
    line: start === undefined ? undefined : lines.lineOf(start),
    itemLines: position?.itemStarts?.map((offset) => lines.lineOf(Math.max(offset, start ?? 0))),
    value,
  }
}

function yamlError(error: unknown, file: string): ManifestError {
  if (error instanceof yaml.YAMLException) {
    const mark = error.mark
    return new ManifestError(file, mark ? mark.line + 1 : undefined, mark ? mark.column + 1 : undefined, `invalid YAML: ${error.reason}`)
  }
  return new ManifestError(file, undefined, undefined, `invalid YAML: ${error instanceof Error ? error.message : String(error)}`)
}
