import { X509Certificate, createPrivateKey, randomBytes } from 'node:crypto'
import { mkdir, open, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

export interface GeneratedCertificate {
  certFile: string
  keyFile: string
  /** False when a pair generated earlier (by an earlier start or another process) is served. */
  created: boolean
}

export interface GeneratedCertificateOptions {
  dnsNames: readonly string[]
  ipAddresses: readonly string[]
  now?: Date
}

const VALID_DAYS = 365
/** A pair this close to expiry is replaced at start rather than left to run out. */
const RENEW_BEFORE_DAYS = 30
/** A lock older than this was left by a process that died while generating. */
const STALE_LOCK_MS = 10_000
const GIVE_UP_MS = 30_000

/**
 * The self-signed pair under `dir` (`tls.crt`, `tls.key`, as a Kubernetes TLS Secret names them),
 * made on first use and kept across restarts, so a caBundle copied from it stays valid: it is
 * replaced only when missing, unreadable, near expiry or lacking one of the names.
 * Processes starting together on one directory (test workers, replicas on one volume) take turns
 * through a lock file, or one's key could end up beside another's certificate.
 */
export async function ensureGeneratedCertificate(dir: string, options: GeneratedCertificateOptions): Promise<GeneratedCertificate> {
  const certFile = join(dir, 'tls.crt')
  const keyFile = join(dir, 'tls.key')
  const now = options.now ?? new Date()
  if (await stillGood(certFile, keyFile, options, now)) return { certFile, keyFile, created: false }
  await mkdir(dir, { recursive: true, mode: 0o700 })
  const lock = join(dir, '.generating')
  const deadline = Date.now() + GIVE_UP_MS
  for (;;) {
    const release = await tryLock(lock)
    if (release) {
      try {
        if (await stillGood(certFile, keyFile, options, now)) return { certFile, keyFile, created: false }
        // @peculiar/x509 and what it needs (tsyringe, reflect-metadata, asn1js: about 3 MB of heap)
        // are loaded only to make a pair, not by a start that finds one.
        const { createSelfSignedCertificate } = await import('./self-signed-certificate.js')
        const pair = await createSelfSignedCertificate({ commonName: 'verdict-webhook', dnsNames: options.dnsNames, ipAddresses: options.ipAddresses, validDays: VALID_DAYS, now })
        await writeAtomically(keyFile, pair.keyPem, 0o600)
        await writeAtomically(certFile, pair.certPem, 0o644)
        return { certFile, keyFile, created: true }
      } finally {
        await release()
      }
    }
    if (await stillGood(certFile, keyFile, options, now)) return { certFile, keyFile, created: false }
    if (Date.now() > deadline) throw new Error(`could not generate the webhook certificate under ${dir}: ${lock} stays locked`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** Creates the lock file, or undefined when another holder has it; a stale lock is removed first. */
async function tryLock(lock: string): Promise<(() => Promise<void>) | undefined> {
  try {
    await (await open(lock, 'wx')).close()
    return () => unlink(lock).catch(() => {})
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
  const held = await stat(lock).catch(() => undefined)
  if (held && Date.now() - held.mtimeMs > STALE_LOCK_MS) await unlink(lock).catch(() => {})
  return undefined
}

async function stillGood(certFile: string, keyFile: string, options: GeneratedCertificateOptions, now: Date): Promise<boolean> {
  try {
    const certificate = new X509Certificate(await readFile(certFile))
    if (!certificate.checkPrivateKey(createPrivateKey(await readFile(keyFile)))) return false
    if (new Date(certificate.validTo).getTime() - now.getTime() < RENEW_BEFORE_DAYS * 86_400_000) return false
    const names = new Set((certificate.subjectAltName ?? '').split(', '))
    return options.dnsNames.every((dns) => names.has(`DNS:${dns}`))
  } catch {
    return false
  }
}

/** By rename, so a reader never sees half a file; a random name, as worker threads share the pid. */
async function writeAtomically(file: string, content: string, mode: number): Promise<void> {
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`
  await writeFile(temporary, content, { mode })
  await rename(temporary, file)
}
