import { parseGoDuration } from '../engine/conditions/go-duration.js'
import { parseGoInt } from '../engine/conditions/go-int.js'
import { parseGoFloat } from '../engine/conditions/go-parse-float.js'
import { tryParseQuantity } from '../engine/conditions/optional-parsers.js'
import type { MatchCondition } from '../engine/model/match.js'
import { ImportError } from './import-error.js'
import { isObject, object, optionalList } from './read.js'

/**
 * A Kyverno PolicyException's `spec.conditions` (kyverno.io/v2: `{any, all}` of `{key, operator,
 * value}`, keys in JMESPath) as the CEL conditions of a Verdict exception, for the part whose
 * meaning CEL can say exactly; anything else is refused, naming the field.
 *
 * What is translated: a key that is one `{{ }}` holding a field path under `request.object` or
 * `request.oldObject` (names plain or "quoted"), or `request.operation`, optionally followed by
 * `|| '<default>'`; the operators Equals/Equal and NotEquals/NotEqual; a value that is plain text:
 * no `{{ }}`, no wildcard, nothing Kyverno would read as a number, a quantity or a duration (then
 * Kyverno's Equals is plain string equality), and not the default itself.
 *
 * On a DELETE request Kyverno substitutes `request.oldObject` for `request.object` in variables;
 * so does the translation. Kyverno's order is kept (pkg/utils/conditions): every `all` must hold, then one `any` (an empty
 * `any` is no constraint); a condition whose key cannot be read (a field missing from an object,
 * without a default) is an error, and an error means the exception does not apply, even when a
 * later `any` holds. Each condition is therefore judged as a pair (errs, holds) in CEL; the block
 * is one expression.
 */
export function translateExceptionConditions(value: unknown, field: string): MatchCondition[] | undefined {
  if (value === undefined || value === null) return undefined
  const block = object(value, field)
  for (const key of Object.keys(block)) {
    if (key !== 'any' && key !== 'all') throw new ImportError(`${field}.${key}`, 'is not a field of exception conditions (any, all)')
  }
  const all = (optionalList(block.all, `${field}.all`) ?? []).map((raw, index) => translateCondition(raw, `${field}.all[${index}]`))
  const any = (optionalList(block.any, `${field}.any`) ?? []).map((raw, index) => translateCondition(raw, `${field}.any[${index}]`))
  const out: MatchCondition[] = all.map((condition, index) => ({ name: `kyverno-all-${index}`, expression: withRequestObject(condition.holds) }))
  if (any.length > 0) out.push({ name: 'kyverno-any', expression: withRequestObject(anyExpression(any)) })
  return out.length > 0 ? out : undefined
}

/** One condition in CEL: whether Kyverno would fail to evaluate it, and whether it holds. */
interface Judged {
  errs: string
  holds: string
}

/** The first condition that errs stops `any` with an error (no exemption); the first that holds lets it through. */
function anyExpression(conditions: readonly Judged[]): string {
  return conditions.reduceRight<string>((rest, condition) => {
    const holdsOrRest = rest === 'false' ? condition.holds : `(${condition.holds}) || (${rest})`
    return condition.errs === 'false' ? holdsOrRest : `!(${condition.errs}) && (${holdsOrRest})`
  }, 'false')
}

const OPERATORS: Readonly<Record<string, 'equals' | 'notEquals'>> = { Equals: 'equals', Equal: 'equals', NotEquals: 'notEquals', NotEqual: 'notEquals' }

function translateCondition(raw: unknown, field: string): Judged {
  const condition = object(raw, field)
  for (const key of Object.keys(condition)) {
    if (!['key', 'operator', 'value', 'message'].includes(key)) throw new ImportError(`${field}.${key}`, 'is not a field of a condition (key, operator, value, message)')
  }
  const operatorName = condition.operator
  const operator = typeof operatorName === 'string' ? OPERATORS[operatorName] : undefined
  if (operator === undefined) {
    throw new ImportError(
      `${field}.operator`,
      `${JSON.stringify(operatorName ?? null)} cannot be translated: exception conditions are imported with Equals and NotEquals only; write the others as CEL in a Verdict exception's conditions`,
    )
  }
  const key = readKey(condition.key, `${field}.key`)
  const value = readValue(condition.value, `${field}.value`)
  if (key.fallback !== undefined && key.fallback === value) {
    throw new ImportError(`${field}.value`, `equals the key's default '${key.fallback}', which Kyverno also takes for false, empty and missing values; this cannot be translated`)
  }
  return operator === 'equals' ? equalsIn(key, value) : notEqualsIn(key, value)
}

/** A key as read: where it starts in CEL, the field path below, and the default after `||`. */
interface Key {
  root: 'object' | 'oldObject' | 'operation'
  path: readonly string[]
  fallback?: string
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/
const WHOLE_VARIABLE = /^\{\{\s*(.*?)\s*\}\}$/s

/** `{{ request.object.a."b.c" || 'd' }}`, nothing more. */
function readKey(raw: unknown, field: string): Key {
  if (typeof raw !== 'string') throw new ImportError(field, 'cannot be translated: only a {{ }} field path (request.object..., request.oldObject..., request.operation) is')
  const whole = WHOLE_VARIABLE.exec(raw.trim())
  const inner = whole?.[1]
  if (inner === undefined || inner.includes('{{')) throw new ImportError(field, `"${raw}" cannot be translated: only a key that is one {{ }} variable is`)
  const [pathText = '', fallbackText, ...more] = inner.split('||').map((part) => part.trim())
  if (more.length > 0) throw new ImportError(field, `"${raw}" cannot be translated: only one || default is`)
  const segments = readPath(pathText)
  if (segments === undefined) {
    throw new ImportError(field, `"${raw}" cannot be translated: only a field path under request.object or request.oldObject, or request.operation, is`)
  }
  const [request, root, ...path] = segments
  const key: Key = { root: root === 'operation' ? 'operation' : root === 'oldObject' ? 'oldObject' : 'object', path }
  if (request !== 'request' || (root !== 'object' && root !== 'oldObject' && !(root === 'operation' && path.length === 0))) {
    throw new ImportError(field, `"${raw}" cannot be translated: only a field path under request.object or request.oldObject, or request.operation, is`)
  }
  if (fallbackText !== undefined) {
    const fallback = /^'([^'\\]*)'$/.exec(fallbackText)?.[1]
    if (fallback === undefined) throw new ImportError(field, `"${raw}" cannot be translated: only a raw string default such as || '' is`)
    key.fallback = fallback
  }
  return key
}

/** Dot-separated names, each an identifier or a "quoted" name without escapes; undefined for anything else. */
function readPath(text: string): string[] | undefined {
  const segments: string[] = []
  let rest = text
  while (rest.length > 0) {
    let segment: string
    if (rest.startsWith('"')) {
      const end = rest.indexOf('"', 1)
      if (end < 0) return undefined
      segment = rest.slice(1, end)
      if (segment === '' || segment.includes('\\')) return undefined
      rest = rest.slice(end + 1)
    } else {
      const match = /^[^.]*/.exec(rest)?.[0] ?? ''
      if (!IDENTIFIER.test(match)) return undefined
      segment = match
      rest = rest.slice(match.length)
    }
    segments.push(segment)
    if (rest.length === 0) break
    if (!rest.startsWith('.')) return undefined
    rest = rest.slice(1)
    if (rest.length === 0) return undefined
  }
  return segments.length >= 2 ? segments : undefined
}

/** Plain text: compared by Kyverno's Equals exactly as strings (see equals.ts in the engine). */
function readValue(raw: unknown, field: string): string {
  if (typeof raw !== 'string') throw new ImportError(field, 'cannot be translated: only a text value is')
  const reason =
    raw === ''
      ? 'is empty'
      : raw.includes('{{')
        ? 'holds a {{ }} variable'
        : /[*?]/.test(raw)
          ? 'holds a wildcard'
          : parseGoFloat(raw) !== undefined || parseGoInt(raw) !== undefined || tryParseQuantity(raw) !== undefined
            ? 'reads as a number or quantity, which Kyverno compares by value'
            : parseGoDuration(raw) !== undefined
              ? 'reads as a duration, which Kyverno compares by value'
              : undefined
  if (reason !== undefined) throw new ImportError(field, `"${raw}" cannot be translated: it ${reason}`)
  return raw
}

/**
 * The key's walk in CEL: the value at each step, and whether each step found its field in an
 * object. Kyverno's JMESPath gives null for a field of anything but an object, and an error for a
 * field an object lacks (unless the key has a default).
 */
interface Walk {
  /** CEL for the value at the end of the path (valid only where `found` holds). */
  value: string
  /** CEL: every step found its field in an object. */
  found: string
  /** CEL: the walk stopped at an object lacking the field (Kyverno's "Unknown key"). */
  missing: string
}

function walk(key: Key): Walk {
  if (key.root === 'operation') return { value: 'request.operation', found: 'true', missing: 'false' }
  let value = key.root === 'object' ? REQUEST_OBJECT : 'oldObject'
  const found: string[] = []
  const missing: string[] = []
  for (const segment of key.path) {
    const at = IDENTIFIER.test(segment) && !CEL_RESERVED.has(segment) ? `${value}.${segment}` : `${value}[${celString(segment)}]`
    const reached = found.length === 0 ? '' : `${found.join(' && ')} && `
    missing.push(`(${reached}type(${value}) == map && !(${celString(segment)} in ${value}))`)
    found.push(`type(${value}) == map && ${celString(segment)} in ${value}`)
    value = at
  }
  return { value, found: found.length === 0 ? 'true' : found.join(' && '), missing: missing.length === 0 ? 'false' : missing.join(' || ') }
}

/** Equals with plain text: the key is that very string (a default, different from it, never is). */
function equalsIn(key: Key, text: string): Judged {
  const steps = walk(key)
  const holds = `${steps.found} && type(${steps.value}) == string && ${steps.value} == ${celString(text)}`
  return { errs: key.fallback === undefined ? steps.missing : 'false', holds }
}

/**
 * NotEquals: Kyverno answers false for a null key; with a default the key is never null (a falsy
 * value gives the default, which differs from the text), so only the text itself is unequal.
 */
function notEqualsIn(key: Key, text: string): Judged {
  const steps = walk(key)
  const equal = `${steps.found} && type(${steps.value}) == string && ${steps.value} == ${celString(text)}`
  if (key.fallback !== undefined) return { errs: 'false', holds: `!(${equal})` }
  return { errs: steps.missing, holds: `${steps.found} && ${steps.value} != null && !(type(${steps.value}) == string && ${steps.value} == ${celString(text)})` }
}

/** What `request.object` reads: Kyverno reads it as request.oldObject in a DELETE request's variables. */
const REQUEST_OBJECT = 'requestObject'

function withRequestObject(expression: string): string {
  return expression.includes(REQUEST_OBJECT) ? `cel.bind(${REQUEST_OBJECT}, request.operation == 'DELETE' ? oldObject : object, ${expression})` : expression
}

/** Words CEL reserves: a field of that name is read with brackets. */
const CEL_RESERVED = new Set(['as', 'break', 'const', 'continue', 'else', 'false', 'for', 'function', 'if', 'import', 'in', 'let', 'loop', 'package', 'namespace', 'null', 'return', 'true', 'var', 'void', 'while'])

function celString(text: string): string {
  return `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`
}

/** Whether a value is a Kyverno conditions block that constrains anything. */
export function hasConditions(value: unknown): boolean {
  if (!isObject(value)) return false
  return [value.any, value.all].some((list) => Array.isArray(list) && list.length > 0)
}
