import type { PolicySpec, RulesetSpec } from '../engine/index.js'
import type { Db, Queryable } from '../store/db.js'
import { announceDefinitionChange } from '../store/definition-changes.js'
import {
  deletePolicy,
  getPolicy,
  insertPolicy,
  listPolicies,
  replacePolicy,
  type StoredPolicy,
} from '../store/policies-repository.js'
import {
  deleteRuleset,
  getRuleset,
  insertRuleset,
  listRulesets,
  replaceRuleset,
  type StoredRuleset,
} from '../store/rulesets-repository.js'
import { AlreadyExistsError, NotFoundError as StoreNotFoundError, StillReferencedError } from '../store/store-errors.js'
import type { DefinitionCatalog } from './definition-catalog.js'
import { parsePolicyBody, parseRulesetBody } from './definition-body.js'
import { isInstructionBody, parseInstructionBody } from './instruction-body.js'
import type { SentenceReading } from '../authoring/understand/requirement.js'
import { RulesetAuthor } from './ruleset-author.js'
import { ConflictError, InvalidRequestError, NotFoundError } from './service-errors.js'

/** How each sentence of an instruction was read: returned when a ruleset is made from one, never stored. */
export interface Interpretation {
  sentences: SentenceReading[]
}

export interface WriteOptions {
  /** The identity written to createdBy/updatedBy. */
  by: string
  /** Check and return the result without storing it. */
  dryRun?: boolean
}

export type LabelFilter = Readonly<Record<string, string>>

/** Rulesets and policies as the REST API creates, replaces, reads and deletes them. */
export class DefinitionService {
  readonly #db: Db
  readonly #catalog: DefinitionCatalog
  readonly #now: () => Date
  readonly #author: RulesetAuthor

  constructor(db: Db, catalog: DefinitionCatalog, options: { now?: () => Date; author?: RulesetAuthor } = {}) {
    this.#db = db
    this.#catalog = catalog
    this.#now = options.now ?? (() => new Date())
    this.#author = options.author ?? new RulesetAuthor()
  }

  /** The spec of a ruleset body: rules as sent, or compiled from `{instruction, labels}`. */
  async #rulesetSpec(name: string, body: unknown): Promise<{ spec: RulesetSpec; source: 'api' | 'instruction'; interpretation?: Interpretation }> {
    if (!isInstructionBody(body)) return { spec: parseRulesetBody(name, body).spec, source: 'api' }
    const instruction = parseInstructionBody(name, body as Record<string, unknown>)
    const { spec, sentences } = await this.#author.specFromInstruction(name, instruction)
    // The generated rules go through the same checks as rules sent by hand.
    return { spec: parseRulesetBody(name, spec).spec, source: 'instruction', interpretation: { sentences } }
  }

  /** The created ruleset; made from an instruction, it also says how each sentence was read (not stored). */
  async createRuleset(name: string, body: unknown, options: WriteOptions): Promise<StoredRuleset & { interpretation?: Interpretation }> {
    const { spec, source, interpretation } = await this.#rulesetSpec(name, body)
    const record = this.#newRecord(name, spec, options.by, source)
    const answer = (stored: StoredRuleset): StoredRuleset & { interpretation?: Interpretation } => (interpretation ? { ...stored, interpretation } : stored)
    if (options.dryRun) {
      if (await getRuleset(this.#db, name)) throw exists('ruleset', name)
      return answer(record)
    }
    try {
      await insertRuleset(this.#db, record)
    } catch (error) {
      if (error instanceof AlreadyExistsError) throw exists('ruleset', name)
      throw error
    }
    await this.#announce('ruleset', name, record.version)
    return answer(record)
  }

  async replaceRuleset(name: string, body: unknown, options: WriteOptions): Promise<StoredRuleset & { interpretation?: Interpretation }> {
    const { spec, source, interpretation } = await this.#rulesetSpec(name, body)
    const stored = await this.#db.transaction(async (tx) => {
      const current = await getRuleset(tx, name)
      if (!current) throw new NotFoundError('ruleset', name)
      refuseClusterManaged('ruleset', current)
      const next = this.#replacement(current, spec, options.by, source)
      if (options.dryRun) return next
      await replaceRuleset(tx, next)
      return next
    })
    if (!options.dryRun) await this.#announce('ruleset', name, stored.version)
    return interpretation ? { ...stored, interpretation } : stored
  }

  async getRuleset(name: string): Promise<StoredRuleset> {
    const ruleset = await getRuleset(this.#db, name)
    if (!ruleset) throw new NotFoundError('ruleset', name)
    return ruleset
  }

  listRulesets(labels: LabelFilter): Promise<StoredRuleset[]> {
    return listRulesets(this.#db, { labels })
  }

  async deleteRuleset(name: string): Promise<void> {
    const current = await getRuleset(this.#db, name)
    if (current) refuseClusterManaged('ruleset', current)
    try {
      await deleteRuleset(this.#db, name)
    } catch (error) {
      if (error instanceof StoreNotFoundError) throw new NotFoundError('ruleset', name)
      if (error instanceof StillReferencedError) {
        throw new ConflictError('ruleset still referenced', `ruleset "${name}" is still referenced by ${plural('policy', 'policies', error.referencedBy)}`)
      }
      throw error
    }
    await this.#announce('ruleset', name, 0)
  }

  async createPolicy(name: string, body: unknown, options: WriteOptions): Promise<StoredPolicy> {
    const { spec, fieldPrefix } = parsePolicyBody(name, body)
    const record = this.#newRecord(name, spec, options.by, 'api')
    await this.#requireRulesets(this.#db, spec, fieldPrefix)
    if (options.dryRun) {
      if (await getPolicy(this.#db, name)) throw exists('policy', name)
      return record
    }
    try {
      await insertPolicy(this.#db, record)
    } catch (error) {
      if (error instanceof AlreadyExistsError) throw exists('policy', name)
      throw error
    }
    await this.#announce('policy', name, record.version)
    return record
  }

  async replacePolicy(name: string, body: unknown, options: WriteOptions): Promise<StoredPolicy> {
    const { spec, fieldPrefix } = parsePolicyBody(name, body)
    const stored = await this.#db.transaction(async (tx) => {
      const current = await getPolicy(tx, name)
      if (!current) throw new NotFoundError('policy', name)
      refuseClusterManaged('policy', current)
      await this.#requireRulesets(tx, spec, fieldPrefix)
      const next = this.#replacement(current, spec, options.by, 'api')
      if (options.dryRun) return next
      await replacePolicy(tx, next)
      return next
    })
    if (!options.dryRun) await this.#announce('policy', name, stored.version)
    return stored
  }

  async getPolicy(name: string): Promise<StoredPolicy> {
    const policy = await getPolicy(this.#db, name)
    if (!policy) throw new NotFoundError('policy', name)
    return policy
  }

  listPolicies(labels: LabelFilter): Promise<StoredPolicy[]> {
    return listPolicies(this.#db, { labels })
  }

  async deletePolicy(name: string): Promise<void> {
    const current = await getPolicy(this.#db, name)
    if (current) refuseClusterManaged('policy', current)
    try {
      await deletePolicy(this.#db, name)
    } catch (error) {
      if (error instanceof StoreNotFoundError) throw new NotFoundError('policy', name)
      throw error
    }
    await this.#announce('policy', name, 0)
  }

  /** Every label key in use with its values, sorted, as `GET /api/labels/...` shows them. */
  async labels(kind: 'ruleset' | 'policy'): Promise<Record<string, string[]>> {
    const definitions = kind === 'ruleset' ? await listRulesets(this.#db, {}) : await listPolicies(this.#db, {})
    const values = new Map<string, Set<string>>()
    for (const definition of definitions) {
      for (const [key, value] of Object.entries(definition.labels ?? {})) {
        const set = values.get(key) ?? new Set<string>()
        set.add(value)
        values.set(key, set)
      }
    }
    return Object.fromEntries([...values.keys()].sort().map((key) => [key, [...(values.get(key) as Set<string>)].sort()]))
  }

  /** A policy that names a ruleset which does not exist would judge nothing; refuse it up front. */
  async #requireRulesets(q: Queryable, spec: PolicySpec, fieldPrefix: string): Promise<void> {
    const missing: string[] = []
    for (const [index, name] of (spec.rulesets ?? []).entries()) {
      if (!(await getRuleset(q, name))) missing.push(`${fieldPrefix}rulesets[${index}]: ruleset "${name}" does not exist`)
    }
    if (missing.length > 0) throw new InvalidRequestError(missing.join('; '))
  }

  #newRecord<Spec extends RulesetSpec | PolicySpec>(name: string, spec: Spec, by: string, source: Stamp['source']): Spec & Stamp {
    const now = this.#now().toISOString()
    const stamp: Stamp = { name, version: 1, source, createdAt: now, createdBy: by, updatedAt: now, updatedBy: by }
    // TypeScript cannot see through a spread of a generic spec; the shape is the two parts joined.
    return { ...spec, labels: spec.labels ?? {}, ...stamp } as unknown as Spec & Stamp
  }

  #replacement<T extends Stamp>(current: T, spec: RulesetSpec | PolicySpec, by: string, source: Stamp['source']): T {
    return {
      ...spec,
      labels: spec.labels ?? {},
      name: current.name,
      version: current.version + 1,
      source,
      createdAt: current.createdAt,
      createdBy: current.createdBy,
      updatedAt: this.#now().toISOString(),
      updatedBy: by,
    } as unknown as T
  }

  async #announce(kind: 'ruleset' | 'policy', name: string, version: number): Promise<void> {
    await announceDefinitionChange(this.#db, { kind, name, version })
    await this.#catalog.refresh({ kind, name })
  }
}

interface Stamp {
  name: string
  version: number
  source: 'api' | 'crd' | 'instruction'
  createdAt: string
  createdBy: string
  updatedAt: string
  updatedBy: string
}

/**
 * A definition the controller made from a Ruleset or Policy object: the object in the cluster is
 * the truth, and the controller would put back whatever the API changed.
 */
function refuseClusterManaged(kind: 'ruleset' | 'policy', current: { name: string; source: string }): void {
  if (current.source !== 'crd') return
  const resource = kind === 'ruleset' ? 'Ruleset' : 'Policy'
  throw new ConflictError(`${kind} managed by Kubernetes`, `${kind} "${current.name}" is managed by the ${resource} resource in the cluster; change or delete it with kubectl`)
}

function exists(kind: string, name: string): ConflictError {
  return new ConflictError(`${kind} already exists`, `${kind} "${name}" already exists; use PUT to replace it`)
}

function plural(one: string, many: string, names: string[]): string {
  return `${names.length === 1 ? one : many} ${names.map((name) => `"${name}"`).join(', ')}`
}
