// @peculiar/x509 resolves its parsers through tsyringe, which needs the Reflect metadata API loaded first.
import 'reflect-metadata'
import * as x509 from '@peculiar/x509'
import { randomBytes } from 'node:crypto'

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

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const

/**
 * A P-256 key and a self-signed X.509 v3 certificate for it, made by @peculiar/x509 on Node's
 * WebCrypto: its own CA (it goes into the webhook configuration's caBundle as is) and a TLS server
 * certificate for the given names.
 */
export async function createSelfSignedCertificate(options: SelfSignedOptions): Promise<CertificatePair> {
  // The global Web Crypto (Node's webcrypto), typed as the global one x509's signatures name.
  const crypto = globalThis.crypto
  const keys = await crypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])
  const now = options.now ?? new Date()
  // Positive and without a leading zero byte, as RFC 5280 asks of serial numbers.
  const serial = randomBytes(16)
  serial[0] = ((serial[0] as number) & 0x7f) | 0x40
  const certificate = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: serial.toString('hex'),
      name: [{ CN: [options.commonName] }],
      // An hour back: a peer whose clock runs a little behind must not see a certificate from the future.
      notBefore: new Date(now.getTime() - 60 * 60 * 1000),
      notAfter: new Date(now.getTime() + options.validDays * 86_400_000),
      signingAlgorithm: ALGORITHM,
      keys,
      extensions: [
        new x509.BasicConstraintsExtension(true, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyCertSign, true),
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
        await x509.SubjectKeyIdentifierExtension.create(keys.publicKey, false, crypto),
        new x509.SubjectAlternativeNameExtension([
          ...options.dnsNames.map((value) => ({ type: 'dns' as const, value })),
          ...(options.ipAddresses ?? []).map((value) => ({ type: 'ip' as const, value })),
        ]),
      ],
    },
    crypto,
  )
  const pkcs8 = await crypto.subtle.exportKey('pkcs8', keys.privateKey)
  return { certPem: certificate.toString('pem'), keyPem: x509.PemConverter.encode(pkcs8, 'PRIVATE KEY') }
}
