import { checkExceptionSpec, compileException, ExceptionCompileError, inNameOrder, type CompiledException, type DefinitionProblem, type Exemptions } from '../engine/index.js'
import type { Db } from '../store/db.js'
import { EXCEPTIONS_CHANNEL } from '../store/exception-changes.js'
import { getException, listAllExceptions, type StoredException } from '../store/exceptions-repository.js'

/** A stored exception that fails its checks when loaded (written by another release, or by hand): not applied, reported. */
export interface SetAsideException {
  name: string
  version: number
  problems: DefinitionProblem[]
}

/** An exception added, changed or removed: the policies it named before or after (undefined: any policy, it names rules only). */
export interface ExceptionChange {
  name: string
  policies: readonly string[] | undefined
}

const STAMP_FIELDS = new Set(['name', 'version', 'source', 'createdAt', 'createdBy', 'updatedAt', 'updatedBy'])

/**
 * Every stored PolicyException, compiled and in memory, so evaluation and admission never wait on
 * the database for them. Expired ones are kept: which apply is decided against the evaluation's
 * clock each time (exemptions(now)), so an exception stops at `expiresAt` exactly, everywhere,
 * with nothing to resync. Changes arrive by NOTIFY; the replica that made one applies it before
 * answering; a resync every minute repairs what a lost notification left stale.
 */
export class ExceptionCatalog {
  readonly #db: Db
  readonly #compiled = new Map<string, { stored: StoredException; compiled: CompiledException }>()
  readonly #setAside = new Map<string, SetAsideException>()
  readonly #onError: (error: unknown) => void
  readonly #onSetAside: (exception: SetAsideException) => void
  readonly #listeners = new Set<(change: ExceptionChange) => void>()
  #ordered: readonly CompiledException[] = []
  #unlisten: (() => Promise<void>) | undefined
  #resync: NodeJS.Timeout | undefined

  constructor(db: Db, options: { onError?: (error: unknown) => void; onSetAside?: (exception: SetAsideException) => void } = {}) {
    this.#db = db
    this.#onError = options.onError ?? (() => {})
    this.#onSetAside = options.onSetAside ?? (() => {})
  }

  async start(resyncMs = 60_000): Promise<void> {
    // Subscribe first: a change committed between the load and the subscription would be missed.
    this.#unlisten = await this.#db.listen(EXCEPTIONS_CHANNEL, (payload) => this.#onNotify(payload), {
      onReconnect: () => void this.resync().catch(this.#onError),
    })
    await this.resync()
    this.#resync = setInterval(() => this.resync().catch(this.#onError), resyncMs)
    this.#resync.unref()
  }

  async stop(): Promise<void> {
    clearInterval(this.#resync)
    await this.#unlisten?.()
    this.#unlisten = undefined
  }

  /** What an evaluation at `now` honours: every loaded exception (each checks its own expiry against `now`). */
  exemptions(now: Date): Exemptions {
    return { exceptions: this.#ordered, now }
  }

  /** Called with every change applied, local or from another replica (background scans rescan the policies it names). */
  onChange(listener: (change: ExceptionChange) => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /** Every applied exception as stored, in name order (recommendations read them). */
  stored(): StoredException[] {
    return [...this.#compiled.values()].map((entry) => entry.stored).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  }

  /** Stored exceptions that are not applied because they fail their checks. */
  setAside(): SetAsideException[] {
    return [...this.#setAside.values()]
  }

  async resync(): Promise<void> {
    const stored = await listAllExceptions(this.#db)
    const before = new Map(this.#compiled)
    const names = new Set(stored.map((exception) => exception.name))
    for (const name of [...this.#compiled.keys()]) if (!names.has(name)) this.#compiled.delete(name)
    for (const name of [...this.#setAside.keys()]) if (!names.has(name)) this.#setAside.delete(name)
    for (const exception of stored) this.#load(exception)
    this.#reorder()
    for (const name of new Set([...before.keys(), ...this.#compiled.keys()])) {
      if (before.get(name) !== this.#compiled.get(name)) this.#announce(name, before.get(name)?.compiled)
    }
  }

  /** Re-reads one exception from the store and applies it, or its deletion. */
  async refresh(name: string): Promise<void> {
    const before = this.#compiled.get(name)
    const stored = await getException(this.#db, name)
    if (stored) this.#load(stored)
    else {
      this.#compiled.delete(name)
      this.#setAside.delete(name)
    }
    this.#reorder()
    if (before !== this.#compiled.get(name)) this.#announce(name, before?.compiled)
  }

  #announce(name: string, before: CompiledException | undefined): void {
    const after = this.#compiled.get(name)?.compiled
    // Undefined (any policy) wins: an exception naming rules only may touch every policy.
    const named = [before, after].filter((exception): exception is CompiledException => exception !== undefined)
    const policies = named.some((exception) => exception.policies === undefined) ? undefined : [...new Set(named.flatMap((exception) => exception.policies ?? []))]
    for (const listener of this.#listeners) listener({ name, policies })
  }

  #load(stored: StoredException): void {
    const known = this.#compiled.get(stored.name)
    if (known && known.stored.version === stored.version && known.stored.updatedAt === stored.updatedAt) return
    const problems = checkExceptionSpec(specOf(stored), 'spec')
    if (problems.length === 0) {
      try {
        this.#compiled.set(stored.name, { stored, compiled: compileException(stored) })
        this.#setAside.delete(stored.name)
        return
      } catch (error) {
        if (!(error instanceof ExceptionCompileError)) throw error
        problems.push(...error.problems.map((problem) => ({ path: `spec.${problem.path}`, message: problem.message })))
      }
    }
    this.#compiled.delete(stored.name)
    const entry = { name: stored.name, version: stored.version, problems }
    const before = this.#setAside.get(stored.name)
    this.#setAside.set(stored.name, entry)
    if (before?.version !== stored.version) this.#onSetAside(entry)
  }

  #reorder(): void {
    this.#ordered = inNameOrder([...this.#compiled.values()].map((entry) => entry.compiled))
  }

  #onNotify(payload: string): void {
    let change: { name?: unknown }
    try {
      change = JSON.parse(payload) as { name?: unknown }
    } catch {
      return
    }
    if (typeof change.name === 'string') this.refresh(change.name).catch(this.#onError)
  }
}

function specOf(stored: StoredException): Record<string, unknown> {
  return Object.fromEntries(Object.entries(stored).filter(([key, value]) => !STAMP_FIELDS.has(key) && value !== undefined))
}
