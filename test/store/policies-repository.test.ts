import { beforeEach, describe, expect, it } from 'vitest'
import {
  deletePolicy,
  getPolicy,
  insertPolicy,
  listAllPolicies,
  listPolicies,
  replacePolicy,
  type StoredPolicy,
} from '../../src/store/policies-repository.js'
import { AlreadyExistsError, NotFoundError } from '../../src/store/store-errors.js'
import { resetTestDatabase, testDatabases, useTestDatabase } from '../support/databases.js'

const T1 = '2026-11-21T07:00:00.000Z'
const T2 = '2026-11-22T07:00:00.001Z'

function policy(name: string, labels: Record<string, string> = {}, overrides: Partial<StoredPolicy> = {}): StoredPolicy {
  return {
    name,
    description: 'production pods',
    labels,
    rulesets: ['pod-security', 'images'],
    rulesetSelector: { matchExpressions: [{ key: 'platform', operator: 'In', values: ['kubernetes'] }] },
    match: { kinds: ['Pod', 'apps/Deployment'], operations: ['CREATE', 'UPDATE'], excludeNamespaces: ['kube-*'] },
    action: 'Deny',
    admission: true,
    failurePolicy: 'Fail',
    version: 1,
    source: 'crd',
    createdAt: T1,
    createdBy: 'controller@verdict',
    updatedAt: T1,
    updatedBy: 'controller@verdict',
    ...overrides,
  }
}

describe.each(testDatabases())('policies repository ($kind)', ({ kind }) => {
  const database = useTestDatabase(kind)
  beforeEach(() => resetTestDatabase(database.db))

  it('inserts at version 1 and reads back exactly what was written', async () => {
    const record = policy('prod-pods', { env: 'prod' })
    expect(await insertPolicy(database.db, record)).toEqual(record)
    expect(await getPolicy(database.db, 'prod-pods')).toEqual(record)
  })

  it('refuses a duplicate name with AlreadyExistsError', async () => {
    await insertPolicy(database.db, policy('dup'))
    const error: unknown = await insertPolicy(database.db, policy('dup', { other: 'x' })).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(AlreadyExistsError)
    expect(error).toMatchObject({ kind: 'policy', key: 'dup' })
    expect((await getPolicy(database.db, 'dup'))?.labels).toEqual({})
  })

  it('replace bumps the version and keeps created*', async () => {
    await insertPolicy(database.db, policy('p'))
    const replaced = await replacePolicy(database.db, {
      name: 'p',
      labels: { env: 'staging' },
      rulesets: ['images'],
      action: 'Warn',
      source: 'api',
      createdBy: 'ignored@example.com',
      updatedAt: T2,
      updatedBy: 'bob@example.com',
    })
    const expected: StoredPolicy = {
      name: 'p',
      labels: { env: 'staging' },
      rulesets: ['images'],
      action: 'Warn',
      version: 2,
      source: 'api',
      createdAt: T1,
      createdBy: 'controller@verdict',
      updatedAt: T2,
      updatedBy: 'bob@example.com',
    }
    expect(replaced).toEqual(expected)
    expect(await getPolicy(database.db, 'p')).toEqual(expected)
  })

  it('replace of an unknown name throws NotFoundError', async () => {
    await expect(replacePolicy(database.db, policy('ghost'))).rejects.toMatchObject({ constructor: NotFoundError, kind: 'policy', key: 'ghost' })
  })

  it('get of an unknown name is undefined', async () => {
    expect(await getPolicy(database.db, 'ghost')).toBeUndefined()
  })

  it('lists by name, every label given must match', async () => {
    await insertPolicy(database.db, policy('warn-all', { env: 'prod', team: 'web' }))
    await insertPolicy(database.db, policy('deny-all', { env: 'prod' }))
    await insertPolicy(database.db, policy('audit-all', { env: 'dev', team: 'web' }))
    const names = (list: StoredPolicy[]) => list.map((entry) => entry.name)
    expect(names(await listPolicies(database.db))).toEqual(['audit-all', 'deny-all', 'warn-all'])
    expect(names(await listPolicies(database.db, { labels: { env: 'prod' } }))).toEqual(['deny-all', 'warn-all'])
    expect(names(await listPolicies(database.db, { labels: { team: 'web' } }))).toEqual(['audit-all', 'warn-all'])
    expect(names(await listPolicies(database.db, { labels: { env: 'prod', team: 'web' } }))).toEqual(['warn-all'])
    expect(names(await listPolicies(database.db, { labels: { env: 'qa' } }))).toEqual([])
    expect(names(await listAllPolicies(database.db))).toEqual(['audit-all', 'deny-all', 'warn-all'])
  })

  it('deletes, and delete of an unknown name throws NotFoundError', async () => {
    await insertPolicy(database.db, policy('gone'))
    await deletePolicy(database.db, 'gone')
    expect(await getPolicy(database.db, 'gone')).toBeUndefined()
    await expect(deletePolicy(database.db, 'gone')).rejects.toMatchObject({ constructor: NotFoundError, kind: 'policy', key: 'gone' })
  })

  it('writes in a transaction are undone when it rolls back', async () => {
    await database.db
      .transaction(async (tx) => {
        await insertPolicy(tx, policy('never'))
        throw new Error('abort')
      })
      .catch(() => {})
    expect(await getPolicy(database.db, 'never')).toBeUndefined()
  })
})
