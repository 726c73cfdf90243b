import { beforeEach, describe, expect, it } from 'vitest'
import { insertPolicy } from '../../src/store/policies-repository.js'
import {
  deleteRuleset,
  getRuleset,
  insertRuleset,
  listAllRulesets,
  listRulesets,
  replaceRuleset,
  type StoredRuleset,
} from '../../src/store/rulesets-repository.js'
import { AlreadyExistsError, NotFoundError, StillReferencedError } from '../../src/store/store-errors.js'
import { resetTestDatabase, testDatabases, useTestDatabase } from '../support/databases.js'

const T1 = '2026-11-21T07:00:00.000Z'
const T2 = '2026-11-21T08:30:00.250Z'

function ruleset(name: string, labels: Record<string, string> = {}, overrides: Partial<StoredRuleset> = {}): StoredRuleset {
  return {
    name,
    description: `the ${name} rules`,
    labels,
    rules: [
      {
        name: 'no-latest',
        severity: 'high',
        match: { kinds: ['Pod'], namespaces: ['prod-*'] },
        validate: { cel: [{ expression: "object.spec.containers.all(c, !c.image.endsWith(':latest'))", message: 'pin images' }] },
        remediation: 'use a digest',
      },
      { name: 'labelled', validate: { pattern: { metadata: { labels: { app: '?*' } } } } },
    ],
    version: 1,
    source: 'api',
    createdAt: T1,
    createdBy: 'alice@example.com',
    updatedAt: T1,
    updatedBy: 'alice@example.com',
    ...overrides,
  }
}

describe.each(testDatabases())('rulesets repository ($kind)', ({ kind }) => {
  const database = useTestDatabase(kind)
  beforeEach(() => resetTestDatabase(database.db))

  it('inserts at version 1 and reads back exactly what was written', async () => {
    const record = ruleset('pod-security', { platform: 'kubernetes', resource: 'pod' }, { instruction: 'no latest tags', source: 'instruction' })
    expect(await insertRuleset(database.db, record)).toEqual(record)
    expect(await getRuleset(database.db, 'pod-security')).toEqual(record)
  })

  it('stamps the store time, to the millisecond, when the record brings none', async () => {
    const { createdAt: _c, updatedAt: _u, ...unstamped } = ruleset('fresh')
    const before = Date.now()
    const stored = await insertRuleset(database.db, unstamped)
    expect(stored.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
    expect(stored.updatedAt).toBe(stored.createdAt)
    expect(Date.parse(stored.createdAt)).toBeGreaterThanOrEqual(before - 1000)
    expect(stored.version).toBe(1)
  })

  it('always starts at version 1 and keeps labels out of nothing', async () => {
    const { labels: _labels, ...unlabelled } = ruleset('bare', {}, { version: 7 })
    const stored = await insertRuleset(database.db, unlabelled)
    expect(stored.version).toBe(1)
    expect(stored.labels).toEqual({})
  })

  it('refuses a duplicate name with AlreadyExistsError and leaves the first untouched', async () => {
    await insertRuleset(database.db, ruleset('dup', { team: 'a' }))
    const error: unknown = await insertRuleset(database.db, ruleset('dup', { team: 'b' })).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(AlreadyExistsError)
    expect(error).toMatchObject({ kind: 'ruleset', key: 'dup' })
    expect((await getRuleset(database.db, 'dup'))?.labels).toEqual({ team: 'a' })
  })

  it('a duplicate inside a transaction does not abort the transaction', async () => {
    await insertRuleset(database.db, ruleset('dup'))
    const after = await database.db.transaction(async (tx) => {
      await expect(insertRuleset(tx, ruleset('dup'))).rejects.toBeInstanceOf(AlreadyExistsError)
      return (await tx.query<{ n: number }>('SELECT count(*) AS n FROM rulesets')).rows
    })
    expect(after).toEqual([{ n: 1 }])
  })

  it('replace bumps the version, keeps created*, and takes the new content, labels and updated*', async () => {
    await insertRuleset(database.db, ruleset('evolving', { stage: 'beta' }))
    const next = ruleset('evolving', { stage: 'ga' }, {
      description: 'now stricter',
      rules: [{ name: 'only-one', validate: { cel: [{ expression: 'true' }] } }],
      // Whatever the caller says about these, the store decides them.
      version: 42,
      createdAt: '2000-01-01T00:00:00.000Z',
      createdBy: 'mallory@example.com',
      updatedAt: T2,
      updatedBy: 'bob@example.com',
    })
    const expected: StoredRuleset = {
      name: 'evolving',
      description: 'now stricter',
      labels: { stage: 'ga' },
      rules: [{ name: 'only-one', validate: { cel: [{ expression: 'true' }] } }],
      version: 2,
      source: 'api',
      createdAt: T1,
      createdBy: 'alice@example.com',
      updatedAt: T2,
      updatedBy: 'bob@example.com',
    }
    expect(await replaceRuleset(database.db, next)).toEqual(expected)
    expect(await getRuleset(database.db, 'evolving')).toEqual(expected)
    expect((await replaceRuleset(database.db, next)).version).toBe(3)
  })

  it('replace of an unknown name throws NotFoundError', async () => {
    const error: unknown = await replaceRuleset(database.db, ruleset('ghost')).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(NotFoundError)
    expect(error).toMatchObject({ kind: 'ruleset', key: 'ghost' })
    expect(await getRuleset(database.db, 'ghost')).toBeUndefined()
  })

  it('get of an unknown name is undefined', async () => {
    expect(await getRuleset(database.db, 'nothing-here')).toBeUndefined()
  })

  it('lists by name in byte order, filtered so that every label given must match', async () => {
    await insertRuleset(database.db, ruleset('b-pods', { platform: 'kubernetes', resource: 'pod' }))
    await insertRuleset(database.db, ruleset('a.deployments', { platform: 'kubernetes', resource: 'deployment' }))
    await insertRuleset(database.db, ruleset('a-pods', { platform: 'kubernetes', resource: 'pod', tier: 'gold' }))
    await insertRuleset(database.db, ruleset('aws', { platform: 'aws' }))
    const names = (list: StoredRuleset[]) => list.map((entry) => entry.name)
    expect(names(await listRulesets(database.db))).toEqual(['a-pods', 'a.deployments', 'aws', 'b-pods'])
    expect(names(await listRulesets(database.db, { labels: {} }))).toEqual(['a-pods', 'a.deployments', 'aws', 'b-pods'])
    expect(names(await listRulesets(database.db, { labels: { platform: 'kubernetes' } }))).toEqual(['a-pods', 'a.deployments', 'b-pods'])
    expect(names(await listRulesets(database.db, { labels: { platform: 'kubernetes', resource: 'pod' } }))).toEqual(['a-pods', 'b-pods'])
    expect(names(await listRulesets(database.db, { labels: { resource: 'pod', tier: 'gold' } }))).toEqual(['a-pods'])
    expect(names(await listRulesets(database.db, { labels: { platform: 'Kubernetes' } }))).toEqual([])
    expect(names(await listRulesets(database.db, { labels: { missing: '' } }))).toEqual([])
    expect(names(await listAllRulesets(database.db))).toEqual(['a-pods', 'a.deployments', 'aws', 'b-pods'])
    expect((await listAllRulesets(database.db))[0]).toEqual(ruleset('a-pods', { platform: 'kubernetes', resource: 'pod', tier: 'gold' }))
  })

  it('deletes, and then the name is gone and free again', async () => {
    await insertRuleset(database.db, ruleset('short-lived'))
    await deleteRuleset(database.db, 'short-lived')
    expect(await getRuleset(database.db, 'short-lived')).toBeUndefined()
    expect((await insertRuleset(database.db, ruleset('short-lived'))).version).toBe(1)
  })

  it('delete of an unknown name throws NotFoundError', async () => {
    const error: unknown = await deleteRuleset(database.db, 'ghost').catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(NotFoundError)
    expect(error).toMatchObject({ kind: 'ruleset', key: 'ghost' })
  })

  it('refuses to delete a ruleset that policies name, listing them sorted, and keeps it', async () => {
    await insertRuleset(database.db, ruleset('shared'))
    await insertRuleset(database.db, ruleset('other'))
    const policy = (name: string, spec: object) => ({
      name,
      ...spec,
      source: 'api' as const,
      createdBy: 'alice@example.com',
      updatedBy: 'alice@example.com',
    })
    await insertPolicy(database.db, policy('zeta', { rulesets: ['other', 'shared'] }))
    await insertPolicy(database.db, policy('alpha', { rulesets: ['shared'] }))
    await insertPolicy(database.db, policy('unrelated', { rulesets: ['other'] }))
    // A selector matches whatever exists; it does not pin a ruleset.
    await insertPolicy(database.db, policy('by-selector', { rulesetSelector: { matchLabels: { platform: 'kubernetes' } } }))
    const error: unknown = await deleteRuleset(database.db, 'shared').catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(StillReferencedError)
    expect(error).toMatchObject({ kind: 'ruleset', key: 'shared', referencedBy: ['alpha', 'zeta'] })
    expect(await getRuleset(database.db, 'shared')).toBeDefined()
  })

  it('a refused delete inside a transaction leaves the transaction usable', async () => {
    await insertRuleset(database.db, ruleset('pinned'))
    await insertPolicy(database.db, { name: 'holder', rulesets: ['pinned'], source: 'api', createdBy: 'a@b.c', updatedBy: 'a@b.c' })
    const names = await database.db.transaction(async (tx) => {
      await expect(deleteRuleset(tx, 'pinned')).rejects.toBeInstanceOf(StillReferencedError)
      return (await listRulesets(tx)).map((entry) => entry.name)
    })
    expect(names).toEqual(['pinned'])
  })
})
