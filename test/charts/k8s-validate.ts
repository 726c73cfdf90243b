import * as clientNode from '@kubernetes/client-node'
import type { K8sObject } from './chart-render.js'

/**
 * Checks a rendered object against the Kubernetes OpenAPI schemas:
 * - types, required fields, enums and formats with the `kubernetes-models` package's validators;
 * - unknown fields (a misspelt `securtyContext` that the API server would drop or reject), which those
 *   validators let through, with the field lists of @kubernetes/client-node's generated models.
 * Objects of other APIs (cert-manager, Prometheus Operator) get a shape check only.
 * Returns the problems found; an empty list means valid.
 */
export async function validateObject(object: K8sObject): Promise<string[]> {
  const shape = checkShape(object)
  if (shape.length > 0) return shape
  const modelPath = modelPathOf(object.apiVersion, object.kind)
  if (!modelPath || !BUILT_IN_GROUPS.has(groupOf(object.apiVersion))) return []
  let module: Record<string, unknown>
  try {
    const specifier = `kubernetes-models/${modelPath}`
    module = (await import(/* @vite-ignore */ specifier)) as Record<string, unknown>
  } catch {
    return [`no kubernetes-models model for ${object.apiVersion} ${object.kind}`]
  }
  const Model = module[object.kind] as (new (data: unknown) => { validate(): void }) | undefined
  if (!Model) return [`kubernetes-models/${modelPath} exports no ${object.kind}`]
  const problems: string[] = []
  try {
    new Model(object).validate()
  } catch (error) {
    problems.push(`${describe(object)}: ${(error as Error).message}`)
  }
  const className = `${capitalize(versionOf(object.apiVersion))}${object.kind}`
  if (!(className in clientNode)) return [...problems, `@kubernetes/client-node has no model ${className}`]
  const unknown: string[] = []
  findUnknownFields(object, className, '', unknown)
  problems.push(...unknown.map((path) => `${describe(object)}: unknown field ${path}`))
  return problems
}

/** API groups whose kinds kubernetes-models knows (the core group is ""). */
const BUILT_IN_GROUPS = new Set([
  '',
  'apps',
  'batch',
  'policy',
  'autoscaling',
  'rbac.authorization.k8s.io',
  'networking.k8s.io',
  'admissionregistration.k8s.io',
  'apiextensions.k8s.io',
  'coordination.k8s.io',
  'scheduling.k8s.io',
  'storage.k8s.io',
])

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/
const API_VERSION = /^([a-z0-9.-]+\/)?v[0-9]+((alpha|beta)[0-9]+)?$/
const KIND = /^[A-Z][A-Za-z0-9]*$/

/** What every object needs, whichever API it belongs to. */
export function checkShape(object: K8sObject): string[] {
  const problems: string[] = []
  const where = describe(object)
  if (typeof object.apiVersion !== 'string' || !API_VERSION.test(object.apiVersion)) problems.push(`${where}: bad apiVersion ${JSON.stringify(object.apiVersion)}`)
  if (typeof object.kind !== 'string' || !KIND.test(object.kind)) problems.push(`${where}: bad kind ${JSON.stringify(object.kind)}`)
  const metadata = object.metadata as unknown
  if (typeof metadata !== 'object' || metadata === null) return [...problems, `${where}: no metadata`]
  const { name, namespace, labels, annotations } = object.metadata
  if (typeof name !== 'string' || name.length > 253 || !DNS_SUBDOMAIN.test(name)) problems.push(`${where}: bad metadata.name ${JSON.stringify(name)}`)
  if (namespace !== undefined && (typeof namespace !== 'string' || !DNS_LABEL.test(namespace))) problems.push(`${where}: bad metadata.namespace`)
  for (const [field, map] of [['labels', labels], ['annotations', annotations]] as const) {
    if (map === undefined) continue
    if (typeof map !== 'object' || map === null || Object.values(map).some((value) => typeof value !== 'string')) {
      problems.push(`${where}: metadata.${field} must map strings to strings`)
    }
  }
  for (const [key, value] of Object.entries(labels ?? {})) {
    if (value.length > 63 || !/^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/.test(value)) problems.push(`${where}: label ${key} has a bad value ${JSON.stringify(value)}`)
  }
  return problems
}

function describe(object: K8sObject): string {
  return `${object.kind ?? '?'} ${object.metadata?.name ?? '?'}`
}

function groupOf(apiVersion: string): string {
  return apiVersion.includes('/') ? (apiVersion.split('/')[0] as string) : ''
}

function versionOf(apiVersion: string): string {
  return apiVersion.includes('/') ? (apiVersion.split('/')[1] as string) : apiVersion
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/** `kubernetes-models/apps/v1/Deployment`, `kubernetes-models/v1/Service`. */
function modelPathOf(apiVersion: string, kind: string): string | undefined {
  if (!API_VERSION.test(apiVersion) || !KIND.test(kind)) return undefined
  return `${apiVersion}/${kind}`
}

interface Attribute {
  baseName: string
  type: string
}

type ModelClass = { getAttributeTypeMap(): Attribute[] }

const models = clientNode as unknown as Record<string, ModelClass | undefined>

/** Walks the object along client-node's type map and records every field the type does not have. */
function findUnknownFields(value: unknown, type: string, path: string, found: string[]): void {
  if (value === null || value === undefined) return
  const list = /^Array<(.+)>$/.exec(type)
  if (list) {
    if (Array.isArray(value)) value.forEach((item, index) => findUnknownFields(item, list[1] as string, `${path}[${index}]`, found))
    return
  }
  const map = /^\{ \[key: string\]: (.+); \}$/.exec(type)
  if (map) {
    if (typeof value === 'object') for (const [key, item] of Object.entries(value)) findUnknownFields(item, map[1] as string, `${path}[${key}]`, found)
    return
  }
  const model = models[type]
  // Primitives, IntOrString, Date, any: nothing to walk (kubernetes-models checks their types).
  if (typeof model?.getAttributeTypeMap !== 'function' || typeof value !== 'object' || Array.isArray(value)) return
  const fields = new Map(model.getAttributeTypeMap().map((attribute) => [attribute.baseName, attribute.type]))
  for (const [key, item] of Object.entries(value)) {
    const fieldType = fields.get(key)
    const at = path === '' ? key : `${path}.${key}`
    if (fieldType === undefined) found.push(at)
    else findUnknownFields(item, fieldType, at, found)
  }
}
