// Just enough DER (X.690) to write one self-signed X.509 certificate: Node can sign and parse
// certificates but has no API to build one, and a dependency for ~80 lines is not worth it.

export function tlv(tag: number, content: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag]), encodeLength(content.length), content])
}

function encodeLength(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length])
  const bytes: number[] = []
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256)
  return Buffer.from([0x80 | bytes.length, ...bytes])
}

export function sequence(...items: Buffer[]): Buffer {
  return tlv(0x30, Buffer.concat(items))
}

export function set(...items: Buffer[]): Buffer {
  return tlv(0x31, Buffer.concat(items))
}

export function boolean(value: boolean): Buffer {
  return tlv(0x01, Buffer.from([value ? 0xff : 0x00]))
}

/** A non-negative integer from its big-endian bytes, minimally encoded (a 0x00 keeps it positive). */
export function unsignedInteger(bytes: Buffer): Buffer {
  let start = 0
  while (start < bytes.length - 1 && bytes[start] === 0) start += 1
  const trimmed = bytes.subarray(start)
  const needsPad = trimmed.length === 0 || (trimmed[0] as number) >= 0x80
  return tlv(0x02, needsPad ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed)
}

export function smallInteger(value: number): Buffer {
  return unsignedInteger(Buffer.from([value]))
}

export function objectIdentifier(dotted: string): Buffer {
  const [first, second, ...rest] = dotted.split('.').map(Number)
  if (first === undefined || second === undefined) throw new Error(`not an object identifier: ${dotted}`)
  const bytes = [first * 40 + second]
  for (const arc of rest) {
    const groups = [arc & 0x7f]
    for (let value = Math.floor(arc / 128); value > 0; value = Math.floor(value / 128)) groups.unshift((value & 0x7f) | 0x80)
    bytes.push(...groups)
  }
  return tlv(0x06, Buffer.from(bytes))
}

export function utf8String(text: string): Buffer {
  return tlv(0x0c, Buffer.from(text, 'utf8'))
}

export function octetString(bytes: Buffer): Buffer {
  return tlv(0x04, bytes)
}

export function bitString(bytes: Buffer, unusedBits = 0): Buffer {
  return tlv(0x03, Buffer.concat([Buffer.from([unusedBits]), bytes]))
}

/** RFC 5280: UTCTime through 2049, GeneralizedTime from 2050, always UTC to the second. */
export function time(date: Date): Buffer {
  const iso = date.toISOString()
  const digits = `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`
  return date.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(digits.slice(2), 'ascii')) : tlv(0x18, Buffer.from(digits, 'ascii'))
}

/** `[n] EXPLICIT`: a constructed context-specific wrapper around one encoded value. */
export function explicit(tagNumber: number, content: Buffer): Buffer {
  return tlv(0xa0 | tagNumber, content)
}

/** `[n] IMPLICIT` for a primitive value: its bytes under a context-specific tag. */
export function implicitPrimitive(tagNumber: number, bytes: Buffer): Buffer {
  return tlv(0x80 | tagNumber, bytes)
}
