import { charge, checkStringLength, JmespathBudgetError, metered } from '../budget.js'
import { marshalGoJson } from '../go-json.js'
import { isJsonObject, setOwn, type JsonObject, type JsonValue } from '../json.js'
import { childPath, currentValueExpression } from './document-path.js'
import { ReferenceResolver, replaceFirst } from './references.js'
import { SubstitutionError } from './substitution-error.js'
import { findVariables, leadingCharacter, startsWithVariable, variableExpression, wholeVariableOf } from './variable-syntax.js'

/**
 * Kyverno's variable substitution (pkg/engine/variables SubstituteAll) over a JSON value: a
 * pattern, a condition's key or value, a message, a context entry.
 *
 * Every string (values and object keys) is scanned for `{{ expr }}`; each expression is
 * evaluated by the context's `query`:
 * - a string that is exactly one variable becomes the value itself, of any type (`"{{ x }}"` may
 *   be a number, a list, null);
 * - a variable inside a longer string is replaced by its text: strings as they are, anything
 *   else as Go's JSON (sorted keys, HTML-safe escapes, `null` for null);
 * - after each pass the string is scanned again, so `{{ a.{{ b }} }}` works inside out, and a
 *   value that itself contains `{{ }}` is substituted too; `{{- expr }}` stops that for its
 *   result;
 * - `\{{` is kept, then written as `{{`;
 * - `{{@}}` is the value at the same place in the resource (see currentValueExpression);
 * - on a DELETE request, `request.object` in an expression reads `request.oldObject`;
 * - a value substituted in place of a whole string and holding an object or list is walked in
 *   turn;
 * - a failing expression fails the whole substitution with Kyverno's "failed to resolve ..."
 *   message; there is no default: a missing field is an error unless the expression handles it
 *   (`{{ x || '' }}`).
 *
 * `$(...)` references are resolved first (see references.ts) unless turned off.
 *
 * One deliberate difference: a variable preceded by a non-ASCII character keeps that whole
 * character (Kyverno cuts one byte of it, which breaks the expression).
 */

export interface VariableContext {
  /** Kyverno's Query: the value of an expression over the variables, with its error wording. */
  query(expression: string): JsonValue
  /** The admission operation (CREATE, UPDATE, DELETE, CONNECT), or '' when not known. */
  operation(): string
  /** A fixed clock for time_now(), when the context has one. */
  now?(): Date | undefined
}

export interface SubstituteOptions {
  /**
   * Kyverno's path of `value` inside the document it substitutes: '' (the default) when `value`
   * is that document. Used in error messages and by `{{@}}`, which drops the first two path
   * components (Kyverno substitutes rules at /validate/pattern/..., /mutate/...).
   */
  readonly path?: string
  /** Resolve `$(...)` references before variables, as Kyverno does; true by default. */
  readonly references?: boolean
}

/** More rescans of one string than this mean a value keeps producing variables. */
const MAX_PASSES = 100
/** Substituted values are walked in turn; a value that keeps nesting itself stops here. */
const MAX_DEPTH = 512

type StringAction = (text: string, path: string) => JsonValue

export function substituteVariables(value: JsonValue, context: VariableContext, options: SubstituteOptions = {}): JsonValue {
  return metered(() => {
    const path = options.path ?? ''
    const deleting = context.operation() === 'DELETE'
    const action: StringAction = (text, at) => substituteString(text, at, context, deleting)
    // The common case, a condition's key or value that is one variable, skips the scans of the general walk.
    const whole = typeof value === 'string' ? wholeVariableOf(value) : undefined
    if (whole !== undefined) {
      charge(1)
      return descend(queryVariable(whole, path, context, deleting), path, action, 0)
    }
    let document = value
    if (options.references !== false) {
      const resolver = new ReferenceResolver(value)
      document = walk(document, path, (text, at) => resolver.resolve(text, at), 0)
    }
    return walk(document, path, action, 0)
  }, context.now?.())
}

/** A string that is exactly one variable (`{{ request.object.spec }}`), read once: see prepareWholeVariable. */
export interface WholeVariable {
  readonly expression: string
  /** The expression a DELETE request evaluates (`request.object` reads the old object). */
  readonly onDelete: string
}

/** The variable a string consists of, read for substituting it many times; undefined for any other string. */
export function prepareWholeVariable(text: string): WholeVariable | undefined {
  const expression = wholeVariableOf(text)
  return expression === undefined ? undefined : { expression, onDelete: expression.replaceAll('request.object', 'request.oldObject') }
}

/** substituteVariables of the string `variable` was prepared from, without reading the string again. */
export function substituteWholeVariable(variable: WholeVariable, context: VariableContext): JsonValue {
  return metered(() => {
    const deleting = context.operation() === 'DELETE'
    charge(1)
    const result = queryVariable(deleting ? variable.onDelete : variable.expression, '', context, false)
    if (typeof result !== 'object' || result === null) return result
    return descend(result, '', (text, at) => substituteString(text, at, context, deleting), 0)
  }, context.now?.())
}

function walk(value: JsonValue, path: string, action: StringAction, depth: number): JsonValue {
  if (depth > MAX_DEPTH) throw new JmespathBudgetError(`variable substitution nested more than ${MAX_DEPTH} levels deep at path ${path}`)
  charge(1)
  return descend(typeof value === 'string' ? action(value, path) : value, path, action, depth)
}

/** The items of a list or the keys and values of a map, walked in turn; anything else as it is. */
function descend(current: JsonValue, path: string, action: StringAction, depth: number): JsonValue {
  if (Array.isArray(current)) return current.map((item, index) => walk(item, childPath(path, index), action, depth + 1))
  if (!isJsonObject(current)) return current
  const out: JsonObject = {}
  for (const key of Object.keys(current)) {
    const renamed = action(key, path)
    if (renamed !== null && typeof renamed !== 'string') {
      throw new SubstitutionError(`expected string after substituting variables in key "${key}"`, { path })
    }
    setOwn(out, renamed ?? key, walk(current[key] as JsonValue, childPath(path, key), action, depth + 1))
  }
  return out
}

function substituteString(text: string, path: string, context: VariableContext, deleting: boolean): JsonValue {
  // Without `{{` there is neither a variable nor an escaped one to unescape.
  if (!text.includes('{{')) return text
  let value = text
  let matches = findVariables(value)
  for (let pass = 0; matches.length > 0; pass++) {
    if (pass >= MAX_PASSES) throw new JmespathBudgetError(`variable substitution at path ${path} still found variables after ${MAX_PASSES} passes`)
    const original = value
    let shallow = false
    for (const match of matches) {
      const initial = startsWithVariable(match)
      const prefix = initial ? '' : leadingCharacter(match)
      const variable = match.slice(prefix.length)
      const parsed = variableExpression(variable)
      shallow = parsed.shallow
      const expression = parsed.expression === '@' ? currentValueExpression(path, targetExists(context) ? 'target' : 'request.object') : parsed.expression
      let result = queryVariable(expression, path, context, deleting)
      if (original === variable) return result
      if (shallow && typeof result === 'string') result = result.replaceAll('{{', '\\{{')
      const replacement = typeof result === 'string' ? result : marshalGoJson(result, 'jsoniter')
      checkStringLength(value.length + replacement.length, 'the substituted string')
      value = replaceFirst(value, prefix + variable, prefix + replacement)
    }
    matches = shallow ? [] : findVariables(value)
  }
  return value.replaceAll('\\{{', '{{')
}

/** One variable's value; on DELETE, `request.object` reads the old object. */
function queryVariable(written: string, path: string, context: VariableContext, deleting: boolean): JsonValue {
  const expression = deleting ? written.replaceAll('request.object', 'request.oldObject') : written
  try {
    return context.query(expression)
  } catch (error) {
    if (error instanceof JmespathBudgetError) throw error
    throw new SubstitutionError(`failed to resolve ${expression} at path ${path}: ${(error as Error).message}`, {
      path,
      variable: expression,
      cause: error,
    })
  }
}

/** Mutations of existing resources put the resource under `target`; `{{@}}` reads there when it exists. */
function targetExists(context: VariableContext): boolean {
  try {
    context.query('target')
    return true
  } catch {
    return false
  }
}
