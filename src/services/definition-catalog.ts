import { CompiledRulesetCache, type CompiledRuleset, type DefinitionProblem } from '../engine/index.js'
import type { Db } from '../store/db.js'
import { getPolicy, listAllPolicies, type StoredPolicy } from '../store/policies-repository.js'
import { getRuleset, listAllRulesets, type StoredRuleset } from '../store/rulesets-repository.js'

import { DEFINITIONS_CHANNEL } from '../store/definition-changes.js'
import { problemsOfStoredPolicy, problemsOfStoredRuleset } from './stored-definition-check.js'

export { DEFINITIONS_CHANNEL }

export interface DefinitionChange {
  kind: 'ruleset' | 'policy'
  name: string
}

type ChangeListener = (change: DefinitionChange) => void

/** A stored definition that fails its schema or does not compile when loaded: kept out of evaluation and reported. */
export interface SetAsideDefinition {
  kind: DefinitionChange['kind']
  name: string
  version: number
  updatedAt: string
  problems: DefinitionProblem[]
}

/**
 * Every ruleset and policy of the store, in memory and compiled, so evaluation and admission never
 * wait on the database. Changes made by any replica arrive by NOTIFY; the replica that made a
 * change applies it before answering, so its own clients read their writes.
 */
export class DefinitionCatalog {
  readonly #db: Db
  readonly #rulesets = new Map<string, StoredRuleset>()
  readonly #policies = new Map<string, StoredPolicy>()
  readonly #compiled = new CompiledRulesetCache()
  readonly #listeners = new Set<ChangeListener>()
  readonly #onError: (error: unknown) => void
  readonly #onSetAside: (definition: SetAsideDefinition) => void
  /** By `kind/name`; reported once per version. */
  readonly #setAside = new Map<string, SetAsideDefinition>()
  #unlisten: (() => Promise<void>) | undefined
  #resync: NodeJS.Timeout | undefined

  constructor(db: Db, options: { onError?: (error: unknown) => void; onSetAside?: (definition: SetAsideDefinition) => void } = {}) {
    this.#db = db
    this.#onError = options.onError ?? (() => {})
    this.#onSetAside = options.onSetAside ?? (() => {})
  }

  /** Stored definitions that failed their schema or did not compile when loaded, so evaluation does not see them. */
  setAside(): SetAsideDefinition[] {
    return [...this.#setAside.values()].sort((a, b) => a.kind.localeCompare(b.kind) || a.name.localeCompare(b.name))
  }

  /** True when the definition may be served; otherwise it is recorded (and reported the first time) as set aside. */
  #admit(kind: DefinitionChange['kind'], definition: StoredRuleset | StoredPolicy): boolean {
    const key = `${kind}/${definition.name}`
    // The minute resync re-reads everything: a definition already judged at this version is not checked (or compiled) again.
    const served = kind === 'ruleset' ? this.#rulesets.get(definition.name) : this.#policies.get(definition.name)
    if (served && sameStamp(served, definition)) return true
    const setAside = this.#setAside.get(key)
    if (setAside && setAside.version === definition.version && setAside.updatedAt === definition.updatedAt) return false
    let problems: DefinitionProblem[]
    if (kind === 'ruleset') {
      // Compiled into the cache the evaluations use, so checking it is also its first compile.
      this.#compiled.delete(definition.name)
      problems = problemsOfStoredRuleset(definition as StoredRuleset, (ruleset) => this.#compiled.get(ruleset))
    } else {
      problems = problemsOfStoredPolicy(definition as StoredPolicy)
    }
    if (problems.length === 0) {
      this.#setAside.delete(key)
      return true
    }
    const entry = { kind, name: definition.name, version: definition.version, updatedAt: definition.updatedAt, problems }
    this.#setAside.set(key, entry)
    this.#onSetAside(entry)
    return false
  }

  /** The set-aside record of one definition, if it is set aside. */
  setAsideEntry(kind: DefinitionChange['kind'], name: string): SetAsideDefinition | undefined {
    return this.#setAside.get(`${kind}/${name}`)
  }

  #forget(kind: DefinitionChange['kind'], name: string): void {
    this.#setAside.delete(`${kind}/${name}`)
  }

  /**
   * Loads everything and follows changes. A full resync every minute repairs what a notification
   * lost while the database connection was down would otherwise leave stale.
   */
  async start(resyncMs = 60_000): Promise<void> {
    // Subscribe first: a change committed between the load and the subscription would be missed.
    this.#unlisten = await this.#db.listen(DEFINITIONS_CHANNEL, (payload) => this.#onNotify(payload), {
      // Notifications sent while the listener was reconnecting are lost: reload everything.
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

  /** Replaces the in-memory view with the store's, telling listeners about every difference. */
  async resync(): Promise<void> {
    const storedRulesets = await listAllRulesets(this.#db)
    const storedPolicies = await listAllPolicies(this.#db)
    const stored = new Set([...storedRulesets.map((ruleset) => `ruleset/${ruleset.name}`), ...storedPolicies.map((policy) => `policy/${policy.name}`)])
    for (const entry of this.setAside()) if (!stored.has(`${entry.kind}/${entry.name}`)) this.#forget(entry.kind, entry.name)
    const rulesets = storedRulesets.filter((ruleset) => this.#admit('ruleset', ruleset))
    const policies = storedPolicies.filter((policy) => this.#admit('policy', policy))
    const changes: DefinitionChange[] = []
    syncInto(this.#rulesets, rulesets, 'ruleset', changes)
    syncInto(this.#policies, policies, 'policy', changes)
    for (const change of changes) {
      // A changed ruleset was compiled afresh when admitted; only a removed one leaves the cache here.
      if (change.kind === 'ruleset' && !this.#rulesets.has(change.name)) this.#compiled.delete(change.name)
      for (const listener of this.#listeners) listener(change)
    }
  }

  /** Called with every change applied, local or from another replica (tests wait on it). */
  onChange(listener: ChangeListener): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  ruleset(name: string): StoredRuleset | undefined {
    return this.#rulesets.get(name)
  }

  rulesets(): StoredRuleset[] {
    return [...this.#rulesets.values()].sort((a, b) => a.name.localeCompare(b.name))
  }

  policy(name: string): StoredPolicy | undefined {
    return this.#policies.get(name)
  }

  policies(): StoredPolicy[] {
    return [...this.#policies.values()].sort((a, b) => a.name.localeCompare(b.name))
  }

  compiled(ruleset: StoredRuleset): CompiledRuleset {
    return this.#compiled.get(ruleset)
  }

  /** Re-reads one definition from the store and applies it (or its deletion). */
  async refresh(change: DefinitionChange): Promise<void> {
    // The store is the truth at the time of the read, so out-of-order notifications are harmless.
    if (change.kind === 'ruleset') {
      const ruleset = await getRuleset(this.#db, change.name)
      this.#compiled.delete(change.name)
      if (ruleset && this.#admit('ruleset', ruleset)) this.#rulesets.set(ruleset.name, ruleset)
      else this.#rulesets.delete(change.name)
      if (!ruleset) this.#forget('ruleset', change.name)
    } else {
      const policy = await getPolicy(this.#db, change.name)
      if (policy && this.#admit('policy', policy)) this.#policies.set(policy.name, policy)
      else this.#policies.delete(change.name)
      if (!policy) this.#forget('policy', change.name)
    }
    for (const listener of this.#listeners) listener(change)
  }

  #onNotify(payload: string): void {
    let change: DefinitionChange
    try {
      change = JSON.parse(payload) as DefinitionChange
    } catch {
      return
    }
    if ((change.kind === 'ruleset' || change.kind === 'policy') && typeof change.name === 'string') {
      this.refresh(change).catch(this.#onError)
    }
  }
}

/** A definition deleted and created again restarts at version 1, so the update time tells them apart. */
function syncInto<T extends { name: string; version: number; updatedAt: string }>(
  known: Map<string, T>,
  current: T[],
  kind: DefinitionChange['kind'],
  changes: DefinitionChange[],
): void {
  const names = new Set(current.map((entry) => entry.name))
  for (const name of known.keys()) {
    if (!names.has(name)) {
      known.delete(name)
      changes.push({ kind, name })
    }
  }
  for (const entry of current) {
    const before = known.get(entry.name)
    if (before?.version !== entry.version || before.updatedAt !== entry.updatedAt) {
      known.set(entry.name, entry)
      changes.push({ kind, name: entry.name })
    }
  }
}

function sameStamp(a: { version: number; updatedAt: string }, b: { version: number; updatedAt: string }): boolean {
  return a.version === b.version && a.updatedAt === b.updatedAt
}
