import { EvaluationError, type Environment } from '@marcbachmann/cel-js'
import { CelCustomValue } from '../custom-value.js'
import { CelIp, IP_TYPE, toIp } from './ip.js'
import { isIPv4Mapped, maskBytes, parseAddress, samePrefix } from './netip.js'

/**
 * Kubernetes' CIDR library: `cidr(s)`, `isCIDR(s)`, `string(cidr)` and the methods containsIP
 * (IP or string), containsCIDR (CIDR or string), ip, masked and prefixLength, on Go netip.Prefix.
 * As in Kubernetes (and unlike its docs), host bits after the prefix are allowed: `cidr('10.0.0.1/8')`
 * keeps its address, `masked()` clears them.
 */

export const CIDR_TYPE = 'net.CIDR'

export class CelCidr extends CelCustomValue {
  readonly celTypeName = CIDR_TYPE
  readonly address: CelIp
  readonly bits: number

  constructor(address: CelIp, bits: number) {
    super()
    this.address = address
    this.bits = bits
  }

  containsIp(ip: CelIp): boolean {
    return ip.family === this.address.family && samePrefix(this.address.bytes, ip.bytes, this.bits)
  }

  /** Go's Prefix.Overlaps plus "no longer than the other", as Kubernetes defines containsCIDR. */
  containsCidr(other: CelCidr): boolean {
    if (other.address.family !== this.address.family || this.bits > other.bits) return false
    return samePrefix(this.address.bytes, other.address.bytes, this.bits)
  }

  masked(): CelCidr {
    return new CelCidr(new CelIp(maskBytes(this.address.bytes, this.bits)), this.bits)
  }

  celEquals(other: CelCustomValue): boolean {
    return other instanceof CelCidr && other.bits === this.bits && other.address.celEquals(this.address)
  }

  override toString(): string {
    return `${this.address.toString()}/${this.bits}`
  }
}

/** Go's netip.ParsePrefix with Kubernetes' extra rejection of IPv4-mapped addresses. */
export function parseCidr(text: string): CelCidr {
  const fail = (reason: string): never => {
    throw new Error(`network address parse error during conversion from string: netip.ParsePrefix(${JSON.stringify(text)}): ${reason}`)
  }
  const slash = text.lastIndexOf('/')
  if (slash < 0) return fail("no '/'")
  let address
  try {
    address = parseAddress(text.slice(0, slash))
  } catch (error) {
    return fail((error as Error).message)
  }
  if (address.zone !== '') return fail('IPv6 zones cannot be present in a prefix')
  const bitsText = text.slice(slash + 1)
  if (!/^(0|[1-9][0-9]*)$/.test(bitsText)) return fail(`bad bits after slash: ${JSON.stringify(bitsText)}`)
  const bits = Number(bitsText)
  if (bits > address.bytes.length * 8) return fail('prefix length out of range')
  if (isIPv4Mapped(address)) throw new Error(`IPv4-mapped IPv6 address ${JSON.stringify(text)} is not allowed`)
  return new CelCidr(new CelIp(address.bytes), bits)
}

function toCidr(text: string): CelCidr {
  try {
    return parseCidr(text)
  } catch (error) {
    throw new EvaluationError((error as Error).message, undefined, error)
  }
}

function isCidr(text: string): boolean {
  try {
    parseCidr(text)
    return true
  } catch {
    return false
  }
}

export function registerCidrLibrary(env: Environment): void {
  const sync = { async: false }
  const C = CIDR_TYPE
  env.registerType(C, { ctor: CelCidr, fields: {} })
  env.registerOperator(`${C} == ${C}`, (a: CelCidr, b: CelCidr) => a.celEquals(b))
  env.registerFunction(`cidr(string): ${C}`, toCidr, sync)
  env.registerFunction('isCIDR(string): bool', isCidr, sync)
  env.registerFunction(`string(${C}): string`, (cidr: CelCidr) => cidr.toString(), sync)
  env.registerFunction(`${C}.containsIP(${IP_TYPE}): bool`, (cidr: CelCidr, ip: CelIp) => cidr.containsIp(ip), sync)
  env.registerFunction(`${C}.containsIP(string): bool`, (cidr: CelCidr, ip: string) => cidr.containsIp(toIp(ip)), sync)
  env.registerFunction(`${C}.containsCIDR(${C}): bool`, (cidr: CelCidr, other: CelCidr) => cidr.containsCidr(other), sync)
  env.registerFunction(`${C}.containsCIDR(string): bool`, (cidr: CelCidr, other: string) => cidr.containsCidr(toCidr(other)), sync)
  env.registerFunction(`${C}.ip(): ${IP_TYPE}`, (cidr: CelCidr) => cidr.address, sync)
  env.registerFunction(`${C}.masked(): ${C}`, (cidr: CelCidr) => cidr.masked(), sync)
  env.registerFunction(`${C}.prefixLength(): int`, (cidr: CelCidr) => BigInt(cidr.bits), sync)
}
