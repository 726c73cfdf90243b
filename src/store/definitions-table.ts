import type { Queryable } from './db.js'
import { AlreadyExistsError, NotFoundError } from './store-errors.js'
import { isoTimestamp, timestampParam } from './timestamps.js'

export type DefinitionSource = 'api' | 'crd' | 'instruction'

/** What the store adds to a ruleset or policy. Times are ISO 8601 UTC strings with milliseconds. */
export interface DefinitionStamp {
  version: number
  source: DefinitionSource
  createdAt: string
  createdBy: string
  updatedAt: string
  updatedBy: string
}

/** A definition as written: version and times are the store's to set, so they may be left out. */
export type DefinitionInput<T extends { name: string }> = T &
  Omit<DefinitionStamp, 'version' | 'createdAt' | 'updatedAt'> &
  Partial<Pick<DefinitionStamp, 'version' | 'createdAt' | 'updatedAt'>>

interface DefinitionRow {
  name: string
  labels: Record<string, string>
  spec: Record<string, unknown>
  source: DefinitionSource
  version: number
  created_at: Date
  created_by: string
  updated_at: Date
  updated_by: string
}

const NOW_MS = `date_trunc('milliseconds', now())`
const COLUMNS = 'name, labels, spec, source, version, created_at, created_by, updated_at, updated_by'

/**
 * Rulesets, policies and policy exceptions share one table shape: name, labels (own column, for
 * filtering), the rest of the definition as a jsonb spec, and the stamp. This is the SQL for each table.
 */
export class DefinitionsTable<T extends { name: string; labels?: Record<string, string> }> {
  constructor(
    readonly table: 'rulesets' | 'policies' | 'policy_exceptions',
    readonly kind: 'ruleset' | 'policy' | 'exception',
  ) {}

  /** Throws AlreadyExistsError without aborting the caller's transaction (no unique violation is raised). */
  async insert(q: Queryable, record: DefinitionInput<T>): Promise<T & DefinitionStamp> {
    const { labels, spec } = split(record)
    const result = await q.query<DefinitionRow>(
      `INSERT INTO ${this.table} (${COLUMNS})
       VALUES ($1, $2::jsonb, $3::jsonb, $4, 1, coalesce($5::timestamptz, ${NOW_MS}), $6, coalesce($7::timestamptz, $5::timestamptz, ${NOW_MS}), $8)
       ON CONFLICT (name) DO NOTHING
       RETURNING ${COLUMNS}`,
      [record.name, labels, spec, record.source, optionalTime(record.createdAt), record.createdBy, optionalTime(record.updatedAt), record.updatedBy],
    )
    const row = result.rows[0]
    if (!row) throw new AlreadyExistsError(this.kind, record.name)
    return this.toRecord(row)
  }

  /** Bumps the version by one and keeps created*, whatever the record says about them. */
  async replace(q: Queryable, record: DefinitionInput<T>): Promise<T & DefinitionStamp> {
    const { labels, spec } = split(record)
    const result = await q.query<DefinitionRow>(
      `UPDATE ${this.table}
       SET labels = $2::jsonb, spec = $3::jsonb, source = $4, version = version + 1,
           updated_at = coalesce($5::timestamptz, ${NOW_MS}), updated_by = $6
       WHERE name = $1
       RETURNING ${COLUMNS}`,
      [record.name, labels, spec, record.source, optionalTime(record.updatedAt), record.updatedBy],
    )
    const row = result.rows[0]
    if (!row) throw new NotFoundError(this.kind, record.name)
    return this.toRecord(row)
  }

  async get(q: Queryable, name: string): Promise<(T & DefinitionStamp) | undefined> {
    const result = await q.query<DefinitionRow>(`SELECT ${COLUMNS} FROM ${this.table} WHERE name = $1`, [name])
    const row = result.rows[0]
    return row ? this.toRecord(row) : undefined
  }

  /** Every label given must be present with that value; ordered by name. */
  async list(q: Queryable, filter: { labels?: Readonly<Record<string, string>> } = {}): Promise<(T & DefinitionStamp)[]> {
    const result = await q.query<DefinitionRow>(`SELECT ${COLUMNS} FROM ${this.table} WHERE labels @> $1::jsonb ORDER BY name`, [
      JSON.stringify(filter.labels ?? {}),
    ])
    return result.rows.map((row) => this.toRecord(row))
  }

  async delete(q: Queryable, name: string): Promise<void> {
    const result = await q.query(`DELETE FROM ${this.table} WHERE name = $1`, [name])
    if (result.rowCount === 0) throw new NotFoundError(this.kind, name)
  }

  toRecord(row: DefinitionRow): T & DefinitionStamp {
    return {
      name: row.name,
      ...row.spec,
      labels: row.labels,
      source: row.source,
      version: row.version,
      createdAt: isoTimestamp(row.created_at),
      createdBy: row.created_by,
      updatedAt: isoTimestamp(row.updated_at),
      updatedBy: row.updated_by,
    } as T & DefinitionStamp
  }
}

/** Labels get their own column; everything else the author wrote goes to spec. */
function split(record: DefinitionInput<{ name: string; labels?: Record<string, string> }>): { labels: string; spec: string } {
  // The stamp and the name live in columns; leaving them out of spec keeps one source of truth.
  const { name: _name, labels, version: _version, source: _source, createdAt: _ca, createdBy: _cb, updatedAt: _ua, updatedBy: _ub, ...spec } = record
  return { labels: JSON.stringify(labels ?? {}), spec: JSON.stringify(spec) }
}

function optionalTime(value: string | undefined): string | null {
  return value === undefined ? null : timestampParam(value)
}
