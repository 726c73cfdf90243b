import { X509Certificate, createPrivateKey } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAdmissionServer } from '../../src/admission/admission-server.js'
import { ensureGeneratedCertificate } from '../../src/admission/tls/generated-certificate.js'
import { createSelfSignedCertificate, type CertificatePair } from '../../src/admission/tls/self-signed-certificate.js'
import { recordingLogger, startHarness, type Harness } from './admission-harness.js'
import { httpsRequest, servedCertificate } from './https-client.js'

function fingerprintOf(pem: string): string {
  return new X509Certificate(pem).fingerprint256
}

function pairFor(name: string): Promise<CertificatePair> {
  return createSelfSignedCertificate({ commonName: name, dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'], validDays: 2 })
}

async function eventually(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

describe('the generated self-signed certificate', () => {
  let h: Harness
  beforeAll(async () => {
    h = await startHarness()
  })
  afterAll(async () => {
    await h?.close()
  })

  it('is made under <dataDir>/webhook-tls, logged, valid for the service names, and kept across restarts', async () => {
    const first = await h.start()
    expect(first.certFile).toBe(join(h.dataDir, 'webhook-tls', 'tls.crt'))
    expect(h.logger.lines).toContainEqual({
      level: 'info',
      fields: { certFile: first.certFile, keyFile: join(h.dataDir, 'webhook-tls', 'tls.key') },
      message: 'no VERDICT_TLS_CERT_FILE: generated a self-signed webhook certificate; use it as the caBundle of the webhook configuration',
    })
    const certificate = new X509Certificate(readFileSync(first.certFile))
    expect(certificate.subjectAltName?.split(', ')).toEqual([
      'DNS:localhost',
      'DNS:verdict',
      'DNS:verdict.verdict',
      'DNS:verdict.verdict.svc',
      'DNS:verdict.verdict.svc.cluster.local',
      'IP Address:127.0.0.1',
      'IP Address:0:0:0:0:0:0:0:1',
    ])
    expect(certificate.ca).toBe(true)
    expect(certificate.verify(certificate.publicKey)).toBe(true)
    // A TLS server certificate (extended key usage serverAuth), on a P-256 key, from an hour ago.
    expect(certificate.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1'])
    expect(certificate.publicKey.asymmetricKeyDetails).toEqual({ namedCurve: 'prime256v1' })
    expect(Date.now() - Date.parse(certificate.validFrom)).toBeGreaterThan(59 * 60 * 1000)
    expect(statSync(join(h.dataDir, 'webhook-tls', 'tls.key')).mode & 0o777).toBe(0o600)
    // Verified TLS: the generated certificate is its own CA, as in a caBundle.
    expect((await httpsRequest(first.target, 'GET', '/healthz')).status).toBe(200)

    const second = await h.start()
    expect(fingerprintOf(readFileSync(second.certFile, 'utf8'))).toBe(certificate.fingerprint256)
    expect(h.logger.lines.at(-2)?.message).toBe('no VERDICT_TLS_CERT_FILE: serving the self-signed webhook certificate generated earlier')
  })

  it('is replaced when close to expiry or missing a name', async () => {
    const dir = join(h.dataDir, 'renewal')
    const options = { dnsNames: ['localhost'], ipAddresses: [] }
    const made = await ensureGeneratedCertificate(dir, options)
    const original = fingerprintOf(readFileSync(made.certFile, 'utf8'))
    expect(made.created).toBe(true)
    expect((await ensureGeneratedCertificate(dir, options)).created).toBe(false)
    const later = await ensureGeneratedCertificate(dir, { ...options, now: new Date(Date.now() + 340 * 86_400_000) })
    expect(later.created).toBe(true)
    expect(fingerprintOf(readFileSync(made.certFile, 'utf8'))).not.toBe(original)
    expect((await ensureGeneratedCertificate(dir, { ...options, dnsNames: ['localhost', 'verdict-webhook'] })).created).toBe(true)
  })
})

describe('certificate files, rotated as Kubernetes rotates a mounted Secret', () => {
  let dir: string
  let h: Harness
  beforeAll(async () => {
    h = await startHarness()
    dir = mkdtempSync(join(tmpdir(), 'verdict-webhook-secret-'))
  })
  afterAll(async () => {
    await h?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  /** The kubelet's layout: `tls.crt -> ..data/tls.crt`, `..data -> ..<version>`; a rotation swaps `..data` in one rename. */
  function publish(version: string, cert: string, key: string): void {
    mkdirSync(join(dir, version))
    writeFileSync(join(dir, version, 'tls.crt'), cert)
    writeFileSync(join(dir, version, 'tls.key'), key)
    symlinkSync(version, join(dir, '..data_tmp'))
    renameSync(join(dir, '..data_tmp'), join(dir, '..data'))
  }

  it('serves the files and follows a rotation, keeping the old pair while a new one does not load', async () => {
    const first = await pairFor('first')
    publish('..v1', first.certPem, first.keyPem)
    symlinkSync('..data/tls.crt', join(dir, 'tls.crt'))
    symlinkSync('..data/tls.key', join(dir, 'tls.key'))
    const logger = recordingLogger()
    const server = await h.start({
      config: { webhookPort: 0, dataDir: h.dataDir, podNamespace: 'verdict', tlsCertFile: join(dir, 'tls.crt'), tlsKeyFile: join(dir, 'tls.key') },
      certificateCheckMs: 200,
      logger,
    })
    expect(server.certFile).toBe(join(dir, 'tls.crt'))
    expect((await servedCertificate(server.port)).fingerprint256).toBe(fingerprintOf(first.certPem))

    const second = await pairFor('second')
    publish('..v2', second.certPem, second.keyPem)
    await eventually(async () => (await servedCertificate(server.port)).fingerprint256 === fingerprintOf(second.certPem))
    expect(logger.lines.some((line) => line.message === 'webhook certificate reloaded')).toBe(true)

    // A certificate whose key is another's: refused, logged once, the second pair keeps serving.
    publish('..v3', (await pairFor('third')).certPem, (await pairFor('other')).keyPem)
    await eventually(async () => logger.lines.some((line) => line.level === 'warn'))
    expect((await servedCertificate(server.port)).fingerprint256).toBe(fingerprintOf(second.certPem))
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(logger.lines.filter((line) => line.level === 'warn')).toHaveLength(1)
  })

  it('refuses to start on a pair that does not load', async () => {
    const broken = join(dir, 'broken')
    mkdirSync(broken)
    writeFileSync(join(broken, 'tls.crt'), (await pairFor('a')).certPem)
    writeFileSync(join(broken, 'tls.key'), (await pairFor('b')).keyPem)
    await expect(
      startAdmissionServer({
        config: { webhookPort: 0, dataDir: h.dataDir, podNamespace: 'verdict', tlsCertFile: join(broken, 'tls.crt'), tlsKeyFile: join(broken, 'tls.key') },
        catalog: h.catalog,
        audits: h.audits,
        namespaces: { get: () => undefined },
        logger: recordingLogger(),
        host: '127.0.0.1',
      }),
    ).rejects.toThrow(/key values mismatch/)
  })
})

describe('generating the certificate from several processes at once', () => {
  it('ends with a matching pair for every one of them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'verdict-webhook-race-'))
    try {
      const made = await Promise.all(Array.from({ length: 6 }, () => ensureGeneratedCertificate(dir, { dnsNames: ['localhost'], ipAddresses: [] })))
      const certificate = new X509Certificate(readFileSync(join(dir, 'tls.crt')))
      expect(certificate.checkPrivateKey(createPrivateKey(readFileSync(join(dir, 'tls.key'))))).toBe(true)
      expect(made.every((entry) => entry.certFile === join(dir, 'tls.crt'))).toBe(true)
      expect(made.filter((entry) => entry.created)).toHaveLength(1)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
