import { EvaluationError, type Environment } from '@marcbachmann/cel-js'
import { charge, stringCost } from '../cost-budget.js'
import { CelCustomValue } from '../custom-value.js'

/**
 * Kubernetes' URL library: `url(s)`, `isURL(s)` and the getters getScheme, getHost, getHostname,
 * getPort, getEscapedPath, getQuery. Kubernetes accepts what Go's url.ParseRequestURI accepts (an
 * absolute URI or an absolute path) and reads components with url.Parse, so this is a port of the
 * relevant part of Go's net/url rather than WHATWG URL, which normalises and accepts other inputs.
 */

export const URL_TYPE = 'kubernetes.URL'

export class CelUrl extends CelCustomValue {
  readonly celTypeName = URL_TYPE
  readonly scheme: string
  readonly opaque: string
  readonly host: string
  /** Unescaped path, and the escaped form as written when it differs from the default escaping. */
  readonly path: string
  readonly rawPath: string
  readonly rawQuery: string
  readonly #text: string

  constructor(parts: { scheme: string; opaque: string; host: string; path: string; rawPath: string; rawQuery: string }, text: string) {
    super()
    this.scheme = parts.scheme
    this.opaque = parts.opaque
    this.host = parts.host
    this.path = parts.path
    this.rawPath = parts.rawPath
    this.rawQuery = parts.rawQuery
    this.#text = text
  }

  hostname(): string {
    return splitHostPort(this.host).host
  }

  port(): string {
    return splitHostPort(this.host).port
  }

  /** Go's URL.EscapedPath. */
  escapedPath(): string {
    if (this.rawPath !== '' && validEncoded(this.rawPath)) {
      const decoded = tryUnescape(this.rawPath, 'path')
      if (decoded === this.path) return this.rawPath
    }
    if (this.path === '*') return '*'
    return escape(this.path, 'path')
  }

  /** Go's URL.Query(): keys and values unescaped, repeated keys collected in order. */
  query(): Map<string, string[]> {
    const result = new Map<string, string[]>()
    for (const part of this.rawQuery.split('&')) {
      // Go ignores empty parts and, since 1.17, parts containing ';'.
      if (part === '' || part.includes(';')) continue
      const eq = part.indexOf('=')
      const key = tryUnescape(eq < 0 ? part : part.slice(0, eq), 'queryComponent')
      const value = tryUnescape(eq < 0 ? '' : part.slice(eq + 1), 'queryComponent')
      if (key === undefined || value === undefined) continue
      const list = result.get(key)
      if (list) list.push(value)
      else result.set(key, [value])
    }
    return result
  }

  celEquals(other: CelCustomValue): boolean {
    return other instanceof CelUrl && other.#text === this.#text
  }

  override toString(): string {
    return this.#text
  }
}

export function registerUrlLibrary(env: Environment): void {
  const sync = { async: false }
  const U = URL_TYPE
  env.registerType(U, { ctor: CelUrl, fields: {} })
  env.registerOperator(`${U} == ${U}`, (a: CelUrl, b: CelUrl) => a.celEquals(b))
  env.registerFunction(`url(string): ${U}`, toUrl, sync)
  env.registerFunction('isURL(string): bool', (s: string) => parseRequestUri(s) !== undefined, sync)
  env.registerFunction(`${U}.getScheme(): string`, (u: CelUrl) => u.scheme, sync)
  env.registerFunction(`${U}.getHost(): string`, (u: CelUrl) => u.host, sync)
  env.registerFunction(`${U}.getHostname(): string`, (u: CelUrl) => u.hostname(), sync)
  env.registerFunction(`${U}.getPort(): string`, (u: CelUrl) => u.port(), sync)
  env.registerFunction(`${U}.getEscapedPath(): string`, (u: CelUrl) => u.escapedPath(), sync)
  env.registerFunction(`${U}.getQuery(): map<string, list<string>>`, (u: CelUrl) => u.query(), sync)
}

function toUrl(text: string): CelUrl {
  // As Kubernetes: validate with ParseRequestURI, then parse with Parse, which handles fragments.
  const problem = parseProblem(text, true)
  if (problem !== undefined) throw new EvaluationError(`URL parse error during conversion from string: parse ${JSON.stringify(text)}: ${problem}`)
  const hash = text.indexOf('#')
  const parsed = parse(hash < 0 ? text : text.slice(0, hash), false, text)
  if (typeof parsed === 'string') throw new EvaluationError(`URL parse error during conversion from string: parse ${JSON.stringify(text)}: ${parsed}`)
  if (hash >= 0 && tryUnescape(text.slice(hash + 1), 'fragment') === undefined) {
    throw new EvaluationError(`URL parse error during conversion from string: parse ${JSON.stringify(text)}: invalid URL escape`)
  }
  return parsed
}

function parseRequestUri(text: string): CelUrl | undefined {
  const parsed = parse(text, true, text)
  return typeof parsed === 'string' ? undefined : parsed
}

function parseProblem(text: string, viaRequest: boolean): string | undefined {
  const parsed = parse(text, viaRequest, text)
  return typeof parsed === 'string' ? parsed : undefined
}

/** Go's url.parse; returns the error text instead of throwing. */
function parse(raw: string, viaRequest: boolean, original: string): CelUrl | string {
  charge(stringCost(raw.length))
  if (hasControlCharacter(raw)) return 'net/url: invalid control character in URL'
  if (raw === '' && viaRequest) return 'empty url'
  const empty = { scheme: '', opaque: '', host: '', path: '', rawPath: '', rawQuery: '' }
  if (raw === '*') return new CelUrl({ ...empty, path: '*' }, original)

  const schemeResult = splitScheme(raw)
  if (typeof schemeResult === 'string') return schemeResult
  const scheme = schemeResult.scheme.toLowerCase()
  let rest = schemeResult.rest
  let rawQuery = ''
  if (rest.endsWith('?') && rest.indexOf('?') === rest.length - 1) rest = rest.slice(0, -1)
  else {
    const q = rest.indexOf('?')
    if (q >= 0) {
      rawQuery = rest.slice(q + 1)
      rest = rest.slice(0, q)
    }
  }

  if (!rest.startsWith('/')) {
    if (scheme !== '') return new CelUrl({ ...empty, scheme, opaque: rest, rawQuery }, original)
    if (viaRequest) return 'invalid URI for request'
    const slash = rest.indexOf('/')
    if ((slash < 0 ? rest : rest.slice(0, slash)).includes(':')) return 'first path segment in URL cannot contain colon'
  }

  let host = ''
  if ((scheme !== '' || (!viaRequest && !rest.startsWith('///'))) && rest.startsWith('//')) {
    let authority = rest.slice(2)
    rest = ''
    const slash = authority.indexOf('/')
    if (slash >= 0) {
      rest = authority.slice(slash)
      authority = authority.slice(0, slash)
    }
    const parsedHost = parseAuthority(authority)
    if (parsedHost.error !== undefined) return parsedHost.error
    host = parsedHost.host
  }

  const path = tryUnescape(rest, 'path')
  if (path === undefined) return 'invalid URL escape'
  const rawPath = escape(path, 'path') === rest ? '' : rest
  return new CelUrl({ scheme, opaque: '', host, path, rawPath, rawQuery }, original)
}

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x20 || code === 0x7f) return true
  }
  return false
}

function splitScheme(raw: string): { scheme: string; rest: string } | string {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i] as string
    if (/[A-Za-z]/.test(c)) continue
    if (/[0-9+\-.]/.test(c)) {
      if (i === 0) return { scheme: '', rest: raw }
      continue
    }
    if (c === ':') {
      if (i === 0) return 'missing protocol scheme'
      return { scheme: raw.slice(0, i), rest: raw.slice(i + 1) }
    }
    return { scheme: '', rest: raw }
  }
  return { scheme: '', rest: raw }
}

function parseAuthority(authority: string): { host: string; error?: undefined } | { host?: undefined; error: string } {
  const at = authority.lastIndexOf('@')
  const host = parseHost(at < 0 ? authority : authority.slice(at + 1))
  if (host.error !== undefined) return host
  if (at >= 0) {
    const userinfo = authority.slice(0, at)
    if (!validUserinfo(userinfo)) return { error: 'net/url: invalid userinfo' }
    for (const part of userinfo.split(':').slice(0, 2)) {
      if (tryUnescape(part, 'userPassword') === undefined) return { error: 'invalid URL escape' }
    }
  }
  return host
}

function parseHost(host: string): { host: string; error?: undefined } | { host?: undefined; error: string } {
  if (host.startsWith('[')) {
    const close = host.lastIndexOf(']')
    if (close < 0) return { error: "missing ']' in host" }
    const colonPort = host.slice(close + 1)
    if (!validOptionalPort(colonPort)) return { error: `invalid port ${JSON.stringify(colonPort)} after host` }
    const zone = host.slice(0, close).indexOf('%25')
    if (zone >= 0) {
      const before = tryUnescape(host.slice(0, zone), 'host')
      const inZone = tryUnescape(host.slice(zone, close), 'zone')
      const after = tryUnescape(host.slice(close), 'host')
      if (before === undefined || inZone === undefined || after === undefined) return { error: 'invalid URL escape' }
      return { host: before + inZone + after }
    }
  } else {
    const colon = host.lastIndexOf(':')
    if (colon >= 0) {
      const colonPort = host.slice(colon)
      if (!validOptionalPort(colonPort)) return { error: `invalid port ${JSON.stringify(colonPort)} after host` }
    }
  }
  const unescaped = tryUnescape(host, 'host')
  return unescaped === undefined ? { error: 'invalid character or escape in host name' } : { host: unescaped }
}

function validOptionalPort(port: string): boolean {
  return port === '' || /^:[0-9]*$/.test(port)
}

function validUserinfo(userinfo: string): boolean {
  return /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/.test(userinfo)
}

function splitHostPort(hostPort: string): { host: string; port: string } {
  let host = hostPort
  let port = ''
  const colon = host.lastIndexOf(':')
  if (colon >= 0 && validOptionalPort(host.slice(colon))) {
    port = host.slice(colon + 1)
    host = host.slice(0, colon)
  }
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1)
  return { host, port }
}

type Encoding = 'path' | 'host' | 'zone' | 'userPassword' | 'queryComponent' | 'fragment'

/** Go's shouldEscape for one ASCII byte. */
function shouldEscape(code: number, mode: Encoding): boolean {
  const c = String.fromCharCode(code)
  if (/[A-Za-z0-9]/.test(c)) return false
  if ((mode === 'host' || mode === 'zone') && `!$&'()*+,;=:[]<>"`.includes(c)) return false
  if ('-_.~'.includes(c)) return false
  if ('$&+,/:;=?@'.includes(c)) {
    switch (mode) {
      case 'userPassword':
        return c === '@' || c === '/' || c === '?' || c === ':'
      case 'queryComponent':
        return true
      case 'fragment':
        return false
      case 'path':
        return c === '?'
      default:
        break
    }
  }
  if (mode === 'fragment' && '!()*'.includes(c)) return false
  return true
}

/** Go's url.unescape; undefined where Go returns an error. */
function tryUnescape(s: string, mode: Encoding): string | undefined {
  const bytes: number[] = []
  let sawPercent = false
  for (let i = 0; i < s.length; ) {
    const code = s.charCodeAt(i)
    if (code === 0x25) {
      const hex = s.slice(i + 1, i + 3)
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) return undefined
      // Go: in a host, %-escapes may only encode non-ASCII bytes, except %25 for zone separators.
      if (mode === 'host' && parseInt(hex[0] as string, 16) < 8 && hex !== '25') return undefined
      if (mode === 'zone') {
        const value = parseInt(hex, 16)
        if (hex !== '25' && value !== 0x20 && shouldEscape(value, 'host')) return undefined
      }
      bytes.push(parseInt(hex, 16))
      sawPercent = true
      i += 3
      continue
    }
    if ((mode === 'host' || mode === 'zone') && code < 0x80 && shouldEscape(code, mode)) return undefined
    if (code === 0x2b && mode === 'queryComponent') {
      bytes.push(0x20)
      i++
      continue
    }
    const char = String.fromCodePoint(s.codePointAt(i) as number)
    for (const byte of Buffer.from(char, 'utf8')) bytes.push(byte)
    i += char.length
  }
  if (!sawPercent && mode !== 'queryComponent') return s
  return Buffer.from(bytes).toString('utf8')
}

/** Go's url.escape. */
function escape(s: string, mode: Encoding): string {
  let out = ''
  for (const byte of Buffer.from(s, 'utf8')) {
    if (byte < 0x80 && !shouldEscape(byte, mode)) out += String.fromCharCode(byte)
    else if (byte === 0x20 && mode === 'queryComponent') out += '+'
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
  }
  return out
}

/** Go's validEncoded for paths. */
function validEncoded(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string
    if (`!$&'()*+,;=:@[]%`.includes(c)) continue
    const code = s.charCodeAt(i)
    if (code >= 0x80 || shouldEscape(code, 'path')) return false
  }
  return true
}
