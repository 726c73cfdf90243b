import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { StoreUnavailableError } from '../../src/store/db.js'
import { migrate } from '../../src/store/migrate.js'
import { openDb } from '../../src/store/open-db.js'
import { createTestDatabase } from '../support/databases.js'
import { freePort } from '../support/postgres-server.js'

describe('openDb', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'verdict-open-db-'))
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  it('without a URL keeps PGlite files under <dataDir>/pgdata, and they survive a reopen', async () => {
    const nested = join(dataDir, 'not', 'yet', 'there')
    const first = await openDb({ dataDir: nested })
    expect(first.kind).toBe('pglite')
    await migrate(first)
    await first.query("INSERT INTO api_tokens (id, name, owner, scopes, secret_hash) VALUES ('t', 'n', 'o@x.y', '{admin}', 'h')")
    await first.close()
    expect(readdirSync(nested)).toEqual(['pgdata'])
    const again = await openDb({ dataDir: nested })
    try {
      expect(await migrate(again)).toEqual({ applied: [] })
      expect((await again.query('SELECT id FROM api_tokens')).rows).toEqual([{ id: 't' }])
    } finally {
      await again.close()
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
