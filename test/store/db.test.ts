import { beforeAll, describe, expect, it } from 'vitest'
import { StoreUnavailableError } from '../../src/store/db.js'
import { PostgresDb } from '../../src/store/postgres-db.js'
import { createTestDatabase, testDatabases, useTestDatabase } from '../support/databases.js'
import { listenInbox } from '../support/notifications.js'
import { freePort } from '../support/postgres-server.js'

describe.each(testDatabases())('Db adapter ($kind)', ({ kind }) => {
  const database = useTestDatabase(kind)

  beforeAll(async () => {
    await database.db.query('CREATE TABLE scratch (id int PRIMARY KEY, note text)')
  })

  it('reports its kind', () => {
    expect(database.db.kind).toBe(kind)
  })

  it('parses int8 to numbers (bigint past 2^53), timestamptz to Date, jsonb, arrays and booleans', async () => {
    const { rows } = await database.db.query<Record<string, unknown>>(
      `SELECT count(*) AS n, 9007199254740993::int8 AS huge, '2026-11-21T07:00:00.123Z'::timestamptz AS at,
              '{"a":[1,{"b":null}]}'::jsonb AS doc, ARRAY['x','y,z']::text[] AS list, true AS yes
       FROM generate_series(1, 3)`,
    )
    expect(rows).toEqual([
      { n: 3, huge: 9007199254740993n, at: new Date('2026-11-21T07:00:00.123Z'), doc: { a: [1, { b: null }] }, list: ['x', 'y,z'], yes: true },
    ])
  })

  it('counts rows returned and rows affected', async () => {
    const inserted = await database.db.query('INSERT INTO scratch VALUES ($1, $2), ($3, $4)', [1, 'a', 2, 'b'])
    expect(inserted.rowCount).toBe(2)
    const selected = await database.db.query('SELECT * FROM scratch WHERE id > $1 ORDER BY id', [0])
    expect(selected).toEqual({ rows: [{ id: 1, note: 'a' }, { id: 2, note: 'b' }], rowCount: 2 })
    const updated = await database.db.query('UPDATE scratch SET note = $1 WHERE id = $2', ['c', 99])
    expect(updated.rowCount).toBe(0)
    await database.db.query('DELETE FROM scratch')
  })

  it('runs several statements in a call without parameters and returns the last result', async () => {
    const result = await database.db.query<{ total: number }>(
      'INSERT INTO scratch VALUES (10, $$x$$); INSERT INTO scratch VALUES (11, $$y$$); SELECT count(*)::int AS total FROM scratch',
    )
    expect(result.rows).toEqual([{ total: 2 }])
    await database.db.query('DELETE FROM scratch')
  })

  it('commits a transaction that resolves and returns its value', async () => {
    const value = await database.db.transaction(async (tx) => {
      await tx.query('INSERT INTO scratch VALUES ($1, $2)', [20, 'kept'])
      return 'done'
    })
    expect(value).toBe('done')
    expect((await database.db.query('SELECT note FROM scratch WHERE id = 20')).rows).toEqual([{ note: 'kept' }])
    await database.db.query('DELETE FROM scratch')
  })

  it('rolls back a transaction that throws and rethrows the error', async () => {
    const failure = new Error('work failed')
    await expect(
      database.db.transaction(async (tx) => {
        await tx.query('INSERT INTO scratch VALUES ($1, $2)', [30, 'lost'])
        throw failure
      }),
    ).rejects.toBe(failure)
    expect((await database.db.query('SELECT * FROM scratch')).rows).toEqual([])
  })

  it('rolls back on a statement error and keeps its SQLSTATE', async () => {
    await database.db.query('INSERT INTO scratch VALUES (40, $1)', ['first'])
    const error: unknown = await database.db
      .transaction(async (tx) => {
        await tx.query('INSERT INTO scratch VALUES (41, $1)', ['second'])
        await tx.query('INSERT INTO scratch VALUES (40, $1)', ['duplicate'])
      })
      .catch((caught: unknown) => caught)
    expect(error).not.toBeInstanceOf(StoreUnavailableError)
    expect((error as { code?: string }).code).toBe('23505')
    expect((await database.db.query('SELECT id FROM scratch ORDER BY id')).rows).toEqual([{ id: 40 }])
    await database.db.query('DELETE FROM scratch')
  })

  it('delivers NOTIFY to listeners of the same Db and stops after unsubscribing', async () => {
    const inbox = await listenInbox(database.db, 'verdict_test_same')
    await database.db.notify('verdict_test_same', 'one')
    expect(await inbox.next()).toBe('one')
    await inbox.stop()
    const other = await listenInbox(database.db, 'verdict_test_same')
    await database.db.notify('verdict_test_same', 'two')
    expect(await other.next()).toBe('two')
    expect(inbox.pending).toEqual([])
    await other.stop()
  })

  it('sends a NOTIFY made in a transaction at commit, and never after a rollback', async () => {
    const inbox = await listenInbox(database.db, 'verdict_test_tx')
    await database.db
      .transaction(async (tx) => {
        await tx.query('SELECT pg_notify($1, $2)', ['verdict_test_tx', 'rolled back'])
        throw new Error('abort')
      })
      .catch(() => {})
    await database.db.transaction(async (tx) => {
      await tx.query('SELECT pg_notify($1, $2)', ['verdict_test_tx', 'committed'])
    })
    // Notifications arrive in commit order, so the first one received proves the rollback sent nothing.
    expect(await inbox.next()).toBe('committed')
    await inbox.stop()
  })
})

describe.each(testDatabases())('Db adapter after close ($kind)', ({ kind }) => {
  it('answers StoreUnavailableError', async () => {
    const database = await createTestDatabase(kind)
    await database.db.close()
    await expect(database.db.query('SELECT 1')).rejects.toBeInstanceOf(StoreUnavailableError)
    await expect(database.db.transaction(async () => 1)).rejects.toBeInstanceOf(StoreUnavailableError)
    await database.dispose()
  })
})

describe('PostgreSQL adapter', () => {
  const database = useTestDatabase('postgres')

  it('delivers NOTIFY from one Db to another on the same database (two replicas)', async () => {
    const replica = new PostgresDb({ connectionString: database.current.url as string })
    try {
      const inbox = await listenInbox(replica, 'verdict_definitions')
      await database.db.notify('verdict_definitions', '{"kind":"ruleset","name":"a","version":1}')
      expect(await inbox.next()).toBe('{"kind":"ruleset","name":"a","version":1}')
      await inbox.stop()
    } finally {
      await replica.close()
    }
  })

  it('answers StoreUnavailableError when nothing listens on the port', async () => {
    const closed = new PostgresDb({ connectionString: `postgres://verdict:x@127.0.0.1:${await freePort()}/verdict` })
    try {
      const error: unknown = await closed.query('SELECT 1').catch((caught: unknown) => caught)
      expect(error).toBeInstanceOf(StoreUnavailableError)
      expect((error as Error).message).toMatch(/ECONNREFUSED/)
      await expect(closed.transaction(async () => 1)).rejects.toBeInstanceOf(StoreUnavailableError)
      await expect(closed.listen('verdict_tokens', () => {})).rejects.toBeInstanceOf(StoreUnavailableError)
    } finally {
      await closed.close()
    }
  })

  it('answers StoreUnavailableError when the server ends the session, and recovers on the next query', async () => {
    const victim = new PostgresDb({ connectionString: database.current.url as string, maxConnections: 1 })
    try {
      const { rows } = await victim.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')
      const pid = rows[0]?.pid
      const inFlight = victim.transaction(async (tx) => {
        await tx.query('SELECT pg_terminate_backend($1)', [pid])
        await tx.query('SELECT 1')
      })
      await expect(inFlight).rejects.toBeInstanceOf(StoreUnavailableError)
      expect((await victim.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }])
    } finally {
      await victim.close()
    }
  })

  it('re-LISTENs after the listener connection is killed and tells subscribers to reload', async () => {
    const replica = new PostgresDb({ connectionString: database.current.url as string })
    try {
      let reconnected!: () => void
      const reconnect = new Promise<void>((resolve) => (reconnected = resolve))
      const inbox = await listenInbox(replica, 'verdict_tokens', { onReconnect: () => reconnected() })
      await database.db.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'verdict-listener' AND datname = current_database()",
      )
      await reconnect
      await database.db.notify('verdict_tokens', 'token-1')
      expect(await inbox.next()).toBe('token-1')
      await inbox.stop()
    } finally {
      await replica.close()
    }
  })
})
