import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { insertAudits, type PolicyAuditRow, type RulesetAuditRow } from '../../../src/store/audits-repository.js'
import type { Db } from '../../../src/store/db.js'
import { migrate } from '../../../src/store/migrate.js'
import { openDb } from '../../../src/store/open-db.js'
import { PgliteDb } from '../../../src/store/pglite-db.js'
import { temporaryDataParent } from '../../support/data-directory.js'

/** Audits on both sides of a UTC midnight, so the copy needs two day partitions. */
function audits(): { policyAudits: PolicyAuditRow[]; rulesetAudits: RulesetAuditRow[] } {
  const base = Date.UTC(2026, 10, 20, 23, 59, 0)
  const policyAudits: PolicyAuditRow[] = []
  const rulesetAudits: RulesetAuditRow[] = []
  for (let i = 0; i < 7; i += 1) {
    const common = { requestId: `r-${i}`, input: JSON.stringify({ n: i, text: 'nul-free "quoted" \\ text' }), inputFormat: 'json' as const, updatedBy: 'a@b.c', updatedAt: new Date(base + i * 20_000) }
    const output = i % 2 === 0 ? { passed: true, results: [] } : { passed: false, results: [{ ruleset: 'pods', rule: 'no-latest', status: 'fail' }] }
    policyAudits.push({ ...common, policyName: 'prod', output: output as PolicyAuditRow['output'] })
    rulesetAudits.push({ ...common, rulesetName: 'pods', output: output as RulesetAuditRow['output'] })
  }
  return { policyAudits, rulesetAudits }
}

/** Every table's rows as text, in a stable order: what the store holds, whatever it runs on. */
async function contents(db: Db): Promise<Record<string, string[]>> {
  const tables = await db.query<{ name: string }>("SELECT relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'r' AND relname <> 'schema_migrations' ORDER BY 1")
  const all: Record<string, string[]> = {}
  for (const { name } of tables.rows) {
    all[name] = (await db.query<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM "${name}" t ORDER BY 1`)).rows.map((r) => r.row)
  }
  return all
}

describe('an earlier PGlite store in <dataDir>/pgdata', () => {
  const parent = temporaryDataParent('verdict-import-')
  afterAll(() => rmSync(parent, { recursive: true, force: true }))

  it('is copied whole into the embedded PostgreSQL at its first open, then moved aside', async () => {
    const dataDir = join(parent, 'data')
    mkdirSync(dataDir)
    const earlier = await PgliteDb.open(join(dataDir, 'pgdata'))
    await migrate(earlier)
    await earlier.query("INSERT INTO api_tokens (id, name, owner, scopes, secret_hash) VALUES ('t1', 'ci', 'o@x.y', '{admin}', 'h')")
    await insertAudits(earlier, audits())
    const before = await contents(earlier)
    const lastId = (await earlier.query<{ id: number }>('SELECT max(id) AS id FROM policy_audits')).rows[0]?.id
    await earlier.close()
    expect(Object.keys(before).filter((name) => /_p2026112[01]$/.test(name))).toHaveLength(6)

    const imported: unknown[] = []
    const db = await openDb({ dataDir, onImported: (result) => imported.push(result) })
    try {
      expect(db.kind).toBe('postgres')
      expect(await contents(db)).toEqual(before)
      expect(imported).toEqual([{ tables: Object.keys(before).length, rows: Object.values(before).reduce((sum, rows) => sum + rows.length, 0), movedTo: expect.stringMatching(/pgdata\.imported-/) }])
      // Ids carry on after the copied ones.
      await insertAudits(db, { policyAudits: [{ ...audits().policyAudits[0]!, requestId: 'after', updatedAt: new Date(Date.UTC(2026, 10, 21, 1)) }], rulesetAudits: [] })
      expect((await db.query<{ id: number }>("SELECT id FROM policy_audits WHERE request_id = 'after'")).rows[0]?.id).toBe(Number(lastId) + 1)
    } finally {
      await db.close()
    }
    expect(existsSync(join(dataDir, 'pgdata'))).toBe(false)
    expect(readdirSync(dataDir).sort()).toEqual([expect.stringMatching(/^pgdata\.imported-/), 'postgres'])

    // The next open finds nothing to import.
    const again = await openDb({ dataDir, onImported: (result) => imported.push(result) })
    await again.close()
    expect(imported).toHaveLength(1)
  })
})
