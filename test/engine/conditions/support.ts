import { evaluateConditions, type ConditionResolver } from '../../../src/engine/conditions/index.js'

const VARIABLE = /^\{\{\s*(.+?)\s*\}\}$/

/**
 * A stand-in for `{{ }}` substitution: a string that is exactly `{{ name }}` becomes the named
 * value, inside lists and maps too; a name that is not given fails like an unresolvable variable.
 */
export function resolverOf(variables: Readonly<Record<string, unknown>> = {}): ConditionResolver {
  const resolve = (raw: unknown): unknown => {
    if (typeof raw === 'string') {
      const name = VARIABLE.exec(raw)?.[1]
      if (name === undefined) return raw
      if (!Object.hasOwn(variables, name)) throw new Error(`Unknown key "${name}" in path`)
      return variables[name]
    }
    if (Array.isArray(raw)) return raw.map(resolve)
    if (typeof raw === 'object' && raw !== null) return Object.fromEntries(Object.entries(raw).map(([key, item]) => [key, resolve(item)]))
    return raw
  }
  return resolve
}

/** Whether one condition holds, evaluated through the public entry point. */
export function holds(operator: string, key: unknown, value: unknown, variables: Readonly<Record<string, unknown>> = {}): boolean {
  const result = evaluateConditions({ all: [{ key, operator, value }] }, resolverOf(variables))
  if (result.error) throw new Error(`${result.error.path}: ${result.error.message}`)
  return result.passed
}
