import { describe, expect, it } from 'vitest'
import { announceDefinitionChange, DEFINITIONS_CHANNEL } from '../../src/store/definition-changes.js'
import { PostgresDb } from '../../src/store/postgres-db.js'
import { insertRuleset } from '../../src/store/rulesets-repository.js'
import { testDatabases, useTestDatabase } from '../support/databases.js'
import { listenInbox } from '../support/notifications.js'

describe.each(testDatabases())('announceDefinitionChange ($kind)', ({ kind }) => {
  const database = useTestDatabase(kind)

  it('publishes {kind, name, version} on verdict_definitions', async () => {
    const inbox = await listenInbox(database.db, DEFINITIONS_CHANNEL)
    await announceDefinitionChange(database.db, { kind: 'policy', name: 'prod-pods', version: 3 })
    expect(JSON.parse(await inbox.next())).toEqual({ kind: 'policy', name: 'prod-pods', version: 3 })
    await inbox.stop()
  })

  it('inside a transaction, announces only what commits, when it commits', async () => {
    const inbox = await listenInbox(database.db, DEFINITIONS_CHANNEL)
    await database.db
      .transaction(async (tx) => {
        await announceDefinitionChange(tx, { kind: 'ruleset', name: 'rolled-back', version: 1 })
        throw new Error('abort')
      })
      .catch(() => {})
    await database.db.transaction(async (tx) => {
      const stored = await insertRuleset(tx, {
        name: 'committed',
        rules: [{ name: 'r', validate: { cel: [{ expression: 'true' }] } }],
        source: 'api',
        createdBy: 'a@b.c',
        updatedBy: 'a@b.c',
      })
      await announceDefinitionChange(tx, { kind: 'ruleset', name: stored.name, version: stored.version })
    })
    expect(JSON.parse(await inbox.next())).toEqual({ kind: 'ruleset', name: 'committed', version: 1 })
    await inbox.stop()
  })
})

describe('announceDefinitionChange across replicas (postgres)', () => {
  const database = useTestDatabase('postgres')

  it('reaches a second Db on the same database', async () => {
    const replica = new PostgresDb({ connectionString: database.current.url as string })
    try {
      const inbox = await listenInbox(replica, DEFINITIONS_CHANNEL)
      await announceDefinitionChange(database.db, { kind: 'ruleset', name: 'shared', version: 2 })
      expect(JSON.parse(await inbox.next())).toEqual({ kind: 'ruleset', name: 'shared', version: 2 })
      await inbox.stop()
    } finally {
      await replica.close()
    }
  })
})
