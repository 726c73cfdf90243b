import type { PolicyException } from '../engine/model/policy-exception.js'
import type { Queryable } from './db.js'
import { DefinitionsTable, type DefinitionInput, type DefinitionStamp } from './definitions-table.js'

export type ExceptionSource = 'api' | 'crd'
export type StoredException = PolicyException & DefinitionStamp & { source: ExceptionSource; labels: Record<string, string> }
/** An exception to write: a StoredException, or one without version and times (the store sets them). */
export type ExceptionInput = DefinitionInput<PolicyException> & { source: ExceptionSource }

const exceptions = new DefinitionsTable<PolicyException>('policy_exceptions', 'exception')

/** Version 1; throws AlreadyExistsError when the name is taken. */
export function insertException(q: Queryable, record: ExceptionInput): Promise<StoredException> {
  return exceptions.insert(q, record) as Promise<StoredException>
}

/** version + 1, createdAt/By kept; throws NotFoundError. */
export function replaceException(q: Queryable, record: ExceptionInput): Promise<StoredException> {
  return exceptions.replace(q, record) as Promise<StoredException>
}

export function getException(q: Queryable, name: string): Promise<StoredException | undefined> {
  return exceptions.get(q, name) as Promise<StoredException | undefined>
}

/** Every exception, ordered by name: for the catalog and for listings (filters are globs, matched by the caller). */
export function listAllExceptions(q: Queryable): Promise<StoredException[]> {
  return exceptions.list(q) as Promise<StoredException[]>
}

/** Throws NotFoundError. */
export function deleteException(q: Queryable, name: string): Promise<void> {
  return exceptions.delete(q, name)
}
