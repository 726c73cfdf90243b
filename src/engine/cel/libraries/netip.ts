/**
 * IP address parsing and printing with the rules of Go's net/netip, which the Kubernetes IP and
 * CIDR libraries build on: strict dotted-quad IPv4 (no leading zeros), IPv6 with one `::` and an
 * optional trailing dotted quad, canonical printing per RFC 5952.
 */

export interface Address {
  /** 4 bytes for IPv4, 16 for IPv6. */
  readonly bytes: Uint8Array
  readonly zone: string
}

/** Go's netip.ParseAddr; throws an Error with Go's message. */
export function parseAddress(text: string): Address {
  for (const c of text) {
    if (c === '.') return { bytes: parseIPv4(text, text), zone: '' }
    if (c === ':') return parseIPv6(text)
    if (c === '%') throw addressError(text, 'missing IPv6 address')
  }
  throw addressError(text, 'unable to parse IP')
}

function addressError(text: string, reason: string): Error {
  return new Error(`ParseAddr(${JSON.stringify(text)}): ${reason}`)
}

function parseIPv4(part: string, whole: string): Uint8Array {
  const fields = part.split('.')
  if (fields.length !== 4) throw addressError(whole, fields.length < 4 ? 'IPv4 address too short' : 'IPv4 address too long')
  const bytes = new Uint8Array(4)
  fields.forEach((field, i) => {
    if (field === '') throw addressError(whole, 'IPv4 field must have at least one digit')
    if (!/^[0-9]+$/.test(field)) throw addressError(whole, 'unexpected character')
    if (field.length > 1 && field[0] === '0') throw addressError(whole, 'IPv4 field has octet with leading zero')
    const value = Number(field)
    if (value > 255) throw addressError(whole, 'IPv4 field has value >255')
    bytes[i] = value
  })
  return bytes
}

function parseIPv6(text: string): Address {
  let s = text
  let zone = ''
  const percent = s.indexOf('%')
  if (percent >= 0) {
    zone = s.slice(percent + 1)
    s = s.slice(0, percent)
    if (zone === '') throw addressError(text, 'zone must be a non-empty string')
  }
  const bytes = new Uint8Array(16)
  let ellipsis = -1
  if (s.startsWith('::')) {
    ellipsis = 0
    s = s.slice(2)
    if (s === '') return { bytes, zone }
  }
  let i = 0
  while (i < 16) {
    let off = 0
    let acc = 0
    for (; off < s.length; off++) {
      const digit = parseInt(s[off] as string, 16)
      if (Number.isNaN(digit)) break
      if (off > 3) throw addressError(text, 'each group must have 4 or less digits')
      acc = acc * 16 + digit
    }
    if (off === 0) throw addressError(text, 'each colon-separated field must have at least one digit')
    if (s[off] === '.') {
      if (ellipsis < 0 && i !== 12) throw addressError(text, 'embedded IPv4 address must replace the final 2 fields of the address')
      if (i + 4 > 16) throw addressError(text, 'too many hex fields to fit an embedded IPv4 at the end of the address')
      bytes.set(parseIPv4(s, text), i)
      s = ''
      i += 4
      break
    }
    bytes[i] = acc >> 8
    bytes[i + 1] = acc & 0xff
    i += 2
    s = s.slice(off)
    if (s === '') break
    if (s[0] !== ':') throw addressError(text, 'unexpected character, want colon')
    if (s.length === 1) throw addressError(text, 'colon must be followed by more characters')
    s = s.slice(1)
    if (s[0] === ':') {
      if (ellipsis >= 0) throw addressError(text, 'multiple :: in address')
      ellipsis = i
      s = s.slice(1)
      if (s === '') break
    }
  }
  if (s !== '') throw addressError(text, 'trailing garbage after address')
  if (i < 16) {
    if (ellipsis < 0) throw addressError(text, 'address string too short')
    const n = 16 - i
    bytes.copyWithin(ellipsis + n, ellipsis, i)
    bytes.fill(0, ellipsis, ellipsis + n)
  } else if (ellipsis >= 0) {
    throw addressError(text, 'the :: must expand to at least one field of zeros')
  }
  return { bytes, zone }
}

/** ::ffff:a.b.c.d, an IPv4 address carried in IPv6. */
export function isIPv4Mapped(address: Address): boolean {
  const b = address.bytes
  if (b.length !== 16 || b[10] !== 0xff || b[11] !== 0xff) return false
  for (let i = 0; i < 10; i++) if (b[i] !== 0) return false
  return true
}

/** Go's Addr.String(): dotted quad, or RFC 5952 IPv6 (lowercase, longest zero run as `::`). */
export function formatAddress(address: Address): string {
  const b = address.bytes
  if (b.length === 4) return Array.from(b).join('.')
  const groups = Array.from({ length: 8 }, (_, i) => ((b[2 * i] as number) << 8) | (b[2 * i + 1] as number))
  let zeroStart = -1
  let zeroLength = 1
  for (let i = 0; i < 8; i++) {
    let j = i
    while (j < 8 && groups[j] === 0) j++
    if (j - i > zeroLength) {
      zeroStart = i
      zeroLength = j - i
    }
  }
  let out = ''
  for (let i = 0; i < 8; i++) {
    if (i === zeroStart) {
      out += '::'
      i += zeroLength - 1
      continue
    }
    if (i > 0 && !out.endsWith(':')) out += ':'
    out += (groups[i] as number).toString(16)
  }
  return address.zone ? `${out}%${address.zone}` : out
}

/** The first `bits` bits of both addresses are equal (same family assumed). */
export function samePrefix(a: Uint8Array, b: Uint8Array, bits: number): boolean {
  for (let i = 0; i < bits; i++) {
    const mask = 0x80 >> (i % 8)
    if (((a[i >> 3] as number) & mask) !== ((b[i >> 3] as number) & mask)) return false
  }
  return true
}

/** The address with every bit after the first `bits` cleared. */
export function maskBytes(bytes: Uint8Array, bits: number): Uint8Array {
  const out = new Uint8Array(bytes)
  for (let i = bits; i < out.length * 8; i++) out[i >> 3] = (out[i >> 3] as number) & ~(0x80 >> (i % 8))
  return out
}
