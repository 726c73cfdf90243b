import type { Db } from './db.js'
import { MIGRATIONS, type Migration } from './migrations/index.js'

/** An arbitrary constant every Verdict replica agrees on: the advisory lock that serialises migrations. */
const MIGRATION_LOCK = 7_301_260_417

const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS schema_migrations (
  name        text PRIMARY KEY,
  applied_at  timestamptz NOT NULL DEFAULT now()
)`

/**
 * Brings the schema up to date, each migration in its own transaction. Replicas starting together
 * queue on a transaction-scoped advisory lock, so one applies a migration and the others find it
 * recorded; the lock is taken before the migrations table is created because concurrent
 * `CREATE TABLE IF NOT EXISTS` can still collide. PGlite has one connection, so the lock is
 * uncontended there but harmless.
 */
export async function migrate(db: Db, migrations: readonly Migration[] = MIGRATIONS): Promise<{ applied: string[] }> {
  const applied: string[] = []
  for (const migration of migrations) {
    const ran = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK])
      await tx.query(CREATE_MIGRATIONS_TABLE)
      const done = await tx.query('SELECT 1 FROM schema_migrations WHERE name = $1', [migration.name])
      if (done.rowCount > 0) return false
      await tx.query(migration.sql)
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [migration.name])
      return true
    })
    if (ran) applied.push(migration.name)
  }
  return { applied }
}
