import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto'
import { isIPv4, isIPv6 } from 'node:net'
import {
  bitString,
  boolean,
  explicit,
  implicitPrimitive,
  objectIdentifier,
  octetString,
  sequence,
  set,
  smallInteger,
  time,
  unsignedInteger,
  utf8String,
} from './der.js'

export interface SelfSignedOptions {
  commonName: string
  /** subjectAltName DNS names: the API server checks the name it dials against these only (not the CN). */
  dnsNames: readonly string[]
  ipAddresses?: readonly string[]
  validDays: number
  now?: Date
}

export interface CertificatePair {
  certPem: string
  keyPem: string
}

const OID = {
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  commonName: '2.5.4.3',
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
}

/**
 * A P-256 key and a self-signed X.509 v3 certificate for it: its own CA (it goes into the
 * webhook configuration's caBundle as is) and a TLS server certificate for the given names.
 */
export function createSelfSignedCertificate(options: SelfSignedOptions): CertificatePair {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
  const spki = publicKey.export({ type: 'spki', format: 'der' })
  const now = options.now ?? new Date()
  // An hour back: a peer whose clock runs a little behind must not see a certificate from the future.
  const notBefore = new Date(now.getTime() - 60 * 60 * 1000)
  const notAfter = new Date(now.getTime() + options.validDays * 86_400_000)
  const serial = randomBytes(16)
  // Positive and without a leading zero byte, as RFC 5280 asks of serial numbers.
  serial[0] = ((serial[0] as number) & 0x7f) | 0x40
  const signatureAlgorithm = sequence(objectIdentifier(OID.ecdsaWithSha256))
  const name = sequence(set(sequence(objectIdentifier(OID.commonName), utf8String(options.commonName))))
  const tbs = sequence(
    explicit(0, smallInteger(2)),
    unsignedInteger(serial),
    signatureAlgorithm,
    name,
    sequence(time(notBefore), time(notAfter)),
    name,
    spki,
    explicit(3, sequence(...extensions(options, spki))),
  )
  const signature = sign('sha256', tbs, privateKey)
  const certificate = sequence(tbs, signatureAlgorithm, bitString(signature))
  return { certPem: toPem('CERTIFICATE', certificate), keyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() }
}

function extensions(options: SelfSignedOptions, spki: Buffer): Buffer[] {
  const altNames = [
    ...options.dnsNames.map((dns) => implicitPrimitive(2, Buffer.from(dns, 'ascii'))),
    ...(options.ipAddresses ?? []).map((ip) => implicitPrimitive(7, ipAddressBytes(ip))),
  ]
  return [
    extension(OID.basicConstraints, true, sequence(boolean(true))),
    // digitalSignature (bit 0) and keyCertSign (bit 5): 0b1000_0100 with its 2 unused trailing bits.
    extension(OID.keyUsage, true, bitString(Buffer.from([0x84]), 2)),
    extension(OID.extKeyUsage, false, sequence(objectIdentifier(OID.serverAuth))),
    extension(OID.subjectKeyIdentifier, false, octetString(createHash('sha1').update(spki).digest())),
    extension(OID.subjectAltName, false, sequence(...altNames)),
  ]
}

function extension(oid: string, critical: boolean, value: Buffer): Buffer {
  return critical ? sequence(objectIdentifier(oid), boolean(true), octetString(value)) : sequence(objectIdentifier(oid), octetString(value))
}

function ipAddressBytes(ip: string): Buffer {
  if (isIPv4(ip)) return Buffer.from(ip.split('.').map(Number))
  if (!isIPv6(ip)) throw new Error(`not an IP address: ${ip}`)
  const [head = '', tail] = ip.split('::')
  const groups = (part: string): number[] => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)))
  const front = groups(head)
  const back = tail === undefined ? [] : groups(tail)
  const all = [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back]
  const bytes = Buffer.alloc(16)
  all.forEach((group, index) => bytes.writeUInt16BE(group, index * 2))
  return bytes
}

function toPem(label: string, der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? []
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`
}
