/**
 * Builds the Kubernetes field table from the OpenAPI-derived declarations of `kubernetes-models`
 * (a devDependency): every field path of the kinds Verdict writes rules for, with its type, its
 * string-literal enum and the default its description states as a plain literal. The table is
 * written as `kubernetes-fields.generated.ts` by `npm run generate:fields`; the test suite rebuilds
 * it and compares, so the module cannot silently drift from the installed models.
 *
 * Only the generator and its test import this module (it needs the `typescript` compiler API);
 * the runtime reads the generated module through `kubernetes-fields.ts`.
 */
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import ts from 'typescript'
import type { FieldType, GeneratedField, GeneratedFieldTable, ScalarFieldType } from './kubernetes-fields.js'

/** A kind the table covers. */
export interface KindSource {
  readonly kind: string
  readonly apiVersion: string
}

/** The declaration that defines a kind inside `kubernetes-models`, e.g. `apps/v1/Deployment.d.ts`. */
export function declarationFile(source: KindSource): string {
  return `${source.apiVersion}/${source.kind}.d.ts`
}

export const KIND_SOURCES: readonly KindSource[] = [
  { kind: 'Pod', apiVersion: 'v1' },
  { kind: 'Deployment', apiVersion: 'apps/v1' },
  { kind: 'StatefulSet', apiVersion: 'apps/v1' },
  { kind: 'DaemonSet', apiVersion: 'apps/v1' },
  { kind: 'ReplicaSet', apiVersion: 'apps/v1' },
  { kind: 'Job', apiVersion: 'batch/v1' },
  { kind: 'CronJob', apiVersion: 'batch/v1' },
  { kind: 'Service', apiVersion: 'v1' },
  { kind: 'Namespace', apiVersion: 'v1' },
  { kind: 'ConfigMap', apiVersion: 'v1' },
  { kind: 'Secret', apiVersion: 'v1' },
  { kind: 'ServiceAccount', apiVersion: 'v1' },
  { kind: 'PersistentVolumeClaim', apiVersion: 'v1' },
  { kind: 'Ingress', apiVersion: 'networking.k8s.io/v1' },
  { kind: 'NetworkPolicy', apiVersion: 'networking.k8s.io/v1' },
  { kind: 'PodDisruptionBudget', apiVersion: 'policy/v1' },
  { kind: 'HorizontalPodAutoscaler', apiVersion: 'autoscaling/v2' },
  { kind: 'Role', apiVersion: 'rbac.authorization.k8s.io/v1' },
  { kind: 'ClusterRole', apiVersion: 'rbac.authorization.k8s.io/v1' },
  { kind: 'RoleBinding', apiVersion: 'rbac.authorization.k8s.io/v1' },
  { kind: 'ClusterRoleBinding', apiVersion: 'rbac.authorization.k8s.io/v1' },
  { kind: 'PersistentVolume', apiVersion: 'v1' },
  { kind: 'StorageClass', apiVersion: 'storage.k8s.io/v1' },
  { kind: 'LimitRange', apiVersion: 'v1' },
  { kind: 'ResourceQuota', apiVersion: 'v1' },
  { kind: 'ReplicationController', apiVersion: 'v1' },
  { kind: 'PriorityClass', apiVersion: 'scheduling.k8s.io/v1' },
  { kind: 'IngressClass', apiVersion: 'networking.k8s.io/v1' },
  { kind: 'ValidatingWebhookConfiguration', apiVersion: 'admissionregistration.k8s.io/v1' },
  { kind: 'MutatingWebhookConfiguration', apiVersion: 'admissionregistration.k8s.io/v1' },
]

/**
 * The deepest path kept, in segments (`containers[]` is one segment), counted from the object root
 * as a Pod has it: the pod spec is counted from a Pod's `spec` wherever it sits, so a CronJob lists
 * under `spec.jobTemplate.spec.template.spec` every pod spec field a Pod lists under `spec`. The
 * kinds listed today stay within it (a Pod's deepest path has 8 segments); it guards the table
 * against a model that nests deeper, and recursion stops at a model already being listed.
 */
export const MAX_DEPTH = 9

/** A description that marks its own field deprecated (not one that mentions a deprecated annotation). */
const DEPRECATED = /(?:^|[.!?]\s+)Deprecated\b|\bDEPRECATED\b|\bis a deprecated alias\b|\bshould be considered as deprecated\b/

/** Fields never listed: written by the server, not by authors. */
const SKIPPED_FIELDS = new Set(['managedFields', 'status'])

/**
 * Models listed once and referenced wherever they occur (`from`), which keeps the table small: the
 * pod spec of seven kinds, the container of `containers[]` and `initContainers[]`, object metadata.
 * A shared model keeps the depth budget of the place it is first met (Pod's `spec`, depth 1), so
 * every controller lists the same pod spec fields as a Pod.
 */
const SHARED_MODELS: ReadonlyMap<string, string> = new Map([
  ['IObjectMeta', 'ObjectMeta'],
  ['IPodSpec', 'PodSpec'],
  ['IContainer', 'Container'],
])

/** The installed `kubernetes-models` package directory. */
export function kubernetesModelsDir(): string {
  // The package's `exports` map has import conditions only, so find it along the resolution paths.
  const paths = createRequire(import.meta.url).resolve.paths('kubernetes-models') ?? []
  const dir = paths.map((path) => join(path, 'kubernetes-models')).find((path) => existsSync(join(path, 'package.json')))
  if (!dir) throw new Error('kubernetes-models is not installed (it is a devDependency: run npm ci)')
  return dir
}

/** Reads the declarations of every kind in {@link KIND_SOURCES} and lists their fields. */
export function buildKubernetesFieldTable(modelsDir: string = kubernetesModelsDir()): GeneratedFieldTable {
  const version = (JSON.parse(readFileSync(join(modelsDir, 'package.json'), 'utf8')) as { version: string }).version
  const rootFiles = KIND_SOURCES.map((source) => join(modelsDir, declarationFile(source)))
  const program = ts.createProgram(rootFiles, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  })
  const walker = new FieldWalker(program.getTypeChecker())
  const kinds: Record<string, { apiVersion: string; fields: readonly GeneratedField[] }> = {}
  for (const source of KIND_SOURCES) {
    const file = program.getSourceFile(join(modelsDir, declarationFile(source)))
    if (!file) throw new Error(`kubernetes-models: ${declarationFile(source)} not found`)
    kinds[source.kind] = { apiVersion: source.apiVersion, fields: walker.kindFields(file, source.kind) }
  }
  return { source: `kubernetes-models@${version}`, shared: Object.fromEntries(walker.shared), kinds }
}

class FieldWalker {
  private readonly schemaTexts = new Map<string, string | undefined>()
  /** The shared models listed so far, by name, in the order they were met. */
  readonly shared = new Map<string, readonly GeneratedField[]>()

  constructor(private readonly checker: ts.TypeChecker) {}

  kindFields(file: ts.SourceFile, kind: string): GeneratedField[] {
    const moduleSymbol = this.checker.getSymbolAtLocation(file)
    const declared = moduleSymbol && this.checker.getExportsOfModule(moduleSymbol).find((s) => s.name === `I${kind}`)
    if (!declared) throw new Error(`kubernetes-models: interface I${kind} not found in ${file.fileName}`)
    const fields: GeneratedField[] = []
    this.walkObject(this.checker.getDeclaredTypeOfSymbol(declared), '', 0, [], fields)
    return fields
  }

  private walkObject(
    type: ts.Type,
    prefix: string,
    depth: number,
    stack: readonly ts.Symbol[],
    out: GeneratedField[],
  ): void {
    const symbol = type.getSymbol()
    if (symbol && stack.includes(symbol)) return // a recursive type: its fields are already listed above
    const inner = symbol ? [...stack, symbol] : stack
    const properties = [...this.checker.getPropertiesOfType(type)].sort((a, b) => (a.name < b.name ? -1 : 1))
    for (const property of properties) {
      if (SKIPPED_FIELDS.has(property.name) && this.isObjectField(property)) continue
      const path = prefix ? `${prefix}.${property.name}` : property.name
      const propertyType = this.checker.getNonNullableType(this.checker.getTypeOfSymbol(property))
      const description = ts.displayPartsToString(property.getDocumentationComment(this.checker))
      this.walkValue(propertyType, path, depth + 1, inner, out, { owner: symbol, name: property.name, description })
    }
  }

  private walkValue(
    type: ts.Type,
    path: string,
    depth: number,
    stack: readonly ts.Symbol[],
    out: GeneratedField[],
    field: { owner: ts.Symbol | undefined; name: string; description: string },
  ): void {
    const shape = this.shape(type, field)
    const entry: Mutable<GeneratedField> = { path, type: shape.type }
    if (shape.enum) entry.enum = shape.enum
    if (shape.values) entry.values = shape.values
    const fallback = parseDefault(field.description, shape, field.name)
    if (fallback !== undefined) entry.default = fallback
    if (DEPRECATED.test(field.description)) entry.deprecated = true
    if (/\b(alpha|beta)(-level)? field\b|\brequires enabling the \w+ feature gate\b/i.test(field.description)) {
      entry.featureGated = true
    }
    out.push(entry)
    if (depth >= MAX_DEPTH) return
    if (shape.type === 'object') {
      entry.from = this.sharedModel(type, depth)
      if (!entry.from) this.walkObject(type, path, depth, stack, out)
    } else if (shape.type === 'array' && shape.items) {
      const items = shape.items
      if (items.type === 'object') {
        entry.from = this.sharedModel(items.itemType, depth)
        if (!entry.from) this.walkObject(items.itemType, `${path}[]`, depth, stack, out)
      } else {
        this.walkValue(items.itemType, `${path}[]`, depth, stack, out, { ...field, description: '' })
      }
    }
    if (entry.from === undefined) delete entry.from
  }

  /** The shared model an object is (listing it the first time it is met), or undefined. */
  private sharedModel(type: ts.Type, depth: number): string | undefined {
    const symbol = type.getSymbol()
    const name = symbol && SHARED_MODELS.get(symbol.name)
    if (!symbol || !name) return undefined
    if (!this.shared.has(name)) {
      const fields: GeneratedField[] = []
      this.shared.set(name, fields) // listed before walking, so a model that contains itself stops
      this.walkObject(type, '', depth, [], fields)
    }
    return name
  }

  /** What a value is: its field type, the item type of an array, the value type of a map. */
  private shape(
    type: ts.Type,
    field: { owner: ts.Symbol | undefined; name: string },
  ): {
    type: FieldType
    enum?: readonly string[]
    values?: FieldType
    items?: { type: FieldType; itemType: ts.Type }
  } {
    const alias = type.aliasSymbol?.name
    if (alias === 'IQuantity') return { type: 'quantity' }
    if (alias === 'IIntOrString') return { type: 'int-or-string' }
    if (type.flags & ts.TypeFlags.BooleanLike) return { type: 'boolean' }
    if (type.flags & ts.TypeFlags.StringLiteral) return { type: 'string', enum: [(type as ts.StringLiteralType).value] }
    if (type.isUnion() && type.types.every((t) => t.flags & ts.TypeFlags.StringLiteral)) {
      return { type: 'string', enum: type.types.map((t) => (t as ts.StringLiteralType).value).sort() }
    }
    if (type.flags & ts.TypeFlags.StringLike) return { type: 'string' }
    if (type.flags & ts.TypeFlags.NumberLike) return { type: this.numberType(field.owner, field.name) }
    if (this.checker.isArrayType(type)) {
      const itemType = this.checker.getTypeArguments(type as ts.TypeReference)[0]
      if (!itemType) return { type: 'array' }
      return { type: 'array', items: { type: this.shape(itemType, field).type, itemType } }
    }
    if (type.flags & ts.TypeFlags.Object) {
      const index = this.checker.getIndexInfosOfType(type).find((info) => info.keyType.flags & ts.TypeFlags.String)
      if (index && this.checker.getPropertiesOfType(type).length === 0) {
        return { type: 'map', values: this.shape(index.type, field).type }
      }
      return { type: 'object' }
    }
    throw new Error(`kubernetes-models: unsupported type ${this.checker.typeToString(type)} at ${field.name}`)
  }

  private isObjectField(property: ts.Symbol): boolean {
    return (this.checker.getNonNullableType(this.checker.getTypeOfSymbol(property)).flags & ts.TypeFlags.Object) !== 0
  }

  /**
   * `integer` or `number`: the declarations say `number` for both, so the compiled JSON-schema
   * validator of the owning model (`_schemas/<Model>.js`) decides. Kubernetes' own types use
   * `number` (double) nowhere in the kinds listed, so an undecidable field is an integer.
   */
  private numberType(owner: ts.Symbol | undefined, name: string): ScalarFieldType {
    const schema = owner && this.schemaText(owner)
    if (!schema) return 'integer'
    const call = new RegExp(`(validate\\d+)\\(data(?:\\.${name}|\\[${JSON.stringify(name)}\\]),`).exec(schema)
    if (!call) return 'integer'
    const start = schema.indexOf(`function ${call[1]}(`)
    if (start < 0) return 'integer'
    const end = schema.indexOf('function validate', start + 1)
    const body = schema.slice(start, end < 0 ? undefined : end)
    return /type:"number"/.test(body) && !/type:"integer"/.test(body) ? 'number' : 'integer'
  }

  private schemaText(owner: ts.Symbol): string | undefined {
    const declaration = owner.declarations?.[0]
    if (!declaration) return undefined
    const file = declaration.getSourceFile()
    if (this.schemaTexts.has(file.fileName)) return this.schemaTexts.get(file.fileName)
    // `export type { IPodSpec as IIoK8sApiCoreV1PodSpec, ... }` names the schema module.
    const schemaName = /export type \{ \w+ as I(\w+),/.exec(file.text)?.[1]
    let text: string | undefined
    if (schemaName) {
      let dir = dirname(file.fileName)
      while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir)
      const schemaFile = join(dir, '_schemas', `${schemaName}.js`)
      if (existsSync(schemaFile)) text = readFileSync(schemaFile, 'utf8')
    }
    this.schemaTexts.set(file.fileName, text)
    return text
  }
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

const NOT_A_LITERAL = new Set(['the', 'a', 'an', 'nil', 'null', 'empty', 'unset', 'no'])

/** A literal as descriptions write it: quoted, backticked, or a bare word, number or path. */
const LITERAL = String.raw`("[^"]*"|'[^']*'|\x60[^\x60]*\x60|[\w./%-]*[\w/%])`
/** What may follow the literal: a unit, a parenthetical, a harmless clause, then the sentence end. */
const TRAILER = String.raw`( ?(?:seconds?|s|pods?))?((?: ?\([^)]*\))?(?: if (?:unset|unspecified|not specified|not set)| which [^.]*| and [^.]*|, where [^.]*)?)(?=\.(?:\s|$)|$| More info\b)`
const DEFAULT_PATTERNS: readonly RegExp[] = [
  // "- "Allow" (default): allows CronJobs to run concurrently", "- DoNotSchedule (default) tells ..."
  new RegExp(String.raw`(?:^|\s)(?:["\x60]([\w./-]+)["\x60]|- ([\w./-]+)) \(default\)`, 'g'),
  // "Defaults to false.", "Default is TCP.", "If unspecified, defaults to 1.", "Default to 10 seconds."
  new RegExp(String.raw`\b(?:defaults? (?:to|is)|default value is|the default (?:value |policy )?is) ${LITERAL}${TRAILER}`, 'gi'),
  // "Default false.", "default: 1", ", default false" (not "dispatched by default scheduler.")
  new RegExp(String.raw`(?:\bDefault:?|\bdefault:|, default) ${LITERAL}${TRAILER}`, 'g'),
  // "The default value, "Cluster", uses ...", "the default value Max is used", "The default policy of `Retain` causes ..."
  new RegExp(String.raw`\bthe default (?:value|policy),? (?:of )?${LITERAL},? (?:is used|causes|uses)\b()()`, 'gi'),
]

const CONDITIONAL_DEFAULT = /\bdefaults? to [^.]*?(?:,? unless\b|\bif (?!unset|unspecified|not specified|not set)\b|, or\b|\botherwise\b)/i
/** A sentence that states a default under a condition: "When backoffLimitPerIndex is specified, ..." */
const CONDITIONAL_SENTENCE = /^(?:When|If|Unless)\b(?! (?:it is |this is |the field is )?(?:unset|unspecified|not specified|not set|omitted|empty)\b)/

function sentenceBefore(text: string, index: number): string {
  const start = Math.max(text.lastIndexOf('. ', index), text.lastIndexOf(': ', index))
  return text.slice(start < 0 ? 0 : start + 2, index)
}

/** Units a default may carry, with the field names they belong to ("Defaults to 30 seconds."). */
const UNITS: ReadonlyArray<[RegExp, RegExp]> = [
  [/^ ?(seconds?|s)$/, /Seconds$/],
  [/^ ?pods?$/, /Replicas$/],
]

/**
 * The default a field's description states as a plain literal ("Defaults to false.", "Default is
 * TCP.", "Defaults to 30 seconds.", `"Allow" (default)`), checked against the field's type and enum.
 * Anything conditional ("Defaults to Always if :latest tag is specified, ...", "Defaults to 6,
 * unless ...") or descriptive ("Defaults to the user specified in image metadata") is no default.
 */
export function parseDefault(
  description: string,
  shape: { type: FieldType; enum?: readonly string[] },
  name = '',
): string | number | boolean | undefined {
  const text = description.replace(/\s+/g, ' ').trim()
  // "Defaults to 6, unless backoffLimitPerIndex ... is specified.": the default depends on something.
  if (CONDITIONAL_DEFAULT.test(text)) return undefined
  for (const pattern of DEFAULT_PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const marked = match[1] ?? match[2]
      if (pattern === DEFAULT_PATTERNS[0]) {
        const value = marked === undefined ? undefined : literal(marked, true, shape)
        if (value !== undefined) return value
        continue
      }
      // "Defaults to 600s.": the unit glued to the number.
      const glued = /^(\d+)(s)$/.exec(match[1] ?? '')
      if (CONDITIONAL_SENTENCE.test(sentenceBefore(text, match.index))) continue
      const raw = glued?.[1] ?? match[1] ?? ''
      const unit = glued?.[2] ?? match[2]
      if (unit && !UNITS.some(([units, names]) => units.test(unit) && names.test(name))) continue
      const quoted = /^["'\x60](.*)["'\x60]$/.exec(raw)
      const value = literal(quoted ? (quoted[1] ?? '') : raw, quoted !== null, shape)
      if (value !== undefined && (!unit || typeof value === 'number')) return value
    }
  }
  return undefined
}

function literal(
  raw: string,
  quoted: boolean,
  shape: { type: FieldType; enum?: readonly string[] },
): string | number | boolean | undefined {
  switch (shape.type) {
    case 'boolean':
      return raw === 'true' ? true : raw === 'false' ? false : undefined
    case 'integer':
      // A leading zero is an octal file mode ("Defaults to 0644"), not a decimal literal.
      return /^(0|-?[1-9]\d*)$/.test(raw) ? Number(raw) : undefined
    case 'number':
      return /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : undefined
    case 'quantity':
      return quoted || /^\d+(\.\d+)?[a-zA-Z]*$/.test(raw) ? raw : undefined
    case 'int-or-string':
      if (/^(0|-?[1-9]\d*)$/.test(raw) && !quoted) return Number(raw)
      return quoted || /^\d+%$/.test(raw) ? raw : undefined
    case 'string':
      if (shape.enum) return shape.enum.includes(raw) ? raw : undefined
      if (quoted) return raw
      return /^[A-Za-z/][\w./-]*$/.test(raw) && !NOT_A_LITERAL.has(raw.toLowerCase()) ? raw : undefined
    default:
      return undefined
  }
}

/** The generated TypeScript module: one line per field, stable order, no descriptions. */
export function renderKubernetesFieldsModule(table: GeneratedFieldTable): string {
  const lines = [
    '// Generated by `npm run generate:fields` (src/authoring/fields/generate-kubernetes-fields.ts)',
    `// from the declarations of ${table.source}. Do not edit by hand.`,
    '// `from` names a shared model whose fields continue the path (after `[]` for an array).',
    "import type { GeneratedFieldTable } from './kubernetes-fields.js'",
    '',
    'export const KUBERNETES_FIELD_TABLE: GeneratedFieldTable = {',
    `  source: ${quote(table.source)},`,
    '  shared: {',
  ]
  for (const [name, fields] of Object.entries(table.shared)) {
    lines.push(`    ${name}: [`)
    for (const field of fields) lines.push(`      ${renderField(field)},`)
    lines.push('    ],')
  }
  lines.push('  },', '  kinds: {')
  for (const [kind, { apiVersion, fields }] of Object.entries(table.kinds)) {
    lines.push(`    ${kind}: {`, `      apiVersion: ${quote(apiVersion)},`, '      fields: [')
    for (const field of fields) lines.push(`        ${renderField(field)},`)
    lines.push('      ],', '    },')
  }
  lines.push('  },', '}', '')
  return lines.join('\n')
}

function renderField(field: GeneratedField): string {
  const parts = [`path: ${quote(field.path)}`, `type: ${quote(field.type)}`]
  if (field.values) parts.push(`values: ${quote(field.values)}`)
  if (field.enum) parts.push(`enum: [${field.enum.map(quote).join(', ')}]`)
  if (field.default !== undefined) {
    parts.push(`default: ${typeof field.default === 'string' ? quote(field.default) : String(field.default)}`)
  }
  if (field.deprecated) parts.push('deprecated: true')
  if (field.featureGated) parts.push('featureGated: true')
  if (field.from) parts.push(`from: ${quote(field.from)}`)
  return `{ ${parts.join(', ')} }`
}

function quote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
}
