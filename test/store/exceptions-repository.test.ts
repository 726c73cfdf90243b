import { beforeEach, describe, expect, it } from 'vitest'
import {
  deleteException,
  getException,
  insertException,
  listAllExceptions,
  replaceException,
  type StoredException,
} from '../../src/store/exceptions-repository.js'
import { AlreadyExistsError, NotFoundError } from '../../src/store/store-errors.js'
import { resetTestDatabase, testDatabases, useTestDatabase } from '../support/databases.js'

const T1 = '2026-11-21T07:00:00.000Z'
const T2 = '2026-11-22T07:00:00.001Z'

function exception(name: string, overrides: Partial<StoredException> = {}): StoredException {
  return {
    name,
    labels: {},
    policies: ['baseline-*'],
    rules: [{ ruleset: 'pod-hardening', rule: 'no-privileged' }],
    match: { kinds: ['Pod'], namespaces: ['logging'], names: ['log-shipper*'] },
    conditions: [{ expression: "object.spec.containers.all(c, c.image.startsWith('registry.example.com/'))" }],
    reason: 'the log shipper reads host logs',
    ticket: 'https://tracker.example.com/OPS-42',
    owner: 'platform@example.com',
    expiresAt: '2026-12-31T00:00:00.000Z',
    version: 1,
    source: 'api',
    createdAt: T1,
    createdBy: 'alice@example.com',
    updatedAt: T1,
    updatedBy: 'alice@example.com',
    ...overrides,
  }
}

describe.each(testDatabases())('exceptions repository ($kind)', ({ kind }) => {
  const database = useTestDatabase(kind)
  beforeEach(() => resetTestDatabase(database.db))

  it('inserts at version 1 and reads back exactly what was written', async () => {
    const record = exception('log-shipper')
    expect(await insertException(database.db, record)).toEqual(record)
    expect(await getException(database.db, 'log-shipper')).toEqual(record)
  })

  it('refuses a duplicate name with AlreadyExistsError and keeps the first', async () => {
    await insertException(database.db, exception('dup'))
    const error: unknown = await insertException(database.db, exception('dup', { reason: 'other' })).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(AlreadyExistsError)
    expect(error).toMatchObject({ kind: 'exception', key: 'dup' })
    expect((await getException(database.db, 'dup'))?.reason).toBe('the log shipper reads host logs')
  })

  it('replace bumps the version and keeps created*', async () => {
    await insertException(database.db, exception('e'))
    const { ticket: _ticket, ...withoutTicket } = exception('e')
    const replaced = await replaceException(database.db, { ...withoutTicket, reason: 'renewed', updatedAt: T2, updatedBy: 'bob@example.com', createdBy: 'ignored' })
    expect(replaced).toEqual({ ...withoutTicket, reason: 'renewed', version: 2, updatedAt: T2, updatedBy: 'bob@example.com' })
    expect(await getException(database.db, 'e')).toEqual(replaced)
  })

  it('lists by name, deletes, and says NotFound for what is not there', async () => {
    await insertException(database.db, exception('b'))
    await insertException(database.db, exception('a'))
    expect((await listAllExceptions(database.db)).map((stored) => stored.name)).toEqual(['a', 'b'])
    await deleteException(database.db, 'a')
    expect(await getException(database.db, 'a')).toBeUndefined()
    await expect(deleteException(database.db, 'a')).rejects.toBeInstanceOf(NotFoundError)
    await expect(replaceException(database.db, exception('a'))).rejects.toBeInstanceOf(NotFoundError)
  })

  it('refuses a source other than api or crd in the table itself', async () => {
    await expect(insertException(database.db, exception('x', { source: 'instruction' as never }))).rejects.toThrow(/check constraint/)
    expect(await listAllExceptions(database.db)).toEqual([])
  })
})
