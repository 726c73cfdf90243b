import type { Platform } from '../catalog/rule-template.js'
import { resolveKubernetesField } from '../fields/resolve-kubernetes-field.js'
import type { FieldInfo } from '../fields/kubernetes-fields.js'
import type { ValueRef, ValueType } from './requirement.js'

/**
 * Finds the fields a piece of text names and turns each into a ValueRef for the subject:
 * Kubernetes paths come from the kind's schema (written paths, field names, or words such as
 * "memory limit"), Terraform attributes from the snake_case names authors write, and generic
 * documents from dotted paths and names, with name variants.
 */
export interface FieldMention {
  refs: ValueRef[]
  index: number
  length: number
  /** Written as a field name or path, rather than found from words. */
  explicit: boolean
  text: string
}

export interface FieldContext {
  platform: Platform
  /** The kind whose schema resolves Kubernetes paths (Pod for pod controllers judged through autogen). */
  kind?: string
}

/** Tokens that look like field names: dotted paths, camelCase, snake_case, backticked names. */
const CODE_TOKEN = /`([^`\s]+)`|(?<![\w.$/@:-])([A-Za-z_][\w-]*(?:(?:\.[A-Za-z_][\w-]*)|(?:\[[^\]\s]*\]))+(?:\.[A-Za-z_][\w-]*)*|[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+)(?![\w/@-]|\.[A-Za-z0-9])/g

const HOST_LIKE = /^[a-z0-9-]+(\.[a-z0-9-]+)*\.(com|io|net|org|dev|local|internal|cloud|app|co|uk|de|example)(\/|$)/i

/** Names of formats and conventions, written like fields but never fields. */
const NOT_FIELDS = /^(snake_case|kebab-case|camelCase|PascalCase|lower_case|upper_case|e\.g|i\.e|etc)$/

export function codeTokens(text: string): Array<{ token: string; index: number; length: number }> {
  const found: Array<{ token: string; index: number; length: number }> = []
  for (const match of text.matchAll(CODE_TOKEN)) {
    const token = (match[1] ?? match[2] ?? '').replace(/[.:,]+$/, '')
    if (token === '' || HOST_LIKE.test(token) || /^\d/.test(token) || NOT_FIELDS.test(token) || /^[A-Z0-9_.]+$/.test(token)) continue
    found.push({ token, index: match.index ?? 0, length: match[0].length })
  }
  return found
}

/** Path segments: dots split, `[*]`/`[0]`/`[]` are array items, `['example.com/owner']` is one key. */
export function pathSegments(token: string): string[] {
  const segments: string[] = []
  for (const match of token.matchAll(/\[['"]([^'"]+)['"]\]|\[(?:\*|\d*)\]|([^.[\]]+)/g)) {
    if (match[1] !== undefined) segments.push(match[1])
    else if (match[2] !== undefined) segments.push(match[2])
    else segments.push('[]')
  }
  return segments
}

const TYPE_OF: Record<string, ValueType> = {
  string: 'string',
  integer: 'integer',
  number: 'number',
  boolean: 'boolean',
  object: 'object',
  array: 'array',
  map: 'map',
  quantity: 'quantity',
  'int-or-string': 'int-or-string',
}

/** A Kubernetes schema path as a ValueRef: container paths become container-scoped. */
export function kubernetesRef(info: FieldInfo, label: string): ValueRef {
  const segments = pathSegments(info.path)
  const containerIndex = segments.findIndex((segment, index) => /^(containers|initContainers|ephemeralContainers)$/.test(segment) && segments[index + 1] === '[]' && segments[index - 1] === 'spec')
  const ref: ValueRef = { scope: 'object', variants: [{ segments }], label }
  if (containerIndex >= 1) {
    ref.scope = 'container'
    const inside = segments.slice(containerIndex + 2)
    ref.variants = [{ segments: inside }]
    const leaf = inside[0] ?? ''
    // Kubernetes refuses probes on init and ephemeral containers, and ports and resources on ephemeral ones.
    const probe = /Probe$|^lifecycle$/.test(leaf)
    ref.containers = { init: !probe, ephemeral: !probe && !/^(ports|resources)$/.test(leaf), podSpec: segments.slice(0, containerIndex) }
  }
  const type = TYPE_OF[info.type]
  if (type) ref.type = type
  if (info.default !== undefined) ref.schemaDefault = info.default
  if (info.enum !== undefined) ref.enum = info.enum
  return ref
}

/** The Kubernetes fields a token or phrase names for the kind, best first. */
export function kubernetesMentions(kind: string, mention: string): ValueRef[] {
  return resolveKubernetesField(kind, mention).map((info) => kubernetesRef(info, mention))
}

/** Generic and Terraform names: the path as written. */
export function literalRef(segments: string[], scope: ValueRef['scope'], label: string): ValueRef {
  return { scope, variants: [{ segments }], label }
}
