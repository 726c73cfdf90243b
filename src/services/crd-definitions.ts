import type { Policy, Ruleset } from '../engine/index.js'
import type { Db, Queryable } from '../store/db.js'
import { announceDefinitionChange } from '../store/definition-changes.js'
import type { DefinitionSource } from '../store/definitions-table.js'
import { deletePolicy, getPolicy, insertPolicy, listAllPolicies, replacePolicy, type StoredPolicy } from '../store/policies-repository.js'
import { deleteRuleset, getRuleset, insertRuleset, listAllRulesets, replaceRuleset, type StoredRuleset } from '../store/rulesets-repository.js'
import { AlreadyExistsError, NotFoundError, StillReferencedError } from '../store/store-errors.js'
import type { DefinitionCatalog } from './definition-catalog.js'
import { canonicalJson } from '../k8s/canonical-json.js'

/**
 * The store side of the Kubernetes controller: rulesets and policies that mirror `Ruleset` and
 * `Policy` custom resources, stored with `source: 'crd'`.
 *
 * Ownership: the controller only ever changes or deletes definitions whose source is `crd`. A
 * custom resource named like a definition made through the REST API (or from an instruction) is
 * a conflict: the stored definition is left alone and the conflict is reported in the resource's
 * status, never settled by overwriting someone's work. Deleting the API-made definition (or
 * renaming the resource) resolves it; the controller then takes the name over.
 */
export type CrdWriteResult<T> =
  | { result: 'created' | 'updated' | 'unchanged'; stored: T }
  | { result: 'conflict'; owner: DefinitionSource }

/**
 * A policy naming rulesets that are not stored is not written: evaluating it would report an
 * error for every missing ruleset, which under `action: Deny` denies everything it matches.
 * `stored` is the earlier version still in effect, if any.
 */
export type CrdPolicyWriteResult = CrdWriteResult<StoredPolicy> | { result: 'missing-rulesets'; missing: string[]; stored: StoredPolicy | undefined }

export type CrdDeleteResult =
  | { result: 'deleted' | 'absent' }
  | { result: 'not-owned'; owner: DefinitionSource }
  /** The ruleset stays while policies name it in `rulesets`; retried once they no longer do. */
  | { result: 'referenced'; referencedBy: string[] }

type Kind = 'ruleset' | 'policy'

export class CrdDefinitions {
  readonly #db: Db
  readonly #catalog: DefinitionCatalog
  readonly #by: string

  /** `by` is written to createdBy/updatedBy: the controller replica, as no user is known. */
  constructor(db: Db, catalog: DefinitionCatalog, options: { by: string }) {
    this.#db = db
    this.#catalog = catalog
    this.#by = options.by
  }

  async applyRuleset(ruleset: Ruleset): Promise<CrdWriteResult<StoredRuleset>> {
    const outcome = await this.#db.transaction(async (tx) => {
      const current = await getRuleset(tx, ruleset.name)
      return this.#write(tx, 'ruleset', current, ruleset, {
        insert: (record) => insertRuleset(tx, record),
        replace: (record) => replaceRuleset(tx, record),
      })
    })
    await this.#refreshAfter('ruleset', ruleset.name, outcome)
    return outcome
  }

  async applyPolicy(policy: Policy): Promise<CrdPolicyWriteResult> {
    const outcome = await this.#db.transaction(async (tx): Promise<CrdPolicyWriteResult> => {
      const current = await getPolicy(tx, policy.name)
      if (current && current.source !== 'crd') return { result: 'conflict', owner: current.source }
      const missing: string[] = []
      for (const name of new Set(policy.rulesets ?? [])) {
        if (!(await getRuleset(tx, name))) missing.push(name)
      }
      if (missing.length > 0) return { result: 'missing-rulesets', missing, stored: current }
      return this.#write(tx, 'policy', current, policy, {
        insert: (record) => insertPolicy(tx, record),
        replace: (record) => replacePolicy(tx, record),
      })
    })
    await this.#refreshAfter('policy', policy.name, outcome)
    return outcome
  }

  async deleteRuleset(name: string): Promise<CrdDeleteResult> {
    return this.#delete('ruleset', name, getRuleset, deleteRuleset)
  }

  async deletePolicy(name: string): Promise<CrdDeleteResult> {
    return this.#delete('policy', name, getPolicy, deletePolicy)
  }

  /** Names stored with `source: 'crd'`, to find those whose resource went away while no controller ran. */
  async ownedNames(kind: Kind): Promise<string[]> {
    const all = kind === 'ruleset' ? await listAllRulesets(this.#db) : await listAllPolicies(this.#db)
    return all.filter((definition) => definition.source === 'crd').map((definition) => definition.name)
  }

  async #write<T extends Ruleset | Policy, S extends T & { source: DefinitionSource; version: number }>(
    tx: Queryable,
    kind: Kind,
    current: S | undefined,
    next: T,
    store: { insert(record: T & Stamp): Promise<S>; replace(record: T & Stamp): Promise<S> },
  ): Promise<CrdWriteResult<S>> {
    if (current && current.source !== 'crd') return { result: 'conflict', owner: current.source }
    if (current && sameDefinition(current, next)) return { result: 'unchanged', stored: current }
    const { version: _version, ...spec } = next as T & { version?: number }
    // The spread of a generic spec loses its type; the record is the definition plus the stamp.
    const record = { ...spec, labels: next.labels ?? {}, source: 'crd', createdBy: this.#by, updatedBy: this.#by } as unknown as T & Stamp
    let stored: S
    try {
      stored = current ? await store.replace(record) : await store.insert(record)
    } catch (error) {
      // Created through the API between our read and our insert: theirs, so a conflict.
      if (error instanceof AlreadyExistsError) return { result: 'conflict', owner: 'api' }
      throw error
    }
    // Inside the transaction: every replica hears of it exactly when it commits.
    await announceDefinitionChange(tx, { kind, name: next.name, version: stored.version })
    return { result: current ? 'updated' : 'created', stored }
  }

  async #delete<S extends { source: DefinitionSource }>(
    kind: Kind,
    name: string,
    get: (q: Queryable, name: string) => Promise<S | undefined>,
    remove: (q: Queryable, name: string) => Promise<void>,
  ): Promise<CrdDeleteResult> {
    const outcome = await this.#db.transaction(async (tx): Promise<CrdDeleteResult> => {
      const current = await get(tx, name)
      if (!current) return { result: 'absent' }
      if (current.source !== 'crd') return { result: 'not-owned', owner: current.source }
      try {
        await remove(tx, name)
      } catch (error) {
        if (error instanceof NotFoundError) return { result: 'absent' }
        if (error instanceof StillReferencedError) return { result: 'referenced', referencedBy: error.referencedBy }
        throw error
      }
      await announceDefinitionChange(tx, { kind, name, version: 0 })
      return { result: 'deleted' }
    })
    if (outcome.result === 'deleted') await this.#catalog.refresh({ kind, name })
    return outcome
  }

  /** This replica's catalog applies the change at once; the others follow the NOTIFY. */
  async #refreshAfter(kind: Kind, name: string, outcome: { result: string }): Promise<void> {
    if (outcome.result === 'created' || outcome.result === 'updated') await this.#catalog.refresh({ kind, name })
  }
}

interface Stamp {
  source: DefinitionSource
  createdBy: string
  updatedBy: string
}

const STAMP_FIELDS = new Set(['name', 'version', 'source', 'createdAt', 'createdBy', 'updatedAt', 'updatedBy'])

/** Whether a stored definition already says what the resource says, so nothing is rewritten. */
function sameDefinition(stored: object, next: Ruleset | Policy): boolean {
  return canonicalJson(withoutStamp(stored)) === canonicalJson(withoutStamp({ ...next, labels: next.labels ?? {} }))
}

function withoutStamp(definition: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(definition).filter(([key, value]) => !STAMP_FIELDS.has(key) && value !== undefined))
}
