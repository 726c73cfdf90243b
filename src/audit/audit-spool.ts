import { open, mkdir, readdir, rm, stat, appendFile, type FileHandle } from 'node:fs/promises'
import { join } from 'node:path'
import type { AuditRows } from '../store/audits-repository.js'
import { decodeSpoolRecord, encodeSpoolRecord } from './spool-record.js'

export interface AuditSpoolOptions {
  /** The spool's own directory (created if missing). */
  dir: string
  /** Most bytes the spool holds; an append beyond it fails with SpoolFullError. Default 1 GiB. */
  maxBytes?: number
  /** A segment file is closed for appends past this size; default 8 MiB. */
  segmentBytes?: number
  /** Told of each record skipped on reading (damaged on disk); it is kept in `rejected.log`. */
  onDamagedRecord?: (detail: { segment: string; offset: number; reason: string }) => void
}

/** The spool has no room for more audits. */
export class SpoolFullError extends Error {
  constructor(bytes: number, maxBytes: number) {
    super(`the audit spool is full (${bytes} of ${maxBytes} bytes)`)
    this.name = 'SpoolFullError'
  }
}

/** Records read but not yet acknowledged; acknowledge once they are committed to the store. */
export interface SpoolChunk {
  readonly entries: AuditRows[]
  /** The records are stored: the reader moves past them (and deletes a segment it finished). */
  acknowledge(): Promise<void>
  /** The records could not be stored: the next read returns them again. */
  release(): void
}

interface Segment {
  readonly seq: number
  readonly path: string
  /** Bytes known to be on disk (fsync'd) in whole records. */
  size: number
}

interface PendingAppend {
  lines: Buffer[]
  bytes: number
  resolve: () => void
  reject: (error: unknown) => void
}

const SEGMENT_NAME = /^(\d{12})\.log$/
const READ_BYTES = 1024 * 1024

/**
 * The audits the store could not take, on local disk until it can: append-only segment files
 * of one record per line, each append written and fdatasync'd before it resolves (appends that
 * arrive meanwhile share the next fsync), so an evaluation told "spooled" survives a crash of
 * the process. One reader walks the records in order; a segment is deleted once every record in
 * it has been acknowledged, so the spool is empty exactly when no segment file is left.
 *
 * After a crash the last segment may end in a torn record: it is skipped on reading (its
 * append never resolved, so nobody was told it was kept), and appends always start a new
 * segment when the spool opens.
 */
export class AuditSpool {
  readonly dir: string
  readonly #maxBytes: number
  readonly #segmentBytes: number
  readonly #onDamaged: NonNullable<AuditSpoolOptions['onDamagedRecord']>
  readonly #segments: Segment[]
  #active: { segment: Segment; handle: FileHandle } | undefined
  #pending: PendingAppend[] = []
  #flushing: Promise<void> | undefined
  /** Where the reader is: the first segment, this byte offset. */
  #readOffset = 0
  #reading = false
  #closed = false
  #appendWaiters: Array<() => void> = []

  private constructor(options: AuditSpoolOptions, segments: Segment[]) {
    this.dir = options.dir
    this.#maxBytes = options.maxBytes ?? 1024 * 1024 * 1024
    this.#segmentBytes = options.segmentBytes ?? 8 * 1024 * 1024
    this.#onDamaged = options.onDamagedRecord ?? (() => {})
    this.#segments = segments
  }

  static async open(options: AuditSpoolOptions): Promise<AuditSpool> {
    await mkdir(options.dir, { recursive: true, mode: 0o700 })
    const segments: Segment[] = []
    for (const name of (await readdir(options.dir)).sort()) {
      const match = SEGMENT_NAME.exec(name)
      if (!match) continue
      const path = join(options.dir, name)
      const { size } = await stat(path)
      if (size === 0) await rm(path, { force: true })
      else segments.push({ seq: Number(match[1]), path, size })
    }
    return new AuditSpool(options, segments)
  }

  /** Bytes on disk waiting to be replayed. */
  get bytes(): number {
    return this.#segments.reduce((sum, segment) => sum + segment.size, 0)
  }

  /** Nothing to replay and nothing being appended. */
  get isEmpty(): boolean {
    return this.#segments.length === 0 && this.#pending.length === 0 && this.#flushing === undefined
  }

  /** Resolves once these audits are on disk (fsync'd). Rejects with SpoolFullError when there is no room. */
  append(entries: readonly AuditRows[]): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('the audit spool is closed'))
    const lines = entries.map((rows) => encodeSpoolRecord(rows))
    const bytes = lines.reduce((sum, line) => sum + line.length, 0)
    return new Promise<void>((resolve, reject) => {
      this.#pending.push({ lines, bytes, resolve, reject })
      this.#kickFlush()
    })
  }

  /**
   * Starts a flush unless one runs. `#flushing` is set before the flush can finish and cleared
   * only after it did; an append that arrived between the flush's last look at the queue and
   * that moment starts the next one here.
   */
  #kickFlush(): void {
    if (this.#flushing !== undefined) return
    this.#flushing = this.#flush().finally(() => {
      this.#flushing = undefined
      if (this.#pending.length > 0) return this.#kickFlush()
      const waiters = this.#appendWaiters
      this.#appendWaiters = []
      for (const wake of waiters) wake()
    })
  }

  /** Resolves when the appends in progress have finished (the reader waits on it when it caught up). */
  appended(): Promise<void> {
    if (this.#flushing === undefined && this.#pending.length === 0) return Promise.resolve()
    return new Promise((resolve) => this.#appendWaiters.push(resolve))
  }

  /**
   * The next records in order (up to about `maxBytes` of them, at least one), or undefined when
   * every durable record has been read. One chunk at a time: the next read waits for its
   * acknowledgement.
   */
  async read(maxBytes = READ_BYTES): Promise<SpoolChunk | undefined> {
    if (this.#reading) throw new Error('the previous spool chunk was not acknowledged')
    for (;;) {
      const segment = this.#segments[0]
      if (segment === undefined) return undefined
      const isActive = this.#active?.segment === segment
      if (this.#readOffset >= segment.size) {
        // Caught up with the segment being appended to: empty unless an append is on its way
        // (one that failed, spool full or disk error, added nothing to wait for).
        if (isActive && (this.#pending.length > 0 || this.#flushing !== undefined)) return undefined
        if (isActive) await this.#retireActive()
        else await this.#dropFirstSegment()
        continue
      }
      const { entries, consumed } = await this.#readRecords(segment, isActive, maxBytes)
      if (entries.length === 0 && consumed === 0) {
        // Only a torn tail is left in a closed segment: nothing in it was ever acknowledged to anyone.
        await this.#dropFirstSegment()
        continue
      }
      if (entries.length === 0) {
        // Only damaged records in this stretch: skip them and read on.
        this.#readOffset += consumed
        continue
      }
      this.#reading = true
      const offset = this.#readOffset
      return {
        entries,
        acknowledge: async () => {
          this.#reading = false
          if (this.#segments[0] !== segment || this.#readOffset !== offset) return
          this.#readOffset += consumed
          if (this.#readOffset >= segment.size && this.#active?.segment !== segment) await this.#dropFirstSegment()
          else if (this.#readOffset >= segment.size && this.#pending.length === 0 && this.#flushing === undefined) await this.#retireActive()
        },
        release: () => {
          this.#reading = false
        },
      }
    }
  }

  /** Finishes the appends in progress and closes the file; what is on disk stays for the next start. */
  async close(): Promise<void> {
    this.#closed = true
    await this.#flushing
    await this.#active?.handle.close()
    this.#active = undefined
  }

  async #readRecords(segment: Segment, isActive: boolean, maxBytes: number): Promise<{ entries: AuditRows[]; consumed: number }> {
    const end = segment.size
    const handle = await open(segment.path, 'r')
    try {
      let length = Math.min(maxBytes, end - this.#readOffset)
      for (;;) {
        const buffer = Buffer.allocUnsafe(length)
        const { bytesRead } = await handle.read(buffer, 0, length, this.#readOffset)
        const data = buffer.subarray(0, bytesRead)
        const lastNewline = data.lastIndexOf(0x0a)
        if (lastNewline === -1) {
          // One record longer than the read: read the rest of the segment, or it is a torn tail.
          if (this.#readOffset + length < end) {
            length = end - this.#readOffset
            continue
          }
          if (!isActive) this.#damaged(segment, this.#readOffset, data, 'torn record at the end of a segment')
          return { entries: [], consumed: 0 }
        }
        const entries: AuditRows[] = []
        let start = 0
        while (start <= lastNewline) {
          const newline = data.indexOf(0x0a, start)
          const line = data.subarray(start, newline)
          const decoded = decodeSpoolRecord(line)
          if (decoded.ok) entries.push(decoded.rows)
          else this.#damaged(segment, this.#readOffset + start, line, decoded.reason)
          start = newline + 1
        }
        return { entries, consumed: lastNewline + 1 }
      }
    } finally {
      await handle.close()
    }
  }

  #damaged(segment: Segment, offset: number, line: Buffer, reason: string): void {
    this.#onDamaged({ segment: segment.path, offset, reason })
    // Kept for a human to look at; the spool itself moves past it.
    void appendFile(join(this.dir, 'rejected.log'), Buffer.concat([line, Buffer.from('\n')])).catch(() => {})
  }

  async #dropFirstSegment(): Promise<void> {
    const segment = this.#segments.shift()
    this.#readOffset = 0
    if (segment) await rm(segment.path, { force: true })
    await this.#syncDir()
  }

  /** The reader has caught up with the active segment and nothing is being appended: the spool is empty. */
  async #retireActive(): Promise<void> {
    const active = this.#active
    if (!active || this.#segments[0] !== active.segment) return
    this.#active = undefined
    await active.handle.close()
    await this.#dropFirstSegment()
  }

  async #flush(): Promise<void> {
    // Appends made in this turn of the event loop join the first write.
    await Promise.resolve()
    while (this.#pending.length > 0) {
      const batch = this.#pending
      this.#pending = []
      const accepted: PendingAppend[] = []
      let bytes = this.bytes
      for (const pending of batch) {
        if (bytes + pending.bytes > this.#maxBytes) pending.reject(new SpoolFullError(bytes, this.#maxBytes))
        else {
          accepted.push(pending)
          bytes += pending.bytes
        }
      }
      if (accepted.length === 0) continue
      try {
        await this.#write(Buffer.concat(accepted.flatMap((pending) => pending.lines)))
        for (const pending of accepted) pending.resolve()
      } catch (error) {
        for (const pending of accepted) pending.reject(error)
      }
    }
  }

  async #write(data: Buffer): Promise<void> {
    const active = await this.#activeFor(data.length)
    const before = active.segment.size
    try {
      let written = 0
      while (written < data.length) {
        const { bytesWritten } = await active.handle.write(data, written, data.length - written, before + written)
        written += bytesWritten
      }
      await active.handle.datasync()
      active.segment.size = before + data.length
    } catch (error) {
      // A half-written append must not stay in front of the next one: cut it off, or give up the segment.
      try {
        await active.handle.truncate(before)
      } catch {
        this.#active = undefined
        await active.handle.close().catch(() => {})
      }
      throw error
    }
  }

  async #activeFor(bytes: number): Promise<{ segment: Segment; handle: FileHandle }> {
    const current = this.#active
    if (current && (current.segment.size === 0 || current.segment.size + bytes <= this.#segmentBytes)) return current
    if (current) {
      this.#active = undefined
      await current.handle.close()
    }
    const seq = (this.#segments.at(-1)?.seq ?? 0) + 1
    const path = join(this.dir, `${String(seq).padStart(12, '0')}.log`)
    const handle = await open(path, 'wx', 0o600)
    const segment: Segment = { seq, path, size: 0 }
    this.#segments.push(segment)
    this.#active = { segment, handle }
    // The new file's name must survive a crash as well as its contents.
    await this.#syncDir()
    return this.#active
  }

  async #syncDir(): Promise<void> {
    const handle = await open(this.dir, 'r')
    try {
      await handle.sync()
    } finally {
      await handle.close()
    }
  }
}
