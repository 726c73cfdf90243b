import { beforeEach, describe, expect, it } from 'vitest'
import { AlreadyExistsError, NotFoundError } from '../../src/store/store-errors.js'
import {
  countTokens,
  findTokenByHash,
  getToken,
  insertToken,
  listTokens,
  revokeToken,
  touchTokenLastUsed,
  type StoredToken,
} from '../../src/store/tokens-repository.js'
import { resetTestDatabase, testDatabases, useTestDatabase } from '../support/databases.js'

function token(id: string, overrides: Partial<StoredToken> = {}): StoredToken {
  return {
    id,
    name: `token ${id}`,
    owner: 'ops@example.com',
    scopes: ['eval', 'audits:read'],
    secretHash: `hash-of-${id}`,
    createdAt: '2026-11-21T07:00:00.000Z',
    expiresAt: null,
    lastUsedAt: null,
    revokedAt: null,
    ...overrides,
  }
}

describe.each(testDatabases())('tokens repository ($kind)', ({ kind }) => {
  const database = useTestDatabase(kind)
  beforeEach(() => resetTestDatabase(database.db))

  it('inserts and reads back by id and by hash', async () => {
    const record = token('t1', { expiresAt: '2027-01-01T00:00:00.000Z', scopes: ['admin'] })
    expect(await insertToken(database.db, record)).toEqual(record)
    expect(await getToken(database.db, 't1')).toEqual(record)
    expect(await findTokenByHash(database.db, 'hash-of-t1')).toEqual(record)
  })

  it('unknown ids and hashes are undefined', async () => {
    expect(await getToken(database.db, 'nope')).toBeUndefined()
    expect(await findTokenByHash(database.db, 'nope')).toBeUndefined()
  })

  it('refuses a taken id or a taken secret hash with AlreadyExistsError', async () => {
    await insertToken(database.db, token('t1'))
    await expect(insertToken(database.db, token('t1', { secretHash: 'fresh' }))).rejects.toBeInstanceOf(AlreadyExistsError)
    await expect(insertToken(database.db, token('t2', { secretHash: 'hash-of-t1' }))).rejects.toBeInstanceOf(AlreadyExistsError)
    expect((await listTokens(database.db)).map((entry) => entry.id)).toEqual(['t1'])
  })

  it('lists oldest first, ties by id', async () => {
    await insertToken(database.db, token('c', { createdAt: '2026-11-21T09:00:00.000Z' }))
    await insertToken(database.db, token('b', { createdAt: '2026-11-21T08:00:00.000Z' }))
    await insertToken(database.db, token('a', { createdAt: '2026-11-21T09:00:00.000Z' }))
    expect((await listTokens(database.db)).map((entry) => entry.id)).toEqual(['b', 'a', 'c'])
  })

  it('revokes once: revoking again keeps the first time; unknown ids throw NotFoundError', async () => {
    await insertToken(database.db, token('t1'))
    const first = new Date('2026-11-21T10:00:00.000Z')
    expect(await revokeToken(database.db, 't1', first)).toEqual(token('t1', { revokedAt: first.toISOString() }))
    expect((await revokeToken(database.db, 't1', new Date('2026-11-21T11:00:00.000Z'))).revokedAt).toBe(first.toISOString())
    expect((await findTokenByHash(database.db, 'hash-of-t1'))?.revokedAt).toBe(first.toISOString())
    await expect(revokeToken(database.db, 'ghost', first)).rejects.toMatchObject({ constructor: NotFoundError, kind: 'token', key: 'ghost' })
  })

  it('touches lastUsedAt forwards only and ignores unknown ids', async () => {
    await insertToken(database.db, token('t1'))
    await touchTokenLastUsed(database.db, 't1', new Date('2026-11-21T10:00:00.000Z'))
    expect((await getToken(database.db, 't1'))?.lastUsedAt).toBe('2026-11-21T10:00:00.000Z')
    await touchTokenLastUsed(database.db, 't1', new Date('2026-11-21T09:00:00.000Z'))
    expect((await getToken(database.db, 't1'))?.lastUsedAt).toBe('2026-11-21T10:00:00.000Z')
    await touchTokenLastUsed(database.db, 't1', new Date('2026-11-21T10:00:00.500Z'))
    expect((await getToken(database.db, 't1'))?.lastUsedAt).toBe('2026-11-21T10:00:00.500Z')
    await touchTokenLastUsed(database.db, 'ghost', new Date())
  })

  it('counts every token, or only those usable at a moment', async () => {
    expect(await countTokens(database.db)).toBe(0)
    await insertToken(database.db, token('live'))
    await insertToken(database.db, token('expired', { expiresAt: '2026-11-21T08:00:00.000Z' }))
    await insertToken(database.db, token('revoked', { revokedAt: '2026-11-21T07:30:00.000Z' }))
    await insertToken(database.db, token('later', { expiresAt: '2026-12-01T00:00:00.000Z' }))
    expect(await countTokens(database.db)).toBe(4)
    expect(await countTokens(database.db, { activeAt: new Date('2026-11-21T09:00:00.000Z') })).toBe(2)
    expect(await countTokens(database.db, { activeAt: new Date('2026-11-21T07:15:00.000Z') })).toBe(3)
  })
})
