import type { Severity } from '../engine/model/rule.js'
import { ImportError } from './import-error.js'
import { object, optionalObject, text, type JsonObject } from './read.js'

const NAME = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/
const SEVERITIES: readonly string[] = ['info', 'low', 'medium', 'high', 'critical']

export interface SourceMetadata {
  name: string
  namespace?: string
  annotations: Record<string, string>
  /** From `policies.kyverno.io/description`, which every policy of the Kyverno library carries. */
  description?: string
  /** From `policies.kyverno.io/severity` when it names a Verdict severity. */
  severity?: Severity
}

/** metadata of a source document; its name becomes a Verdict name, so it must be one. */
export function readMetadata(doc: JsonObject): SourceMetadata {
  const metadata = object(doc.metadata, 'metadata')
  const name = text(metadata.name, 'metadata.name')
  if (name.length > 253 || !NAME.test(name)) {
    throw new ImportError('metadata.name', `"${name}" is not a valid name (lowercase letters, digits, "-" and ".")`)
  }
  const annotations: Record<string, string> = {}
  for (const [key, value] of Object.entries(optionalObject(metadata.annotations, 'metadata.annotations') ?? {})) {
    if (typeof value === 'string') annotations[key] = value
  }
  const out: SourceMetadata = { name, annotations }
  if (typeof metadata.namespace === 'string' && metadata.namespace !== '') out.namespace = metadata.namespace
  const description = annotations['policies.kyverno.io/description']?.trim()
  if (description) out.description = description
  const severity = annotations['policies.kyverno.io/severity']?.trim().toLowerCase()
  if (severity && SEVERITIES.includes(severity)) out.severity = severity as Severity
  return out
}
