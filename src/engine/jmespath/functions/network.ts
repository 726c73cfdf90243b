import { JmespathError, unsupportedFunction } from '../errors.js'
import { STRING, stringArg, type JmespathFunction } from './function.js'

/**
 * is_external_url(url): whether the URL's host is outside loopback and private networks. Kyverno
 * parses the URL with Go's net/url; for an IP address host it answers from the address (not
 * loopback 127/8 or ::1, not private 10/8, 172.16/12, 192.168/16 or fc00::/7), and for a host
 * name it resolves DNS. Evaluation here is pure and offline, so a host name (or no host, which
 * Kyverno also sends to the resolver and fails on) is an error naming the limitation.
 */

/** Go's url.Parse(raw).Hostname(), for the URL forms Kyverno policies use. */
export function urlHostname(raw: string): string {
  if ([...raw].some((char) => char.charCodeAt(0) < 0x20 || char === '\x7f')) throw new JmespathError(`parse ${JSON.stringify(raw)}: net/url: invalid control character in URL`)
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:/.exec(raw)
  const rest = scheme ? raw.slice(scheme[0].length) : raw
  if (!rest.startsWith('//')) return ''
  const authority = rest.slice(2).split(/[/?#]/, 1)[0] as string
  const host = authority.slice(authority.lastIndexOf('@') + 1)
  if (host.startsWith('[')) {
    const close = host.indexOf(']')
    if (close < 0) throw new JmespathError(`parse ${JSON.stringify(raw)}: missing ']' in host`)
    return host.slice(1, close)
  }
  const colon = host.lastIndexOf(':')
  return colon >= 0 ? host.slice(0, colon) : host
}

function parseIpv4(text: string): number[] | undefined {
  const parts = text.split('.')
  if (parts.length !== 4) return undefined
  const bytes: number[] = []
  for (const part of parts) {
    // Go's ParseIP refuses leading zeros, which some parsers read as octal.
    if (!/^(?:0|[1-9][0-9]{0,2})$/.test(part) || Number(part) > 255) return undefined
    bytes.push(Number(part))
  }
  return bytes
}

function parseIpv6(text: string): number[] | undefined {
  if (!/^[0-9A-Fa-f:.]+$/.test(text)) return undefined
  let head = text
  let tail: number[] = []
  const lastColon = text.lastIndexOf(':')
  if (text.includes('.')) {
    const v4 = parseIpv4(text.slice(lastColon + 1))
    if (v4 === undefined) return undefined
    tail = [(v4[0] as number) * 256 + (v4[1] as number), (v4[2] as number) * 256 + (v4[3] as number)]
    head = text.slice(0, lastColon + 1)
    if (head.endsWith(':') && !head.endsWith('::')) head = head.slice(0, -1)
  }
  const halves = head.split('::')
  if (halves.length > 2) return undefined
  const groups = (half: string): number[] | undefined => {
    if (half === '') return []
    const out: number[] = []
    for (const group of half.split(':')) {
      if (!/^[0-9A-Fa-f]{1,4}$/.test(group)) return undefined
      out.push(parseInt(group, 16))
    }
    return out
  }
  const left = groups(halves[0] as string)
  const right = halves.length === 2 ? groups(halves[1] as string) : []
  if (left === undefined || right === undefined) return undefined
  const known = left.length + right.length + tail.length
  if (halves.length === 1 ? known !== 8 : known > 7) return undefined
  const words = [...left, ...new Array<number>(8 - known).fill(0), ...right, ...tail]
  return words.flatMap((word) => [word >> 8, word & 255])
}

function isInternalIpv4([a, b]: readonly number[]): boolean {
  return a === 127 || a === 10 || (a === 172 && (b as number) >= 16 && (b as number) <= 31) || (a === 192 && b === 168)
}

/** true/false for an IP address host (Go's ParseIP forms); undefined when the host is not one. */
export function isExternalAddress(host: string): boolean | undefined {
  const v4 = parseIpv4(host)
  if (v4) return !isInternalIpv4(v4)
  const v6 = parseIpv6(host)
  if (!v6) return undefined
  const mapped = v6.slice(0, 10).every((b) => b === 0) && v6[10] === 255 && v6[11] === 255
  if (mapped) return !isInternalIpv4(v6.slice(12))
  const loopback = v6.slice(0, 15).every((b) => b === 0) && v6[15] === 1
  const uniqueLocal = ((v6[0] as number) & 0xfe) === 0xfc
  return !(loopback || uniqueLocal)
}

export const NETWORK_FUNCTIONS: readonly JmespathFunction[] = [
  {
    name: 'is_external_url',
    signature: [STRING],
    call: (args) => {
      const host = urlHostname(stringArg(args, 0))
      const external = isExternalAddress(host)
      if (external === undefined) {
        throw unsupportedFunction('is_external_url', `the host ${JSON.stringify(host)} is not an IP address, and resolving names (DNS) is not done during evaluation`)
      }
      return external
    },
  },
]
