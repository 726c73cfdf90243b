import { checkConditions } from '../engine/conditions/index.js'
import type { ContextEntry, ForEach } from '../engine/model/classic-validation.js'
import { ImportError, Unsupported } from './import-error.js'
import { importedPatterns } from './kyverno-pattern.js'
import { isObject, list, object, optionalBoolean, optionalList, optionalObject, text, type JsonObject } from './read.js'

/**
 * Kyverno's classic rule parts (context entries, preconditions, validate.deny, validate.foreach)
 * -> the same parts of a Verdict rule, which the engine judges with Kyverno's semantics
 * (src/engine/classic). Shapes are checked here, naming the field; conditions Verdict would
 * refuse when the ruleset compiles (an operator Kyverno does not know) skip the rule instead.
 */

const ENTRY_FIELDS = new Set(['name', 'variable', 'configMap', 'apiCall', 'imageRegistry', 'globalReference'])
const FOREACH_FIELDS = new Set(['list', 'context', 'preconditions', 'elementScope', 'pattern', 'anyPattern', 'deny', 'foreach'])

export function importedContext(value: unknown, field: string): ContextEntry[] | undefined {
  const items = optionalList(value, field)
  if (!items || items.length === 0) return undefined
  return items.map((raw, index) => contextEntry(raw, `${field}[${index}]`))
}

function contextEntry(raw: unknown, field: string): ContextEntry {
  const entry = object(raw, field)
  for (const key of Object.keys(entry)) if (!ENTRY_FIELDS.has(key)) throw new ImportError(`${field}.${key}`, 'is not a field of a context entry')
  const out: ContextEntry = { name: text(entry.name, `${field}.name`) }
  const variable = optionalObject(entry.variable, `${field}.variable`)
  if (variable) {
    const copied: NonNullable<ContextEntry['variable']> = {}
    if (present(variable.value)) copied.value = variable.value
    if (variable.jmesPath !== undefined && variable.jmesPath !== null) {
      if (typeof variable.jmesPath !== 'string') throw new ImportError(`${field}.variable.jmesPath`, 'must be a string')
      if (variable.jmesPath !== '') copied.jmesPath = variable.jmesPath
    }
    if (present(variable.default)) copied.default = variable.default
    out.variable = copied
  }
  const configMap = optionalObject(entry.configMap, `${field}.configMap`)
  if (configMap) {
    out.configMap = { name: text(configMap.name, `${field}.configMap.name`) }
    if (typeof configMap.namespace === 'string' && configMap.namespace !== '') out.configMap.namespace = configMap.namespace
  }
  for (const external of ['apiCall', 'imageRegistry', 'globalReference'] as const) {
    if (present(entry[external])) out[external] = entry[external]
  }
  return out
}

/** `preconditions` (or a deny's `conditions`): copied when they constrain anything; a block Verdict cannot judge skips the rule. */
export function importedConditions(value: unknown, field: string): unknown {
  if (!constrains(value)) return undefined
  const problem = checkConditions(value, field)[0]
  if (problem) throw new Unsupported(`${problem.path}: ${problem.message}`)
  return value
}

/** Kyverno conditions are a list, or `{any, all}` lists; empty ones constrain nothing. */
function constrains(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0
  if (!isObject(value)) return value !== undefined && value !== null
  return [value.any, value.all].some((conditions) => conditions !== undefined && conditions !== null) || Object.keys(value).length > 0
}

export function importedDeny(value: unknown, field: string): { conditions?: unknown } {
  const deny = object(value, field)
  const conditions = importedConditions(deny.conditions, `${field}.conditions`)
  return conditions === undefined ? {} : { conditions }
}

export function importedForEach(value: unknown, field: string): ForEach[] {
  const items = list(value, field)
  if (items.length === 0) throw new ImportError(field, 'must list at least one loop')
  return items.map((raw, index) => loop(raw, `${field}[${index}]`))
}

function loop(raw: unknown, field: string): ForEach {
  const source = object(raw, field)
  for (const key of Object.keys(source)) if (!FOREACH_FIELDS.has(key)) throw new ImportError(`${field}.${key}`, 'is not a field of a foreach loop')
  const out: ForEach = { list: text(source.list, `${field}.list`) }
  const context = importedContext(source.context, `${field}.context`)
  if (context) out.context = context
  const preconditions = importedConditions(source.preconditions, `${field}.preconditions`)
  if (preconditions !== undefined) out.preconditions = preconditions
  const elementScope = optionalBoolean(source.elementScope, `${field}.elementScope`)
  if (elementScope !== undefined) out.elementScope = elementScope
  const kinds = (['pattern', 'anyPattern', 'deny', 'foreach'] as const).filter((kind) => present(source[kind]))
  if (kinds.length !== 1) throw new ImportError(field, kinds.length === 0 ? 'needs one of pattern, anyPattern, deny, foreach' : `has ${kinds.join(' and ')}; a loop validates in exactly one way`)
  const kind = kinds[0]
  if (kind === 'deny') out.deny = importedDeny(source.deny, `${field}.deny`)
  else if (kind === 'foreach') out.foreach = importedForEach(source.foreach, `${field}.foreach`)
  else Object.assign(out, importedPatterns(source as JsonObject, field))
  return out
}

function present(value: unknown): boolean {
  return value !== undefined && value !== null
}
