import { namesPolicy, namesRuleset, type PolicyExceptionSpec } from '../engine/index.js'
import type { Db } from '../store/db.js'
import { announceExceptionChange } from '../store/exception-changes.js'
import { deleteException, getException, insertException, listAllExceptions, replaceException, type StoredException } from '../store/exceptions-repository.js'
import { AlreadyExistsError, NotFoundError as StoreNotFoundError } from '../store/store-errors.js'
import type { WriteOptions } from './definition-service.js'
import type { ExceptionCatalog } from './exception-catalog.js'
import { parseExceptionBody } from './exception-body.js'
import { ConflictError, NotFoundError } from './service-errors.js'

export type ExceptionState = 'active' | 'expired'

/** An exception as the API shows it: as stored, with its state at the time of the answer. */
export type ExceptionView = StoredException & { state: ExceptionState }

export interface ExceptionFilter {
  /** Exceptions that can let rules of this policy through (its name matches their `policies`, or they name none). */
  policy?: string
  /** Exceptions whose `rules` name this ruleset. */
  ruleset?: string
  state?: ExceptionState
}

/** PolicyExceptions as the REST API creates, replaces, reads, lists and deletes them. */
export class ExceptionService {
  readonly #db: Db
  readonly #catalog: ExceptionCatalog
  readonly #now: () => Date
  readonly #requireExpiry: boolean

  /** `requireExpiry`: refuse an exception without expiresAt (VERDICT_EXCEPTION_REQUIRE_EXPIRY). */
  constructor(db: Db, catalog: ExceptionCatalog, options: { now?: () => Date; requireExpiry?: boolean } = {}) {
    this.#db = db
    this.#catalog = catalog
    this.#now = options.now ?? (() => new Date())
    this.#requireExpiry = options.requireExpiry ?? false
  }

  #parse(name: string, body: unknown): ReturnType<typeof parseExceptionBody> {
    return parseExceptionBody(name, body, 'body', { requireExpiry: this.#requireExpiry })
  }

  async create(name: string, body: unknown, options: WriteOptions): Promise<ExceptionView> {
    const { spec } = this.#parse(name, body)
    const now = this.#now().toISOString()
    const record: StoredException = { ...spec, labels: spec.labels ?? {}, name, version: 1, source: 'api', createdAt: now, createdBy: options.by, updatedAt: now, updatedBy: options.by }
    if (options.dryRun) {
      if (await getException(this.#db, name)) throw exists(name)
      return this.#view(record)
    }
    try {
      await insertException(this.#db, record)
    } catch (error) {
      if (error instanceof AlreadyExistsError) throw exists(name)
      throw error
    }
    await this.#announce(name, record.version)
    return this.#view(record)
  }

  async replace(name: string, body: unknown, options: WriteOptions): Promise<ExceptionView> {
    const { spec } = this.#parse(name, body)
    const stored = await this.#db.transaction(async (tx) => {
      const current = await getException(tx, name)
      if (!current) throw new NotFoundError('exception', name)
      refuseClusterManaged(current)
      const next = this.#replacement(current, spec, options.by)
      if (!options.dryRun) await replaceException(tx, next)
      return next
    })
    if (!options.dryRun) await this.#announce(name, stored.version)
    return this.#view(stored)
  }

  async get(name: string): Promise<ExceptionView> {
    const exception = await getException(this.#db, name)
    if (!exception) throw new NotFoundError('exception', name)
    return this.#view(exception)
  }

  async list(filter: ExceptionFilter): Promise<ExceptionView[]> {
    const now = this.#now()
    return (await listAllExceptions(this.#db))
      .map((exception) => this.#view(exception, now))
      .filter((exception) => filter.state === undefined || exception.state === filter.state)
      .filter((exception) => filter.policy === undefined || namesPolicy(exception, filter.policy))
      .filter((exception) => filter.ruleset === undefined || namesRuleset(exception, filter.ruleset))
  }

  async delete(name: string): Promise<void> {
    const current = await getException(this.#db, name)
    if (current) refuseClusterManaged(current)
    try {
      await deleteException(this.#db, name)
    } catch (error) {
      if (error instanceof StoreNotFoundError) throw new NotFoundError('exception', name)
      throw error
    }
    await this.#announce(name, 0)
  }

  #replacement(current: StoredException, spec: PolicyExceptionSpec, by: string): StoredException {
    return {
      ...spec,
      labels: spec.labels ?? {},
      name: current.name,
      version: current.version + 1,
      source: 'api',
      createdAt: current.createdAt,
      createdBy: current.createdBy,
      updatedAt: this.#now().toISOString(),
      updatedBy: by,
    }
  }

  #view(exception: StoredException, now: Date = this.#now()): ExceptionView {
    const expired = exception.expiresAt !== undefined && Date.parse(exception.expiresAt) <= now.getTime()
    return { ...exception, state: expired ? 'expired' : 'active' }
  }

  async #announce(name: string, version: number): Promise<void> {
    await announceExceptionChange(this.#db, { name, version })
    await this.#catalog.refresh(name)
  }
}

/** An exception the controller made from a PolicyException object: the object in the cluster is the truth. */
function refuseClusterManaged(current: StoredException): void {
  if (current.source !== 'crd') return
  throw new ConflictError('exception managed by Kubernetes', `exception "${current.name}" is managed by the PolicyException resource in the cluster; change or delete it with kubectl`)
}

function exists(name: string): ConflictError {
  return new ConflictError('exception already exists', `exception "${name}" already exists; use PUT to replace it`)
}
