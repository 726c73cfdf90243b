import { Ajv, type ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'
import type { FastifySchema } from 'fastify'
import type { FastifyRouteSchemaDef } from 'fastify/types/schema.js'

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv

/**
 * Two validators instead of fastify's one. Query strings and path parameters arrive as text, so
 * they are coerced to the declared types; bodies arrive typed, so they are checked as sent: a
 * `"3"` where a number belongs, a string where a list belongs, or a field the schema does not
 * know is a 400 naming the field, never silently converted or dropped (fastify's defaults would
 * coerce and remove additional properties).
 */
const bodyAjv = addFormats(new Ajv({ coerceTypes: false, useDefaults: true, removeAdditional: false, allErrors: false, strict: false }))
const textAjv = addFormats(new Ajv({ coerceTypes: 'array', useDefaults: true, removeAdditional: false, allErrors: false, strict: false }))

export function compileValidator({ schema, httpPart }: FastifyRouteSchemaDef<FastifySchema>): ValidateFunction {
  return (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object)
}
