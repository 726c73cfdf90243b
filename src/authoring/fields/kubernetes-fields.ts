/**
 * The Kubernetes field table: every field path of the kinds Verdict writes rules for, read from the
 * OpenAPI-derived declarations of `kubernetes-models` by `npm run generate:fields` into
 * `kubernetes-fields.generated.ts` (a module, so it is compiled into dist with everything else).
 *
 * Paths are dotted from the object root, with `[]` after an array field for its items:
 * `spec.containers[].securityContext.privileged`. An array of scalars also lists its items
 * (`spec.policyTypes[]`, with their enum). A map (`metadata.labels`, `resources.limits`) is one
 * entry whose `values` is the type of its values. `status` and `metadata.managedFields` are left out.
 */
import { KUBERNETES_FIELD_TABLE } from './kubernetes-fields.generated.js'

export type ScalarFieldType = 'string' | 'integer' | 'number' | 'boolean' | 'quantity' | 'int-or-string'

export type FieldType = ScalarFieldType | 'object' | 'array' | 'map'

export interface FieldInfo {
  /** Dotted from the object root, `[]` for array items: `spec.template.spec.containers[].image`. */
  readonly path: string
  readonly type: FieldType
  /** For a map: the type of its values (`quantity` for `resources.limits`, `string` for labels). */
  readonly values?: FieldType
  /** The allowed values, when the declaration is a union of string literals. */
  readonly enum?: readonly string[]
  /** The default the field's description states as a plain literal ("Defaults to false."). */
  readonly default?: string | number | boolean
  /** The description calls the field deprecated. */
  readonly deprecated?: true
  /** The description calls the field alpha or beta, or says it needs a feature gate enabled. */
  readonly featureGated?: true
}

/** A field as the generated module lists it: `from` names the shared model its fields continue with. */
export interface GeneratedField extends FieldInfo {
  readonly from?: string
}

/** The shape of the generated module. */
export interface GeneratedFieldTable {
  readonly source: string
  /** Models listed once (pod spec, container, object metadata), with paths relative to where they occur. */
  readonly shared: Readonly<Record<string, readonly GeneratedField[]>>
  readonly kinds: Readonly<Record<string, { readonly apiVersion: string; readonly fields: readonly GeneratedField[] }>>
}

/** `kubernetes-models@<version>`: the declarations the table was generated from. */
export const KUBERNETES_FIELDS_SOURCE: string = KUBERNETES_FIELD_TABLE.source

/** The kinds the table covers, in generation order. */
export function kubernetesFieldKinds(): readonly string[] {
  return Object.keys(KUBERNETES_FIELD_TABLE.kinds)
}

/** The apiVersion the table's fields of a kind belong to (`apps/v1` for Deployment). */
export function kubernetesFieldApiVersion(kind: string): string | undefined {
  return kindEntry(kind)?.apiVersion
}

/**
 * Every field of a kind, depth first in field-name order (empty for a kind the table does not
 * cover). The list is built once per kind and shared: do not modify it.
 */
export function kubernetesFields(kind: string): readonly FieldInfo[] {
  let fields = expanded.get(kind)
  if (!fields) {
    const entry = kindEntry(kind)
    fields = entry ? Object.freeze(expand(entry.fields, '', [])) : []
    expanded.set(kind, fields)
  }
  return fields
}

/** One field of a kind by its exact path (`spec.template.spec.containers[].image`). */
export function kubernetesField(kind: string, path: string): FieldInfo | undefined {
  let byPath = pathIndexes.get(kind)
  if (!byPath) {
    byPath = new Map(kubernetesFields(kind).map((field) => [field.path, field]))
    pathIndexes.set(kind, byPath)
  }
  return byPath.get(path)
}

const expanded = new Map<string, readonly FieldInfo[]>()
const pathIndexes = new Map<string, ReadonlyMap<string, FieldInfo>>()

function kindEntry(kind: string): { readonly apiVersion: string; readonly fields: readonly GeneratedField[] } | undefined {
  return Object.hasOwn(KUBERNETES_FIELD_TABLE.kinds, kind) ? KUBERNETES_FIELD_TABLE.kinds[kind] : undefined
}

function expand(fields: readonly GeneratedField[], prefix: string, open: readonly string[]): FieldInfo[] {
  const out: FieldInfo[] = []
  for (const { from, ...field } of fields) {
    const path = prefix + field.path
    out.push(Object.freeze({ ...field, path }))
    const shared = from === undefined || open.includes(from) ? undefined : KUBERNETES_FIELD_TABLE.shared[from]
    if (from !== undefined && shared) {
      out.push(...expand(shared, field.type === 'array' ? `${path}[].` : `${path}.`, [...open, from]))
    }
  }
  return out
}
