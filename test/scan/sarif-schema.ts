import { readFileSync } from 'node:fs'
import { Ajv, type ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'
import { scanFixture } from './scan-fixtures.js'

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv

/** The draft-04 keywords this schema file would need besides `id` (checked by the test that loads it). */
export const DRAFT_04_ONLY = ['exclusiveMinimum', 'exclusiveMaximum']

/**
 * The official SARIF 2.1.0 schema (test/fixtures/scan/sarif-schema-2.1.0.json, vendored as
 * published) as an ajv validator. It is written in JSON Schema draft-04, which ajv 8 does not
 * read; the only draft-04 keyword it uses is `id` (draft-07's `$id`), so it is compiled as
 * draft-07 with `id` renamed. Everything it checks (types, enums, required fields, formats such
 * as uri-reference, the anyOf that a region has a start) keeps its meaning.
 */
export function sarifValidator(): ValidateFunction {
  const { id, $schema: _draft04, ...schema } = sarifSchemaText()
  const ajv = new Ajv({ allErrors: true })
  addFormats(ajv)
  return ajv.compile({ $id: String(id), ...schema })
}

export function sarifSchemaText(): Record<string, unknown> {
  return JSON.parse(readFileSync(scanFixture('sarif-schema-2.1.0.json'), 'utf8')) as Record<string, unknown>
}
