import { EvaluationError, type Environment } from '@marcbachmann/cel-js'
import { CelCustomValue } from '../custom-value.js'
import { registerNamespace } from '../namespaces.js'
import { formatAddress, isIPv4Mapped, parseAddress } from './netip.js'

/**
 * Kubernetes' IP library: `ip(s)`, `isIP(s)`, `ip.isCanonical(s)`, `string(ip)`, and the methods
 * family, isUnspecified, isLoopback, isLinkLocalMulticast, isLinkLocalUnicast, isGlobalUnicast,
 * with Go netip's classification. Zones and IPv4-mapped IPv6 addresses are rejected, as Kubernetes
 * rejects them.
 */

export const IP_TYPE = 'net.IP'

export class CelIp extends CelCustomValue {
  readonly celTypeName = IP_TYPE
  readonly bytes: Uint8Array

  constructor(bytes: Uint8Array) {
    super()
    this.bytes = bytes
  }

  get family(): 4 | 6 {
    return this.bytes.length === 4 ? 4 : 6
  }

  isUnspecified(): boolean {
    return this.bytes.every((b) => b === 0)
  }

  isLoopback(): boolean {
    const b = this.bytes
    if (b.length === 4) return b[0] === 127
    return b.every((byte, i) => byte === (i === 15 ? 1 : 0))
  }

  isMulticast(): boolean {
    const first = this.bytes[0] as number
    return this.bytes.length === 4 ? (first & 0xf0) === 0xe0 : first === 0xff
  }

  isLinkLocalMulticast(): boolean {
    const b = this.bytes
    if (b.length === 4) return b[0] === 224 && b[1] === 0 && b[2] === 0
    return b[0] === 0xff && ((b[1] as number) & 0x0f) === 0x02
  }

  isLinkLocalUnicast(): boolean {
    const b = this.bytes
    if (b.length === 4) return b[0] === 169 && b[1] === 254
    return b[0] === 0xfe && ((b[1] as number) & 0xc0) === 0x80
  }

  /** Go's rule: anything but unspecified, broadcast, loopback, multicast and link-local unicast. */
  isGlobalUnicast(): boolean {
    if (this.bytes.length === 4 && this.bytes.every((b) => b === 255)) return false
    return !this.isUnspecified() && !this.isLoopback() && !this.isMulticast() && !this.isLinkLocalUnicast()
  }

  celEquals(other: CelCustomValue): boolean {
    return other instanceof CelIp && other.bytes.length === this.bytes.length && other.bytes.every((b, i) => b === this.bytes[i])
  }

  override toString(): string {
    return formatAddress({ bytes: this.bytes, zone: '' })
  }
}

/** Parses an address the way Kubernetes does; throws an Error with its message. */
export function parseIp(text: string): CelIp {
  let address
  try {
    address = parseAddress(text)
  } catch (error) {
    throw new Error(`IP Address ${JSON.stringify(text)} parse error during conversion from string: ${(error as Error).message}`, {
      cause: error,
    })
  }
  if (address.zone !== '') throw new Error(`IP address ${JSON.stringify(text)} with zone value is not allowed`)
  if (isIPv4Mapped(address)) throw new Error(`IPv4-mapped IPv6 address ${JSON.stringify(text)} is not allowed`)
  return new CelIp(address.bytes)
}

export function toIp(text: string): CelIp {
  try {
    return parseIp(text)
  } catch (error) {
    throw new EvaluationError((error as Error).message, undefined, error)
  }
}

function isIp(text: string): boolean {
  try {
    parseIp(text)
    return true
  } catch {
    return false
  }
}

export function registerIpLibrary(env: Environment): void {
  const sync = { async: false }
  const I = IP_TYPE
  env.registerType(I, { ctor: CelIp, fields: {} })
  env.registerOperator(`${I} == ${I}`, (a: CelIp, b: CelIp) => a.celEquals(b))
  env.registerFunction(`ip(string): ${I}`, toIp, sync)
  env.registerFunction('isIP(string): bool', isIp, sync)
  env.registerFunction(`string(${I}): string`, (ip: CelIp) => ip.toString(), sync)
  env.registerFunction(`${I}.family(): int`, (ip: CelIp) => BigInt(ip.family), sync)
  env.registerFunction(`${I}.isUnspecified(): bool`, (ip: CelIp) => ip.isUnspecified(), sync)
  env.registerFunction(`${I}.isLoopback(): bool`, (ip: CelIp) => ip.isLoopback(), sync)
  env.registerFunction(`${I}.isLinkLocalMulticast(): bool`, (ip: CelIp) => ip.isLinkLocalMulticast(), sync)
  env.registerFunction(`${I}.isLinkLocalUnicast(): bool`, (ip: CelIp) => ip.isLinkLocalUnicast(), sync)
  env.registerFunction(`${I}.isGlobalUnicast(): bool`, (ip: CelIp) => ip.isGlobalUnicast(), sync)
  const namespace = registerNamespace(env, 'ip')
  // Canonical when the text is exactly how the address prints (lowercase, shortest form).
  env.registerFunction(`${namespace}.isCanonical(string): bool`, (_ns: unknown, text: string) => toIp(text).toString() === text, sync)
}
