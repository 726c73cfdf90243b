import type { LabelSelector } from '../engine/model/label-selector.js'
import type { Operation } from '../engine/model/match.js'
import { ImportError } from './import-error.js'

/**
 * Typed reads from parsed YAML. Every reader names the field it reads so that a malformed
 * document is reported where it is wrong; `null` counts as absent, as Kubernetes treats it.
 */
export type JsonObject = Record<string, unknown>

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function object(value: unknown, field: string): JsonObject {
  if (!isObject(value)) throw new ImportError(field, value === undefined || value === null ? 'is required' : 'must be an object')
  return value
}

export function optionalObject(value: unknown, field: string): JsonObject | undefined {
  return value === undefined || value === null ? undefined : object(value, field)
}

export function list(value: unknown, field: string): unknown[] {
  if (!Array.isArray(value)) throw new ImportError(field, value === undefined || value === null ? 'is required' : 'must be a list')
  return value
}

export function optionalList(value: unknown, field: string): unknown[] | undefined {
  return value === undefined || value === null ? undefined : list(value, field)
}

export function text(value: unknown, field: string): string {
  if (typeof value !== 'string') throw new ImportError(field, value === undefined || value === null ? 'is required' : 'must be a string')
  if (value.trim() === '') throw new ImportError(field, 'must not be empty')
  return value
}

export function optionalText(value: unknown, field: string): string | undefined {
  return value === undefined || value === null ? undefined : text(value, field)
}

export function optionalBoolean(value: unknown, field: string): boolean | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'boolean') throw new ImportError(field, 'must be true or false')
  return value
}

/** A list of non-empty strings; absent and empty both read as undefined (no constraint). */
export function optionalTextList(value: unknown, field: string): string[] | undefined {
  const items = optionalList(value, field)
  if (!items || items.length === 0) return undefined
  return items.map((item, i) => text(item, `${field}[${i}]`))
}

const OPERATIONS: readonly string[] = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT']

/** Admission operations; `*` (any operation) reads as undefined, i.e. no constraint. */
export function optionalOperations(value: unknown, field: string): Operation[] | undefined {
  const items = optionalTextList(value, field)
  if (!items || items.includes('*')) return undefined
  items.forEach((item, i) => {
    if (!OPERATIONS.includes(item)) {
      throw new ImportError(`${field}[${i}]`, `must be one of ${OPERATIONS.join(', ')} or *, not "${item}"`)
    }
  })
  return unique(items as Operation[])
}

const SELECTOR_OPERATORS: readonly string[] = ['In', 'NotIn', 'Exists', 'DoesNotExist']

/**
 * A metav1.LabelSelector. An empty selector selects everything, so it reads as undefined:
 * leaving it out of the match says the same thing and keeps the output minimal.
 */
export function optionalLabelSelector(value: unknown, field: string): LabelSelector | undefined {
  const selector = optionalObject(value, field)
  if (!selector) return undefined
  const out: LabelSelector = {}
  const matchLabels = optionalObject(selector.matchLabels, `${field}.matchLabels`)
  if (matchLabels && Object.keys(matchLabels).length > 0) {
    out.matchLabels = {}
    for (const [key, labelValue] of Object.entries(matchLabels)) {
      // YAML turns `app: true` or `tier: 1` into non-strings; Kubernetes would have rejected them, Kyverno coerces.
      if (typeof labelValue !== 'string' && typeof labelValue !== 'number' && typeof labelValue !== 'boolean') {
        throw new ImportError(`${field}.matchLabels.${key}`, 'must be a string')
      }
      out.matchLabels[key] = String(labelValue)
    }
  }
  const expressions = optionalList(selector.matchExpressions, `${field}.matchExpressions`)
  if (expressions && expressions.length > 0) {
    out.matchExpressions = expressions.map((raw, i) => {
      const path = `${field}.matchExpressions[${i}]`
      const expression = object(raw, path)
      const operator = text(expression.operator, `${path}.operator`)
      if (!SELECTOR_OPERATORS.includes(operator)) {
        throw new ImportError(`${path}.operator`, `must be one of ${SELECTOR_OPERATORS.join(', ')}, not "${operator}"`)
      }
      const values = optionalList(expression.values, `${path}.values`)?.map((v, j) => {
        if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') {
          throw new ImportError(`${path}.values[${j}]`, 'must be a string')
        }
        return String(v)
      })
      return {
        key: text(expression.key, `${path}.key`),
        operator: operator as 'In' | 'NotIn' | 'Exists' | 'DoesNotExist',
        ...(values ? { values } : {}),
      }
    })
  }
  return out.matchLabels || out.matchExpressions ? out : undefined
}

export function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)]
}
