import { createHash, X509Certificate } from 'node:crypto'
import { watch, type FSWatcher } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { createSecureContext } from 'node:tls'
import type { AdmissionLogger } from '../admission-logger.js'

export interface CertificateFiles {
  certFile: string
  keyFile: string
}

export interface KeyPair {
  cert: Buffer
  key: Buffer
}

export interface CertificateReloaderOptions {
  /** How often the files are read and compared, whatever the file system reports; default 5 s. */
  checkEveryMs?: number
  logger: AdmissionLogger
}

/**
 * Serves the newest valid certificate and key found in two files. Kubernetes rotates a mounted
 * Secret by swapping the `..data` symlink of its directory: the files' own mtimes do not change
 * and a watch on the files themselves goes stale, so the directories are watched (for a quick
 * reaction) and the contents compared on a timer (for file systems whose watches miss events).
 * A pair that does not load (a certificate written before its key) is skipped until it does;
 * the previous one keeps serving meanwhile.
 */
export class CertificateReloader {
  readonly #files: CertificateFiles
  readonly #apply: (pair: KeyPair) => void
  readonly #checkEveryMs: number
  readonly #logger: AdmissionLogger
  readonly #watchers: FSWatcher[] = []
  #timer: NodeJS.Timeout | undefined
  #debounce: NodeJS.Timeout | undefined
  #current = ''
  #lastRefused = ''
  #checking: Promise<void> | undefined

  constructor(files: CertificateFiles, apply: (pair: KeyPair) => void, options: CertificateReloaderOptions) {
    this.#files = files
    this.#apply = apply
    this.#checkEveryMs = options.checkEveryMs ?? 5000
    this.#logger = options.logger
  }

  /** Reads the pair once and fails loudly if it is unusable: a webhook without a certificate must not start. */
  async load(): Promise<KeyPair> {
    const pair = await this.#read()
    check(pair)
    this.#current = fingerprint(pair)
    return pair
  }

  /** Follows the files until stop(). */
  start(): void {
    this.#timer = setInterval(() => void this.check(), this.#checkEveryMs)
    this.#timer.unref()
    for (const dir of new Set([dirname(this.#files.certFile), dirname(this.#files.keyFile)])) {
      try {
        const watcher = watch(dir, () => this.#soon())
        watcher.on('error', () => watcher.close())
        watcher.unref()
        this.#watchers.push(watcher)
      } catch {
        // Some file systems cannot be watched; the timer still notices changes.
      }
    }
  }

  stop(): void {
    clearInterval(this.#timer)
    clearTimeout(this.#debounce)
    for (const watcher of this.#watchers) watcher.close()
    this.#watchers.length = 0
  }

  /** Reloads if the files changed; resolves when done. One check at a time. */
  check(): Promise<void> {
    this.#checking ??= this.#reloadIfChanged().finally(() => {
      this.#checking = undefined
    })
    return this.#checking
  }

  /** A rotation writes several entries in a row: wait for it to settle before reading. */
  #soon(): void {
    clearTimeout(this.#debounce)
    this.#debounce = setTimeout(() => void this.check(), 100)
    this.#debounce.unref()
  }

  async #reloadIfChanged(): Promise<void> {
    let pair: KeyPair
    try {
      pair = await this.#read()
    } catch (error) {
      this.#refuse('unreadable', error)
      return
    }
    const seen = fingerprint(pair)
    if (seen === this.#current) return
    try {
      check(pair)
      this.#apply(pair)
    } catch (error) {
      this.#refuse(seen, error)
      return
    }
    this.#current = seen
    this.#lastRefused = ''
    const certificate = new X509Certificate(pair.cert)
    this.#logger.info({ certFile: this.#files.certFile, validTo: certificate.validTo, fingerprint256: certificate.fingerprint256 }, 'webhook certificate reloaded')
  }

  /** Logged once per distinct bad pair, not on every check while a rotation is half done. */
  #refuse(which: string, error: unknown): void {
    if (which === this.#lastRefused) return
    this.#lastRefused = which
    this.#logger.warn({ err: error, certFile: this.#files.certFile, keyFile: this.#files.keyFile }, 'webhook certificate files not loaded; still serving the previous certificate')
  }

  async #read(): Promise<KeyPair> {
    const [cert, key] = await Promise.all([readFile(this.#files.certFile), readFile(this.#files.keyFile)])
    return { cert, key }
  }
}

/** Throws unless the pair makes a TLS context (parses, and the key belongs to the certificate). */
function check(pair: KeyPair): void {
  createSecureContext({ cert: pair.cert, key: pair.key })
}

function fingerprint(pair: KeyPair): string {
  return createHash('sha256').update(pair.cert).update('\0').update(pair.key).digest('hex')
}
