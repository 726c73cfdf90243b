import type { Policy } from '../engine/model/policy.js'
import type { Queryable } from './db.js'
import { DefinitionsTable, type DefinitionInput, type DefinitionStamp } from './definitions-table.js'

export type StoredPolicy = Policy & DefinitionStamp
/** A policy to write: a StoredPolicy, or one without version and times (the store sets them). */
export type PolicyInput = DefinitionInput<Policy>

const policies = new DefinitionsTable<Policy>('policies', 'policy')

/** Version 1; throws AlreadyExistsError when the name is taken. */
export function insertPolicy(q: Queryable, record: PolicyInput): Promise<StoredPolicy> {
  return policies.insert(q, record)
}

/** version + 1, createdAt/By kept; throws NotFoundError. */
export function replacePolicy(q: Queryable, record: PolicyInput): Promise<StoredPolicy> {
  return policies.replace(q, record)
}

export function getPolicy(q: Queryable, name: string): Promise<StoredPolicy | undefined> {
  return policies.get(q, name)
}

export function listPolicies(q: Queryable, filter: { labels?: Readonly<Record<string, string>> } = {}): Promise<StoredPolicy[]> {
  return policies.list(q, filter)
}

/** Everything, for loading the compiled cache. */
export function listAllPolicies(q: Queryable): Promise<StoredPolicy[]> {
  return policies.list(q)
}

/** Throws NotFoundError. */
export function deletePolicy(q: Queryable, name: string): Promise<void> {
  return policies.delete(q, name)
}
