import { joinGoPath } from '../go-path.js'

/**
 * The paths Kyverno's substitution keeps while it walks a document ("/spec/containers/0/image",
 * a key's "/" written "\/"), and what it derives from them: the JMESPath `{{@}}` stands for
 * (pkg/utils/jsonpointer) and the anchor-free form `$(...)` references compare against
 * (pkg/engine/anchor).
 */

/** The path of `key` under `parent`, as Kyverno's traversal writes it. */
export function childPath(parent: string, key: string | number): string {
  return `${parent}/${typeof key === 'number' ? key : key.replaceAll('/', '\\/')}`
}

/** jsonpointer.ParsePath: components split on '/', with '\' escaping and '"' quoting. */
export function parsePath(path: string): string[] {
  const components: string[] = []
  let current = ''
  let escaped = false
  let quoted = false
  const flush = (): void => {
    if (current !== '') components.push(current)
    current = ''
  }
  for (const char of path) {
    if (escaped) {
      current += char
      escaped = false
    } else if (char === '\\') escaped = true
    else if (char === '"') quoted = !quoted
    else if (char === '/' && !quoted) flush()
    else current += char
  }
  flush()
  return components
}

const UNQUOTED_FIRST = /^[(A-Z_a-z]$/
const UNQUOTED_REST = /^[)0-9A-Z_a-z]*$/
const ESCAPES: Readonly<Record<string, string>> = { '"': '\\"', '\\': '\\\\', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' }

/** Pointer.JMESPath(): `a.b[0]."c-d"`. */
export function pointerToJmespath(components: readonly string[]): string {
  let out = ''
  for (const component of components) {
    if (/^[0-9]+$/.test(component) && BigInt(component) < 2n ** 64n) {
      out += `[${component}]`
      continue
    }
    if (out !== '') out += '.'
    if (UNQUOTED_FIRST.test(component.slice(0, 1)) && UNQUOTED_REST.test(component.slice(1))) {
      out += component
      continue
    }
    out += '"'
    for (const char of component) {
      const code = char.codePointAt(0) as number
      const escape = Object.hasOwn(ESCAPES, char) ? ESCAPES[char] : undefined
      if (escape !== undefined) out += escape
      else if (code < 0x20) out += `\\u${code.toString(16).padStart(4, '0')}`
      else out += char
    }
    out += '"'
  }
  return out
}

/**
 * The expression `{{@}}` stands for at `path`: the path after any "foreach" component, minus its
 * first two components (Kyverno expects paths such as /validate/pattern/...), under `prefix`.
 */
export function currentValueExpression(path: string, prefix: string): string {
  let components = parsePath(path)
  components = components.slice(components.indexOf('foreach') + 1)
  components = components.length > 2 ? components.slice(2) : []
  return pointerToJmespath([...prefix.split('.'), ...components])
}

const ANCHOR = /^([+<=X^])?\((.+)\)$/

/** anchor.RemoveAnchorsFromPath: "/(spec)/=(name)" becomes "/spec/name". */
export function removeAnchorsFromPath(path: string): string {
  let parts = path.split('/')
  if (parts[0] === '') parts = parts.slice(1)
  const keys = parts.map((part) => ANCHOR.exec(part.trim())?.[2] ?? part)
  const joined = joinGoPath(...keys)
  return path.startsWith('/') ? `/${joined}` : joined
}
