import { gunzipSync } from 'node:zlib'
import { TERRAFORM_ATTRIBUTES_GZIP_BASE64 } from './terraform-attributes.generated.js'

/**
 * The attributes of the AWS, Google and AzureRM providers' resource types, from the table
 * `scripts/build-terraform-attributes.mjs` builds out of the providers' schemas (through the
 * CDKTF provider packages). A nested block's attributes are listed under it (`site_config[].
 * minimum_tls_version`). Loaded on first use, not when the service starts.
 */
export interface TerraformAttribute {
  /** As the table writes it: `site_config[].minimum_tls_version`. */
  readonly path: string
  /** The path as `terraform show -json` nests it, blocks without their list marker. */
  readonly segments: readonly string[]
  readonly type: TerraformValueType
}

const VALUE_TYPES = ['string', 'number', 'boolean', 'list', 'map', 'block'] as const
export type TerraformValueType = (typeof VALUE_TYPES)[number]

interface Table {
  versions: Record<string, string>
  types: Record<string, string>
}

let table: Table | undefined
const parsed = new Map<string, readonly TerraformAttribute[]>()
const NO_ATTRIBUTES: readonly TerraformAttribute[] = Object.freeze([])

function loadTable(): Table {
  table ??= JSON.parse(gunzipSync(Buffer.from(TERRAFORM_ATTRIBUTES_GZIP_BASE64, 'base64')).toString('utf8')) as Table
  return table
}

/** Whether the table knows the resource type at all. */
export function knowsTerraformType(type: string): boolean {
  return loadTable().types[type] !== undefined
}

/** The provider versions the table was built from, for messages and docs/authoring.md. */
export function terraformTableVersions(): Readonly<Record<string, string>> {
  return loadTable().versions
}

export function terraformAttributes(type: string): readonly TerraformAttribute[] {
  const cached = parsed.get(type)
  if (cached) return cached
  const { types } = loadTable()
  const written = Object.hasOwn(types, type) ? types[type] : undefined
  // Any `aws_…` word of an instruction or a label asks: only the table's own types are kept, so the
  // cache is bounded by the table, whatever names requests make up.
  if (written === undefined) return NO_ATTRIBUTES
  const attributes: TerraformAttribute[] = []
  for (const entry of written.split(' ')) {
    const at = entry.lastIndexOf(':')
    if (at <= 0) continue
    const path = entry.slice(0, at)
    const valueType = VALUE_TYPES.find((candidate) => candidate === entry.slice(at + 1))
    if (valueType) attributes.push({ path, segments: path.split('[].'), type: valueType })
  }
  parsed.set(type, attributes)
  return attributes
}
