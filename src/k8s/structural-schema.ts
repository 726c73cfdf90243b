/**
 * Converts the JSON Schema TypeBox emits for the model into the subset Kubernetes accepts in a
 * CustomResourceDefinition (a "structural schema"): every node has a type or preserves unknown
 * fields, no `anyOf` carries types, no `const`, no `$ref`, no `additionalProperties` beside
 * `properties` (the API server prunes unknown fields instead). A construct this file does not know
 * stops the generator rather than slipping into the CRD in a form the API server would refuse.
 */

type JsonSchema = Readonly<Record<string, unknown>>

/** The part of the apiextensions.k8s.io/v1 JSONSchemaProps the generator writes. */
export interface StructuralSchema {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean'
  description?: string
  properties?: Record<string, StructuralSchema>
  required?: string[]
  additionalProperties?: StructuralSchema
  items?: StructuralSchema
  enum?: unknown[]
  pattern?: string
  format?: string
  minLength?: number
  maxLength?: number
  minItems?: number
  maxItems?: number
  minimum?: number
  maximum?: number
  'x-kubernetes-preserve-unknown-fields'?: true
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map'
  'x-kubernetes-list-map-keys'?: string[]
}

const PRESERVE = 'x-kubernetes-preserve-unknown-fields'
const TYPES = new Set(['object', 'array', 'string', 'integer', 'number', 'boolean'])
/** Keywords carried over as they are: value validations Kubernetes and JSON Schema read alike. */
const COPIED = ['description', 'pattern', 'format', 'minLength', 'maxLength', 'minItems', 'maxItems', 'minimum', 'maximum'] as const
const UNDERSTOOD = new Set<string>([...COPIED, 'type', 'properties', 'required', 'additionalProperties', 'patternProperties', 'items', 'anyOf', 'const', 'enum'])
/** `Type.Record(Type.String(), ...)`: any key. */
const ANY_KEY = '^.*$'

export class UnsupportedSchemaError extends Error {
  constructor(path: string, what: string) {
    super(`${path || '(root)'}: ${what} has no structural-schema form; extend src/k8s/structural-schema.ts`)
    this.name = 'UnsupportedSchemaError'
  }
}

export function toStructuralSchema(schema: JsonSchema, path = ''): StructuralSchema {
  for (const keyword of Object.keys(schema)) {
    if (!UNDERSTOOD.has(keyword)) throw new UnsupportedSchemaError(path, `keyword "${keyword}"`)
  }
  if (schema.anyOf !== undefined) return fromUnion(schema, path)
  if (schema.type === undefined) {
    // Type.Unknown(): any JSON value (structural patterns, template parameters).
    if (Object.keys(schema).some((keyword) => keyword !== 'description')) throw new UnsupportedSchemaError(path, 'a schema without a type')
    return withCopied(schema, { [PRESERVE]: true })
  }
  if (typeof schema.type !== 'string' || !TYPES.has(schema.type)) throw new UnsupportedSchemaError(path, `type ${JSON.stringify(schema.type)}`)
  const type = schema.type as NonNullable<StructuralSchema['type']>
  const out: StructuralSchema = withCopied(schema, { type })
  if (schema.const !== undefined) out.enum = [schema.const]
  if (Array.isArray(schema.enum)) out.enum = [...(schema.enum as unknown[])]
  if (type === 'array') out.items = toStructuralSchema(asSchema(schema.items, `${path}[]`), `${path}[]`)
  if (type === 'object') Object.assign(out, objectParts(schema, path))
  return out
}

function objectParts(schema: JsonSchema, path: string): Partial<StructuralSchema> {
  const properties = schema.properties as Record<string, JsonSchema> | undefined
  const patterns = schema.patternProperties as Record<string, JsonSchema> | undefined
  if (properties && patterns) throw new UnsupportedSchemaError(path, 'properties beside patternProperties')
  if (properties) {
    const out: Partial<StructuralSchema> = {
      properties: Object.fromEntries(Object.entries(properties).map(([name, sub]) => [name, toStructuralSchema(sub, join(path, name))])),
    }
    const required = schema.required as string[] | undefined
    if (required && required.length > 0) out.required = [...required]
    return out
  }
  if (patterns) {
    const keys = Object.keys(patterns)
    if (keys.length !== 1 || keys[0] !== ANY_KEY) throw new UnsupportedSchemaError(path, `patternProperties ${JSON.stringify(keys)}`)
    const values = toStructuralSchema(patterns[ANY_KEY] as JsonSchema, `${path}[*]`)
    // A map of anything is simply an object that keeps what it is given.
    if (values.type === undefined && values[PRESERVE]) return { [PRESERVE]: true }
    return { additionalProperties: values }
  }
  // Neither properties nor patterns: a free-form object.
  return schema.additionalProperties === false ? {} : { [PRESERVE]: true }
}

/**
 * A union of string (or number) literals becomes an enum. Any other union (`autogen`: a boolean
 * or an object) cannot be said structurally: the field keeps any value and the controller's own
 * check, the same one the REST API runs, reports what is wrong.
 */
function fromUnion(schema: JsonSchema, path: string): StructuralSchema {
  const branches = schema.anyOf as JsonSchema[]
  if (!Array.isArray(branches) || branches.length === 0) throw new UnsupportedSchemaError(path, 'an empty anyOf')
  const literalType = branches[0]?.type
  const literals = branches.every((branch) => branch.const !== undefined && branch.type === literalType && Object.keys(branch).every((k) => k === 'type' || k === 'const'))
  if (literals && typeof literalType === 'string' && TYPES.has(literalType)) {
    return withCopied(schema, { type: literalType as NonNullable<StructuralSchema['type']>, enum: branches.map((branch) => branch.const) })
  }
  const kinds = branches.map((branch) => (typeof branch.type === 'string' ? branch.type : 'any value')).join(' or ')
  const description = typeof schema.description === 'string' ? schema.description : `${kinds}; checked by the controller`
  return { description, [PRESERVE]: true }
}

function withCopied(schema: JsonSchema, out: StructuralSchema): StructuralSchema {
  const copied: StructuralSchema = {}
  if (out.type !== undefined) copied.type = out.type
  for (const keyword of COPIED) {
    if (schema[keyword] !== undefined) (copied as Record<string, unknown>)[keyword] = schema[keyword]
  }
  return { ...copied, ...out }
}

function asSchema(value: unknown, path: string): JsonSchema {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UnsupportedSchemaError(path, 'an array without one items schema')
  return value as JsonSchema
}

function join(path: string, name: string): string {
  return path === '' ? name : `${path}.${name}`
}
