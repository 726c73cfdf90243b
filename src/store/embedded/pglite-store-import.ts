import { existsSync, renameSync } from 'node:fs'
import { join } from 'node:path'
import type { Db, Queryable } from '../db.js'
import { migrate } from '../migrate.js'

/** Rows sent to the embedded server per statement while a store is copied. */
const ROWS_PER_BATCH = 500

export interface PgliteImport {
  /** Where the earlier store was moved once copied. */
  readonly movedTo: string
  readonly rows: number
  readonly tables: number
}

/** The directory an earlier Verdict kept its PGlite store in, under the data directory. */
export function pgliteStoreOf(dataDir: string): string | undefined {
  const dir = join(dataDir, 'pgdata')
  return existsSync(join(dir, 'PG_VERSION')) ? dir : undefined
}

/**
 * Copies a store an earlier Verdict kept in PGlite (`<dataDir>/pgdata`) into the embedded server,
 * then moves it aside (`pgdata.imported-<time>`), so an upgrade keeps every definition, token and
 * audit. Both are migrated to the same schema first; every table (each day's partition included)
 * is copied row by row as JSON in one transaction on the server, which replaces what it held, and
 * each table's count is checked, as are the sequences. A failed copy changes nothing: the earlier
 * store stays where it was and the next start tries again.
 * PGlite needs about as much memory for this as it did to run (docs/memory.md): it is done once.
 */
export async function importPgliteStore(sourceDir: string, target: Db): Promise<PgliteImport> {
  const { PgliteDb } = await import('../pglite-db.js')
  const source = await PgliteDb.open(sourceDir)
  let copied: { rows: number; tables: number }
  try {
    await migrate(source)
    await migrate(target)
    copied = await copyStore(source, target)
  } finally {
    await source.close()
  }
  const movedTo = `${sourceDir}.imported-${new Date().toISOString().replace(/[:.]/g, '-')}`
  renameSync(sourceDir, movedTo)
  return { movedTo, ...copied }
}

interface TableShape {
  readonly name: string
  readonly columns: readonly string[]
  /** A day's partition of the audit tables: made on the target with the store's own function. */
  readonly partitionDay: string | null
}

async function copyStore(source: Db, target: Db): Promise<{ rows: number; tables: number }> {
  const tables = await tablesOf(source)
  // last_value is NULL for a sequence never used, which stays as it starts on the target too.
  const sequences = await source.query<{ name: string; last_value: string | null }>(
    "SELECT sequencename AS name, last_value::text AS last_value FROM pg_sequences WHERE schemaname = 'public'",
  )
  let rows = 0
  await target.transaction(async (tx) => {
    // Triggers and foreign keys off for the copy: the rows are a consistent store already, and the
    // counters' triggers must not count again what the copied counter rows hold.
    await tx.query('SET LOCAL session_replication_role = replica')
    for (const table of tables) {
      if (table.partitionDay) await tx.query('SELECT verdict_ensure_audit_partition($1::date)', [table.partitionDay])
    }
    for (const table of tables) await tx.query(`TRUNCATE ${ident(table.name)}`)
    for (const table of tables) rows += await copyTable(source, tx, table)
    for (const sequence of sequences.rows) {
      if (sequence.last_value !== null) await tx.query('SELECT setval($1::regclass, $2::bigint)', [ident(sequence.name), sequence.last_value])
    }
  })
  return { rows, tables: tables.length }
}

/** Every table that holds rows (partitions, not their parents), but the migrations' own record. */
async function tablesOf(db: Db): Promise<TableShape[]> {
  const result = await db.query<{ name: string; columns: string[]; partition_day: string | null }>(
    `SELECT c.relname AS name,
            array_agg(a.attname::text ORDER BY a.attnum) AS columns,
            CASE WHEN c.relispartition THEN verdict_audit_partition_day(c.relname)::text END AS partition_day
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
      WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname <> 'schema_migrations'
      GROUP BY c.oid, c.relname, c.relispartition
      ORDER BY c.relname`,
  )
  return result.rows.map((row) => ({ name: row.name, columns: row.columns, partitionDay: row.partition_day }))
}

/** Reads the table through a cursor (a store may hold millions of audits) and writes it in batches. */
async function copyTable(source: Db, target: Queryable, table: TableShape): Promise<number> {
  const columns = table.columns.map(ident).join(', ')
  const insert = `INSERT INTO ${ident(table.name)} (${columns}) OVERRIDING SYSTEM VALUE SELECT ${columns} FROM json_populate_recordset(NULL::${ident(table.name)}, $1::json)`
  let copied = 0
  await source.transaction(async (read) => {
    await read.query(`DECLARE verdict_import NO SCROLL CURSOR FOR SELECT row_to_json(t)::text AS row FROM ${ident(table.name)} t`)
    for (;;) {
      const batch = await read.query<{ row: string }>(`FETCH ${ROWS_PER_BATCH} FROM verdict_import`)
      if (batch.rows.length === 0) break
      await target.query(insert, [`[${batch.rows.map((r) => r.row).join(',')}]`])
      copied += batch.rows.length
    }
    await read.query('CLOSE verdict_import')
  })
  const counted = await target.query<{ count: number }>(`SELECT count(*) AS count FROM ${ident(table.name)}`)
  if (Number(counted.rows[0]?.count) !== copied) throw new Error(`importing the earlier store: ${table.name} holds ${String(counted.rows[0]?.count)} rows after copying ${copied}`)
  return copied
}

function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`
}
