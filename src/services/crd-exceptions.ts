import type { PolicyException } from '../engine/index.js'
import { canonicalJson } from '../k8s/canonical-json.js'
import type { Db } from '../store/db.js'
import { announceExceptionChange } from '../store/exception-changes.js'
import { deleteException, getException, insertException, listAllExceptions, replaceException, type ExceptionSource, type StoredException } from '../store/exceptions-repository.js'
import { AlreadyExistsError, NotFoundError } from '../store/store-errors.js'
import type { ExceptionCatalog } from './exception-catalog.js'

export type CrdExceptionWriteResult = { result: 'created' | 'updated' | 'unchanged'; stored: StoredException } | { result: 'conflict'; owner: ExceptionSource }
export type CrdExceptionDeleteResult = { result: 'deleted' | 'absent' } | { result: 'not-owned'; owner: ExceptionSource }

const STAMP_FIELDS = new Set(['name', 'version', 'source', 'createdAt', 'createdBy', 'updatedAt', 'updatedBy'])

/**
 * The store side of PolicyException resources, as CrdDefinitions is for rulesets and policies:
 * stored with `source: 'crd'`; one made through the REST API is never overwritten or deleted (a
 * resource of that name is a conflict); the replica writing applies the change at once, the
 * others follow the NOTIFY sent at commit.
 */
export class CrdExceptions {
  readonly #db: Db
  readonly #catalog: ExceptionCatalog
  readonly #by: string

  constructor(db: Db, catalog: ExceptionCatalog, options: { by: string }) {
    this.#db = db
    this.#catalog = catalog
    this.#by = options.by
  }

  async apply(exception: PolicyException): Promise<CrdExceptionWriteResult> {
    const outcome = await this.#db.transaction(async (tx): Promise<CrdExceptionWriteResult> => {
      const current = await getException(tx, exception.name)
      if (current && current.source !== 'crd') return { result: 'conflict', owner: current.source }
      if (current && sameException(current, exception)) return { result: 'unchanged', stored: current }
      const { version: _version, ...spec } = exception
      const record = { ...spec, labels: exception.labels ?? {}, source: 'crd' as const, createdBy: this.#by, updatedBy: this.#by }
      let stored: StoredException
      try {
        stored = current ? await replaceException(tx, record) : await insertException(tx, record)
      } catch (error) {
        // Created through the API between the read and the insert: theirs, so a conflict.
        if (error instanceof AlreadyExistsError) return { result: 'conflict', owner: 'api' }
        throw error
      }
      await announceExceptionChange(tx, { name: exception.name, version: stored.version })
      return { result: current ? 'updated' : 'created', stored }
    })
    if (outcome.result === 'created' || outcome.result === 'updated') await this.#catalog.refresh(exception.name)
    return outcome
  }

  async delete(name: string): Promise<CrdExceptionDeleteResult> {
    const outcome = await this.#db.transaction(async (tx): Promise<CrdExceptionDeleteResult> => {
      const current = await getException(tx, name)
      if (!current) return { result: 'absent' }
      if (current.source !== 'crd') return { result: 'not-owned', owner: current.source }
      try {
        await deleteException(tx, name)
      } catch (error) {
        if (error instanceof NotFoundError) return { result: 'absent' }
        throw error
      }
      await announceExceptionChange(tx, { name, version: 0 })
      return { result: 'deleted' }
    })
    if (outcome.result === 'deleted') await this.#catalog.refresh(name)
    return outcome
  }

  async get(name: string): Promise<StoredException | undefined> {
    return getException(this.#db, name)
  }

  /** Names stored from resources, to find those whose resource went away while no controller ran. */
  async ownedNames(): Promise<string[]> {
    return (await listAllExceptions(this.#db)).filter((exception) => exception.source === 'crd').map((exception) => exception.name)
  }
}

function sameException(stored: StoredException, next: PolicyException): boolean {
  return canonicalJson(withoutStamp(stored)) === canonicalJson(withoutStamp({ ...next, labels: next.labels ?? {} }))
}

function withoutStamp(exception: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(exception).filter(([key, value]) => !STAMP_FIELDS.has(key) && value !== undefined))
}
