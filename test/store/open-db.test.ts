import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir, userInfo } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { StoreUnavailableError } from '../../src/store/db.js'
import { migrate } from '../../src/store/migrate.js'
import { openDb } from '../../src/store/open-db.js'
import { temporaryDataParent } from '../support/data-directory.js'
import { createTestDatabase } from '../support/databases.js'
import { freePort } from '../support/postgres-server.js'

describe('openDb', () => {
  const dataDir = temporaryDataParent('verdict-open-db-')
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  it('without a URL runs a PostgreSQL server on <dataDir>/postgres, whose data survive a reopen', async () => {
    const nested = join(dataDir, 'not', 'yet', 'there')
    const first = await openDb({ dataDir: nested })
    expect(first.kind).toBe('postgres')
    await migrate(first)
    await first.query("INSERT INTO api_tokens (id, name, owner, scopes, secret_hash) VALUES ('t', 'n', 'o@x.y', '{admin}', 'h')")
    expect((await first.query<{ fsync: string; shared_buffers: string }>("SELECT current_setting('fsync') AS fsync, current_setting('shared_buffers') AS shared_buffers")).rows).toEqual([{ fsync: 'on', shared_buffers: '32MB' }])
    await first.close()
    expect(readdirSync(nested)).toEqual(['postgres'])
    expect(existsSync(join(nested, 'postgres', 'postmaster.pid'))).toBe(false)
    const again = await openDb({ dataDir: nested })
    try {
      expect(await migrate(again)).toEqual({ applied: [] })
      expect((await again.query('SELECT id FROM api_tokens')).rows).toEqual([{ id: 't' }])
    } finally {
      await again.close()
    }
  })

  it('a second opener uses the server the first runs, and leaves it running at its close', async () => {
    const shared = join(dataDir, 'shared')
    const owner = await openDb({ dataDir: shared })
    try {
      await migrate(owner)
      const guest = await openDb({ dataDir: shared })
      await guest.query("INSERT INTO api_tokens (id, name, owner, scopes, secret_hash) VALUES ('g', 'n', 'o@x.y', '{admin}', 'h')")
      await guest.close()
      expect((await owner.query('SELECT id FROM api_tokens')).rows).toEqual([{ id: 'g' }])
    } finally {
      await owner.close()
    }
    expect(existsSync(join(shared, 'postgres', 'postmaster.pid'))).toBe(false)
  })

  it.runIf(userInfo().uid === 0)('as root, refuses a data directory the server user cannot enter, naming it, and makes nothing there', async () => {
    const closed = mkdtempSync(join(tmpdir(), 'verdict-closed-'))
    try {
      const error = await openDb({ dataDir: join(closed, 'data') }).then(
        () => undefined,
        (reason: unknown) => reason,
      )
      expect(error).toBeInstanceOf(Error)
      expect((error as Error).message).toMatch(/^running as root, Verdict runs the embedded PostgreSQL as uid \d+, which cannot enter .*verdict-closed-.*\/data/)
      expect(readdirSync(join(closed, 'data'))).toEqual([])
    } finally {
      rmSync(closed, { recursive: true, force: true })
    }
  })

  it('with memory:// writes nothing to disk', async () => {
    const db = await openDb({ dataDir: 'memory://' })
    try {
      expect(db.kind).toBe('pglite')
      expect((await db.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }])
    } finally {
      await db.close()
    }
    expect(readdirSync('.').includes('memory:')).toBe(false)
  })

  it('with a URL connects to PostgreSQL, ignoring dataDir', async () => {
    const database = await createTestDatabase('postgres')
    const db = await openDb({ databaseUrl: database.url, dataDir: join(dataDir, 'unused') })
    try {
      expect(db.kind).toBe('postgres')
      expect(await migrate(db)).toEqual({ applied: [] })
      expect(readdirSync(dataDir).includes('unused')).toBe(false)
    } finally {
      await db.close()
      await database.dispose()
    }
  })

  it('opens lazily: an unreachable server fails the first query with StoreUnavailableError', async () => {
    const db = await openDb({ databaseUrl: `postgres://verdict:x@127.0.0.1:${await freePort()}/verdict`, dataDir })
    try {
      await expect(db.query('SELECT 1')).rejects.toBeInstanceOf(StoreUnavailableError)
    } finally {
      await db.close()
    }
  })
})
