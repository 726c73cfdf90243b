import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import * as yaml from 'js-yaml'
import { baseKubernetesDocument } from '../samples/base-documents.js'

/**
 * One (instruction, labels, resource, expected verdict) case: what an author means, written
 * down independently of how the catalog works, so it can catch the compiler misreading them.
 */
export interface AuthoringCase {
  /** Unique across all case files. */
  name: string
  instruction: string
  labels: Record<string, string>
  /** The document judged: a base document with paths set and removed, or a whole document. */
  document: Record<string, unknown>
  /** pass / fail: the ruleset's verdict on the document; rejected: creating the ruleset must fail (400). */
  expect: 'pass' | 'fail' | 'rejected'
  /** The file it came from, for reports. */
  file: string
}

export class AuthoringCaseError extends Error {
  constructor(file: string, index: number, message: string) {
    super(`${file}: case ${index + 1}: ${message}`)
    this.name = 'AuthoringCaseError'
  }
}

/** Every `*.yaml` file of a directory, each a list of cases (see test/authoring/cases/README.md). */
export function loadAuthoringCases(directory: string): AuthoringCase[] {
  const cases: AuthoringCase[] = []
  for (const file of readdirSync(directory).filter((name) => name.endsWith('.yaml')).sort()) {
    const entries = yaml.load(readFileSync(join(directory, file), 'utf8'))
    if (!Array.isArray(entries)) throw new AuthoringCaseError(file, 0, 'the file must hold a list of cases')
    entries.forEach((entry, index) => cases.push(readCase(file, index, entry)))
  }
  const names = new Set<string>()
  for (const item of cases) {
    if (names.has(item.name)) throw new Error(`${item.file}: case name "${item.name}" is used twice`)
    names.add(item.name)
  }
  return cases
}

const FIELDS = new Set(['name', 'instruction', 'labels', 'base', 'set', 'unset', 'document', 'expect'])

function readCase(file: string, index: number, entry: unknown): AuthoringCase {
  const fail = (message: string): never => {
    throw new AuthoringCaseError(file, index, message)
  }
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return fail('must be a mapping')
  const record = entry as Record<string, unknown>
  for (const key of Object.keys(record)) if (!FIELDS.has(key)) fail(`unknown field ${key}`)
  const { name, instruction, labels, base, set, unset, document, expect } = record
  if (typeof name !== 'string' || name === '') fail('name: must be a non-empty string')
  if (typeof instruction !== 'string') fail('instruction: must be a string')
  if (expect !== 'pass' && expect !== 'fail' && expect !== 'rejected') fail('expect: must be pass, fail or rejected')
  if (labels !== undefined && (typeof labels !== 'object' || labels === null)) fail('labels: must be a mapping')
  let judged: Record<string, unknown>
  if (document !== undefined) {
    if (base !== undefined) fail('give base or document, not both')
    if (typeof document !== 'object' || document === null || Array.isArray(document)) return fail('document: must be a mapping')
    judged = structuredClone(document as Record<string, unknown>)
  } else if (typeof base === 'string') {
    judged = baseKubernetesDocument(base) ?? fail(`base: no base document of kind ${base}`)
  } else if (expect === 'rejected') {
    judged = {}
  } else {
    return fail('base or document is required')
  }
  if (set !== undefined) {
    if (typeof set !== 'object' || set === null || Array.isArray(set)) return fail('set: must be a mapping of paths to values')
    for (const [path, value] of Object.entries(set as Record<string, unknown>)) setAt(judged, path, value, fail)
  }
  if (unset !== undefined) {
    if (!Array.isArray(unset)) return fail('unset: must be a list of paths')
    for (const path of unset) unsetAt(judged, String(path), fail)
  }
  return {
    name: name as string,
    instruction: instruction as string,
    labels: Object.fromEntries(Object.entries((labels ?? {}) as Record<string, unknown>).map(([key, value]) => [key, String(value)])),
    document: judged,
    expect: expect as AuthoringCase['expect'],
    file,
  }
}

type Container = Record<string, unknown> | unknown[]

/** Dotted path; numeric segments index arrays; missing objects on the way are created. */
function setAt(document: Record<string, unknown>, path: string, value: unknown, fail: (message: string) => never): void {
  const parts = path.split('.')
  let current: Container = document
  for (const [position, part] of parts.entries()) {
    const last = position === parts.length - 1
    const key: string | number = Array.isArray(current) ? Number(part) : part
    if (Array.isArray(current) && !Number.isInteger(key)) fail(`set: ${path}: ${part} is not an array index`)
    const holder = current as Record<string | number, unknown>
    if (last) {
      holder[key] = value
      return
    }
    let next = holder[key]
    if (typeof next !== 'object' || next === null) {
      next = /^\d+$/.test(parts[position + 1] ?? '') ? [] : {}
      holder[key] = next
    }
    current = next as Container
  }
}

function unsetAt(document: Record<string, unknown>, path: string, fail: (message: string) => never): void {
  const parts = path.split('.')
  let current: unknown = document
  for (const part of parts.slice(0, -1)) {
    if (typeof current !== 'object' || current === null) fail(`unset: ${path}: nothing at ${part}`)
    current = (current as Record<string, unknown>)[part]
  }
  const last = parts[parts.length - 1] ?? ''
  if (Array.isArray(current)) current.splice(Number(last), 1)
  else if (typeof current === 'object' && current !== null) delete (current as Record<string, unknown>)[last]
}
