import { beforeAll, describe, expect, it } from 'vitest'
import {
  countPolicyAudits,
  countRulesetAudits,
  insertAudits,
  listPolicyAudits,
  listRulesetAudits,
  policyAuditByRequestId,
  policyAuditsByRequestId,
  rulesetAuditsByRequestId,
  type PolicyAuditRow,
  type RulesetAuditRow,
} from '../../src/store/audits-repository.js'
import { createAuditPartitions, dropAuditPartitionsBefore } from '../../src/store/audit-partitions.js'
import { resetTestDatabase, testDatabases, useTestDatabase } from '../support/databases.js'

const ALL_TIME = { start: new Date('1970-01-01T00:00:00.000Z'), end: new Date('2100-01-01T00:00:00.000Z') }
const at = (minute: number) => new Date(Date.UTC(2026, 10, 21, 7, minute))

function policyRow(requestId: string, policyName: string, minute: number, passed = true): PolicyAuditRow {
  return {
    requestId,
    policyName,
    input: `{"kind":"Pod","metadata":{"name":"${requestId}"}}`,
    inputFormat: 'json',
    output: { policy: policyName, passed, results: [] },
    updatedBy: 'alice@example.com',
    updatedAt: at(minute),
  }
}

function rulesetRow(requestId: string, rulesetName: string, minute: number): RulesetAuditRow {
  return {
    requestId,
    rulesetName,
    input: '{"kind":"Pod"}',
    inputFormat: 'json',
    output: { ruleset: rulesetName, passed: true, results: [] },
    updatedBy: 'alice@example.com',
    updatedAt: at(minute),
  }
}

/** Eight evaluations; req-4 and req-5 share a timestamp, so write order (id) decides between them. */
const POLICY_ROWS: PolicyAuditRow[] = [
  policyRow('req-1', 'prod-web', 0),
  policyRow('req-2', 'prod-db', 1, false),
  policyRow('req-3', 'dev-web', 2),
  policyRow('req-4', 'prod-web', 3),
  policyRow('req-5', 'prod-web', 3, false),
  policyRow('req-6', 'prod_x', 4),
  policyRow('req-7', 'a%b', 5),
  policyRow('req-8', 'abc', 6),
]

const RULESET_ROWS: RulesetAuditRow[] = [
  // One policy evaluation applies several rulesets; they come back in the order written.
  rulesetRow('req-1', 'pods-strict', 0),
  rulesetRow('req-1', 'images', 0),
  rulesetRow('req-2', 'images', 1),
  rulesetRow('req-4', 'pods-baseline', 3),
]

describe.each(testDatabases())('audits repository ($kind)', ({ kind }) => {
  const database = useTestDatabase(kind)

  describe('queries', () => {
    beforeAll(async () => {
      await resetTestDatabase(database.db)
      // Two statements in two transactions, so ids do not follow the table order alone.
      await insertAudits(database.db, { policyAudits: POLICY_ROWS.slice(0, 4), rulesetAudits: RULESET_ROWS.slice(0, 2) })
      await database.db.transaction((tx) => insertAudits(tx, { policyAudits: POLICY_ROWS.slice(4), rulesetAudits: RULESET_ROWS.slice(2) }))
    })

    const listIds = async (name: string, range = ALL_TIME, page = 1, pageSize = 100) =>
      (await listPolicyAudits(database.db, { name, ...range, page, pageSize })).map((record) => record.requestId)

    it('returns records with exactly the fields of the spec, in its order', async () => {
      const [record] = await listPolicyAudits(database.db, { name: 'prod-db', ...ALL_TIME, page: 1, pageSize: 10 })
      expect(Object.keys(record ?? {})).toEqual(['policyName', 'input', 'inputFormat', 'output', 'updatedAt', 'updatedBy', 'requestId'])
      expect(record).toEqual({
        policyName: 'prod-db',
        input: '{"kind":"Pod","metadata":{"name":"req-2"}}',
        inputFormat: 'json',
        output: { policy: 'prod-db', passed: false, results: [] },
        updatedAt: '2026-11-21T07:01:00.000Z',
        updatedBy: 'alice@example.com',
        requestId: 'req-2',
      })
    })

    it('lists one name newest first, ties in reverse write order', async () => {
      expect(await listIds('prod-web')).toEqual(['req-5', 'req-4', 'req-1'])
    })

    it('lists every name for *', async () => {
      expect(await listIds('*')).toEqual(['req-8', 'req-7', 'req-6', 'req-5', 'req-4', 'req-3', 'req-2', 'req-1'])
    })

    it('treats * and ? as globs and % and _ as plain characters', async () => {
      expect(await listIds('prod-*')).toEqual(['req-5', 'req-4', 'req-2', 'req-1'])
      expect(await listIds('*web')).toEqual(['req-5', 'req-4', 'req-3', 'req-1'])
      expect(await listIds('prod?web')).toEqual(['req-5', 'req-4', 'req-1'])
      expect(await listIds('prod?x')).toEqual(['req-6'])
      expect(await listIds('prod_*')).toEqual(['req-6'])
      expect(await listIds('a%*')).toEqual(['req-7'])
      expect(await listIds('a%b')).toEqual(['req-7'])
      expect(await listIds('a?c')).toEqual(['req-8'])
      expect(await listIds('prod')).toEqual([])
      expect(await listIds('nothing*')).toEqual([])
    })

    it('pages with page counted from 1', async () => {
      expect(await listIds('*', ALL_TIME, 1, 3)).toEqual(['req-8', 'req-7', 'req-6'])
      expect(await listIds('*', ALL_TIME, 2, 3)).toEqual(['req-5', 'req-4', 'req-3'])
      expect(await listIds('*', ALL_TIME, 3, 3)).toEqual(['req-2', 'req-1'])
      expect(await listIds('*', ALL_TIME, 4, 3)).toEqual([])
      expect(await listIds('prod-web', ALL_TIME, 2, 2)).toEqual(['req-1'])
      expect(await listIds('*', ALL_TIME, Number.MAX_SAFE_INTEGER, 1000)).toEqual([])
    })

    it('refuses a page or page size below 1', async () => {
      await expect(listPolicyAudits(database.db, { name: '*', ...ALL_TIME, page: 0, pageSize: 10 })).rejects.toBeInstanceOf(RangeError)
      await expect(listPolicyAudits(database.db, { name: '*', ...ALL_TIME, page: 1, pageSize: 0 })).rejects.toBeInstanceOf(RangeError)
      await expect(listRulesetAudits(database.db, { name: '*', ...ALL_TIME, page: 1.5, pageSize: 10 })).rejects.toBeInstanceOf(RangeError)
    })

    it('includes both ends of the time range', async () => {
      const range = { start: at(1), end: at(3) }
      expect(await listIds('*', range)).toEqual(['req-5', 'req-4', 'req-3', 'req-2'])
      expect(await countPolicyAudits(database.db, { name: '*', ...range })).toBe(4)
      const instant = { start: at(3), end: at(3) }
      expect(await listIds('prod-web', instant)).toEqual(['req-5', 'req-4'])
      const justAfter = { start: new Date(at(3).getTime() + 1), end: at(6) }
      expect(await listIds('prod-web', justAfter)).toEqual([])
      expect(await listIds('*', { start: at(6), end: at(1) })).toEqual([])
    })

    it('counts by exact name, * and glob, over all time or a range', async () => {
      const count = (name: string, range = ALL_TIME) => countPolicyAudits(database.db, { name, ...range })
      expect(await count('prod-web')).toBe(3)
      expect(await count('*')).toBe(8)
      expect(await count('prod-*')).toBe(4)
      expect(await count('prod_*')).toBe(1)
      expect(await count('nothing')).toBe(0)
      expect(await count('prod-web', { start: at(1), end: at(2) })).toBe(0)
      expect(await count('*', { start: at(6), end: at(1) })).toBe(0)
    })

    it('finds the one policy audit of a request, or nothing', async () => {
      expect(await policyAuditByRequestId(database.db, 'req-4')).toEqual({
        policyName: 'prod-web',
        input: '{"kind":"Pod","metadata":{"name":"req-4"}}',
        inputFormat: 'json',
        output: { policy: 'prod-web', passed: true, results: [] },
        updatedAt: '2026-11-21T07:03:00.000Z',
        updatedBy: 'alice@example.com',
        requestId: 'req-4',
      })
      expect(await policyAuditByRequestId(database.db, 'req-404')).toBeUndefined()
    })

    it('finds every ruleset audit of a request in the order written, or an empty array', async () => {
      const records = await rulesetAuditsByRequestId(database.db, 'req-1')
      expect(records).toEqual([
        {
          rulesetName: 'pods-strict',
          input: '{"kind":"Pod"}',
          inputFormat: 'json',
          output: { ruleset: 'pods-strict', passed: true, results: [] },
          updatedAt: '2026-11-21T07:00:00.000Z',
          updatedBy: 'alice@example.com',
          requestId: 'req-1',
        },
        {
          rulesetName: 'images',
          input: '{"kind":"Pod"}',
          inputFormat: 'json',
          output: { ruleset: 'images', passed: true, results: [] },
          updatedAt: '2026-11-21T07:00:00.000Z',
          updatedBy: 'alice@example.com',
          requestId: 'req-1',
        },
      ])
      expect(Object.keys(records[0] ?? {})).toEqual(['rulesetName', 'input', 'inputFormat', 'output', 'updatedAt', 'updatedBy', 'requestId'])
      expect(await rulesetAuditsByRequestId(database.db, 'req-404')).toEqual([])
    })

    it('lists and counts ruleset audits by name, * and glob', async () => {
      const ids = async (name: string) =>
        (await listRulesetAudits(database.db, { name, ...ALL_TIME, page: 1, pageSize: 10 })).map((r) => `${r.requestId}/${r.rulesetName}`)
      expect(await ids('images')).toEqual(['req-2/images', 'req-1/images'])
      expect(await ids('*')).toEqual(['req-4/pods-baseline', 'req-2/images', 'req-1/images', 'req-1/pods-strict'])
      expect(await ids('pods-*')).toEqual(['req-4/pods-baseline', 'req-1/pods-strict'])
      expect(await countRulesetAudits(database.db, { name: 'images', ...ALL_TIME })).toBe(2)
      expect(await countRulesetAudits(database.db, { name: '*', start: at(1), end: at(3) })).toBe(2)
      expect(await countRulesetAudits(database.db, { name: 'pods-*', ...ALL_TIME })).toBe(2)
    })
  })

  describe('writes', () => {
    it('finds every policy audit of a request (an admission review judged by several policies), in the order written', async () => {
      await resetTestDatabase(database.db)
      const review = (policyName: string, minute: number) => ({ ...policyRow('review-uid', policyName, minute), input: '{"kind":"Pod"}' })
      await insertAudits(database.db, { policyAudits: [review('deny-privileged', 0), review('warn-latest', 0), policyRow('other', 'deny-privileged', 1)], rulesetAudits: [] })
      expect((await policyAuditsByRequestId(database.db, 'review-uid')).map((record) => [record.policyName, record.requestId, record.input])).toEqual([
        ['deny-privileged', 'review-uid', '{"kind":"Pod"}'],
        ['warn-latest', 'review-uid', '{"kind":"Pod"}'],
      ])
      expect(await policyAuditsByRequestId(database.db, 'review-404')).toEqual([])
    })

    it('stamps rows without updatedAt with the write time, to the millisecond, shared by one statement', async () => {
      await resetTestDatabase(database.db)
      const { updatedAt: _a, ...first } = policyRow('now-1', 'p', 0)
      const { updatedAt: _b, ...second } = policyRow('now-2', 'p', 0)
      const before = Date.now()
      await insertAudits(database.db, { policyAudits: [first, second], rulesetAudits: [] })
      const records = await listPolicyAudits(database.db, { name: 'p', ...ALL_TIME, page: 1, pageSize: 10 })
      expect(records.map((record) => record.requestId)).toEqual(['now-2', 'now-1'])
      expect(records[0]?.updatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
      expect(records[0]?.updatedAt).toBe(records[1]?.updatedAt)
      expect(Math.abs(Date.parse(records[0]?.updatedAt ?? '') - before)).toBeLessThan(60_000)
      // The displayed timestamp finds the record: nothing hides below the millisecond.
      const shown = new Date(records[0]?.updatedAt ?? '')
      expect(await countPolicyAudits(database.db, { name: 'p', start: shown, end: shown })).toBe(2)
    })

    it('keeps any text exactly, and YAML input as YAML', async () => {
      await resetTestDatabase(database.db)
      const input = 'kind: Pod\nmetadata:\n  name: "quote\\" {brace}, comma; back\\\\slash \u00e9\u{1F600}"\n'
      const message = 'image "nginx:latest" uses {tag}, not a digest \\ fix it'
      await insertAudits(database.db, {
        policyAudits: [
          {
            requestId: 'weird',
            policyName: 'p',
            input,
            inputFormat: 'yaml',
            output: { policy: 'p', passed: false, results: [{ ruleset: 'r', rule: 'x', status: 'fail', severity: 'high', message }] },
            updatedBy: 'NULL',
          },
        ],
        rulesetAudits: [],
      })
      expect(await policyAuditByRequestId(database.db, 'weird')).toMatchObject({
        input,
        inputFormat: 'yaml',
        updatedBy: 'NULL',
        output: { policy: 'p', passed: false, results: [{ ruleset: 'r', rule: 'x', status: 'fail', severity: 'high', message }] },
      })
    })

    it('stores U+0000, which PostgreSQL text and jsonb refuse, as U+FFFD instead of losing the audit', async () => {
      await resetTestDatabase(database.db)
      await insertAudits(database.db, {
        policyAudits: [],
        rulesetAudits: [
          {
            requestId: 'nul',
            rulesetName: 'r',
            input: '{"name":"a\u0000b"}',
            inputFormat: 'json',
            output: { ruleset: 'r', passed: false, results: [{ ruleset: 'r', rule: 'x', status: 'fail', severity: 'low', message: 'bad a\u0000b' }] },
            updatedBy: 'a@b.c',
          },
        ],
      })
      const [record] = await rulesetAuditsByRequestId(database.db, 'nul')
      expect(record?.input).toBe('{"name":"a\uFFFDb"}')
      expect(record?.output.results[0]?.message).toBe('bad a\uFFFDb')
    })

    it('records passed from the row, else from the output', async () => {
      await resetTestDatabase(database.db)
      await insertAudits(database.db, {
        policyAudits: [
          { ...policyRow('explicit', 'p', 0, true), passed: false },
          { ...policyRow('derived', 'p', 1, true) },
        ],
        rulesetAudits: [],
      })
      const { rows } = await database.db.query<{ request_id: string; passed: boolean }>('SELECT request_id, passed FROM policy_audits ORDER BY id')
      expect(rows).toEqual([
        { request_id: 'explicit', passed: false },
        { request_id: 'derived', passed: true },
      ])
    })

    it('writes a large batch in one statement, in order', async () => {
      await resetTestDatabase(database.db)
      const policyAudits = Array.from({ length: 3000 }, (_, index) => ({ ...policyRow(`bulk-${index}`, 'bulk', 0), updatedAt: undefined }))
      const rulesetAudits = Array.from({ length: 3000 }, (_, index) => rulesetRow(`bulk-${index}`, 'bulk', 0))
      await insertAudits(database.db, { policyAudits, rulesetAudits })
      expect(await countPolicyAudits(database.db, { name: 'bulk', ...ALL_TIME })).toBe(3000)
      expect(await countRulesetAudits(database.db, { name: 'bulk', ...ALL_TIME })).toBe(3000)
      const newest = await listPolicyAudits(database.db, { name: 'bulk', ...ALL_TIME, page: 1, pageSize: 2 })
      expect(newest.map((record) => record.requestId)).toEqual(['bulk-2999', 'bulk-2998'])
    })

    it('does nothing for an empty entry', async () => {
      await resetTestDatabase(database.db)
      await insertAudits(database.db, { policyAudits: [], rulesetAudits: [] })
      expect(await countPolicyAudits(database.db, { name: '*', ...ALL_TIME })).toBe(0)
    })
  })

  describe('counts kept by the counters', () => {
    /** A deterministic spread of 600 rows over three hours around hour and minute boundaries. */
    function spread(): PolicyAuditRow[] {
      let seed = 7
      const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647
      const names = ['prod-web', 'prod-db', 'dev-web']
      const base = Date.UTC(2026, 10, 21, 6, 0)
      return Array.from({ length: 600 }, (_, index) => ({
        ...policyRow(`spread-${index}`, names[index % 3] as string, 0, random() > 0.5),
        updatedAt: new Date(base + Math.floor(random() * 3 * 3600 * 1000)),
      }))
    }

    const oracle = async (name: string, start: Date, end: Date) => {
      const condition = name === '*' ? 'TRUE' : name.includes('*') ? 'policy_name LIKE $3' : 'policy_name = $3'
      const params = name === '*' ? [start.toISOString(), end.toISOString()] : [start.toISOString(), end.toISOString(), name.replaceAll('*', '%')]
      const { rows } = await database.db.query<{ n: number }>(
        `SELECT count(*) AS n FROM policy_audits WHERE ${condition} AND updated_at >= $1 AND updated_at <= $2`,
        params,
      )
      return rows[0]?.n
    }

    const ranges: Array<[string, string]> = [
      ['1970-01-01T00:00:00.000Z', '2100-01-01T00:00:00.000Z'],
      ['2026-11-21T06:00:00.000Z', '2026-11-21T09:00:00.000Z'],
      ['2026-11-21T06:17:31.123Z', '2026-11-21T08:44:02.999Z'],
      ['2026-11-21T06:59:59.999Z', '2026-11-21T07:00:00.001Z'],
      ['2026-11-21T07:00:00.000Z', '2026-11-21T07:59:59.999Z'],
      ['2026-11-21T07:30:00.000Z', '2026-11-21T07:31:00.000Z'],
      ['2026-11-21T08:10:00.000Z', '2026-11-21T08:10:00.000Z'],
    ]

    it('agree with counting the rows, for names, * and globs over aligned and ragged ranges', async () => {
      await resetTestDatabase(database.db)
      const rows = spread()
      await insertAudits(database.db, { policyAudits: rows.slice(0, 300), rulesetAudits: [] })
      await insertAudits(database.db, { policyAudits: rows.slice(300), rulesetAudits: [] })
      for (const [from, to] of ranges) {
        for (const name of ['prod-web', '*', 'prod-*', 'nothing']) {
          const range = { name, start: new Date(from), end: new Date(to) }
          expect(await countPolicyAudits(database.db, range), `${name} ${from}..${to}`).toBe(await oracle(name, range.start, range.end))
        }
      }
      expect(await countPolicyAudits(database.db, { name: '*', ...ALL_TIME })).toBe(600)
    })

    it('follow DELETE and TRUNCATE', async () => {
      await resetTestDatabase(database.db)
      await insertAudits(database.db, { policyAudits: spread(), rulesetAudits: [] })
      await database.db.query('DELETE FROM policy_audits WHERE updated_at < $1', ['2026-11-21T07:20:30.500Z'])
      for (const [from, to] of ranges) {
        const range = { name: 'prod-web', start: new Date(from), end: new Date(to) }
        expect(await countPolicyAudits(database.db, range), `${from}..${to}`).toBe(await oracle('prod-web', range.start, range.end))
      }
      const { rows } = await database.db.query<{ n: number }>('SELECT count(*) AS n FROM policy_audit_counts WHERE audits <= 0')
      expect(rows).toEqual([{ n: 0 }])
      await database.db.query('TRUNCATE policy_audits')
      expect(await countPolicyAudits(database.db, { name: '*', ...ALL_TIME })).toBe(0)
      expect((await database.db.query('SELECT 1 FROM policy_audit_counts')).rowCount).toBe(0)
    })

    it('bucket by UTC whatever the session time zone', async () => {
      await resetTestDatabase(database.db)
      await database.db.transaction(async (tx) => {
        await tx.query("SET LOCAL TIME ZONE 'Asia/Kolkata'")
        await insertAudits(tx, { policyAudits: [policyRow('ist', 'p', 45)], rulesetAudits: [] })
      })
      const { rows } = await database.db.query<{ span: number; bucket: Date }>(
        "SELECT span, bucket FROM policy_audit_counts WHERE name = 'p' ORDER BY span",
      )
      expect(rows).toEqual([
        { span: 60, bucket: new Date('2026-11-21T07:45:00.000Z') },
        { span: 3600, bucket: new Date('2026-11-21T07:00:00.000Z') },
      ])
      expect(await countPolicyAudits(database.db, { name: 'p', start: at(0), end: new Date(at(60).getTime() - 1) })).toBe(1)
    })

    it('audit records cannot be changed', async () => {
      await resetTestDatabase(database.db)
      await insertAudits(database.db, { policyAudits: [policyRow('fixed', 'p', 0)], rulesetAudits: [rulesetRow('fixed', 'r', 0)] })
      await expect(database.db.query("UPDATE policy_audits SET policy_name = 'q'")).rejects.toMatchObject({ code: '55000' })
      await expect(database.db.query("UPDATE ruleset_audits SET passed = false")).rejects.toMatchObject({ code: '55000' })
      expect((await policyAuditByRequestId(database.db, 'fixed'))?.policyName).toBe('p')
    })

    it('audit records and their inputs cannot be changed through a day partition either, nor in audit_inputs', async () => {
      await resetTestDatabase(database.db)
      const row = { ...policyRow('fixed', 'p', 0), input: '{"kind":"Pod"}' }
      await insertAudits(database.db, { policyAudits: [row], rulesetAudits: [{ ...rulesetRow('fixed', 'r', 0), input: row.input }] })
      // A day made after the migration gets the same protection as the days that existed.
      expect(await createAuditPartitions(database.db, ['2030-01-01'])).toEqual(['2030-01-01'])
      await insertAudits(database.db, { policyAudits: [{ ...policyRow('later', 'p', 0), updatedAt: new Date('2030-01-01T12:00:00.000Z') }], rulesetAudits: [] })
      const day = (await database.db.query<{ day: string }>("SELECT to_char(updated_at AT TIME ZONE 'UTC', 'YYYYMMDD') AS day FROM policy_audits WHERE request_id = 'fixed'")).rows[0]?.day
      for (const statement of [
        `UPDATE policy_audits_p${day} SET policy_name = 'q'`,
        `UPDATE ruleset_audits_p${day} SET passed = false`,
        `UPDATE audit_inputs_p${day} SET input = '{"kind":"Secret"}'`,
        `UPDATE audit_inputs SET input = '{"kind":"Secret"}'`,
        "UPDATE audit_inputs SET input = input WHERE false",
        "UPDATE policy_audits_p20300101 SET policy_name = 'q'",
      ]) {
        await expect(database.db.query(statement), statement).rejects.toMatchObject({ code: '55000' })
      }
      const stored = await policyAuditByRequestId(database.db, 'fixed')
      expect([stored?.policyName, stored?.input]).toEqual(['p', '{"kind":"Pod"}'])
      expect((await rulesetAuditsByRequestId(database.db, 'fixed')).map((record) => [record.output.passed, record.input])).toEqual([[true, '{"kind":"Pod"}']])
    })
  })

  describe('inputs stored once per request', () => {
    beforeAll(async () => {
      await resetTestDatabase(database.db)
    })

    const stored = async () => ({
      inputs: (await database.db.query<{ request_id: string }>('SELECT request_id FROM audit_inputs ORDER BY request_id')).rows.map((row) => row.request_id),
      inline: (await database.db.query<{ n: number }>('SELECT (SELECT count(*) FROM policy_audits WHERE input IS NOT NULL) + (SELECT count(*) FROM ruleset_audits WHERE input IS NOT NULL) AS n')).rows[0]?.n,
    })

    it('writes the document of a policy evaluation once and reads it back on every record', async () => {
      const input = '{"kind":"Pod","metadata":{"name":"shared"}}'
      await insertAudits(database.db, {
        policyAudits: [{ ...policyRow('req-shared', 'prod', 0), input }],
        rulesetAudits: [
          { ...rulesetRow('req-shared', 'a', 0), input },
          { ...rulesetRow('req-shared', 'b', 0), input },
        ],
      })
      expect(await stored()).toEqual({ inputs: ['req-shared'], inline: 0 })
      expect((await policyAuditByRequestId(database.db, 'req-shared'))?.input).toBe(input)
      expect((await rulesetAuditsByRequestId(database.db, 'req-shared')).map((record) => record.input)).toEqual([input, input])
      const [listed] = await listRulesetAudits(database.db, { name: 'b', ...ALL_TIME, page: 1, pageSize: 10 })
      expect(listed?.input).toBe(input)
    })

    it('stores the document of a repeated request id again for its own moment, so no record reads another input', async () => {
      await insertAudits(database.db, { policyAudits: [{ ...policyRow('req-shared', 'other', 1), input: '{"kind":"Service"}' }], rulesetAudits: [] })
      await insertAudits(database.db, { policyAudits: [{ ...policyRow('req-shared', 'same', 2), input: '{"kind":"Pod","metadata":{"name":"shared"}}' }], rulesetAudits: [] })
      expect(await stored()).toEqual({ inputs: ['req-shared', 'req-shared', 'req-shared'], inline: 0 })
      const inputs = (await listPolicyAudits(database.db, { name: '*', ...ALL_TIME, page: 1, pageSize: 10 })).map((record) => [record.policyName, record.input])
      expect(inputs).toEqual([
        ['same', '{"kind":"Pod","metadata":{"name":"shared"}}'],
        ['other', '{"kind":"Service"}'],
        ['prod', '{"kind":"Pod","metadata":{"name":"shared"}}'],
      ])
    })

    it('keeps a different document under a request id and moment already stored inline', async () => {
      await insertAudits(database.db, { policyAudits: [{ ...policyRow('req-shared', 'again', 0), input: '{"kind":"ConfigMap"}' }], rulesetAudits: [] })
      expect(await stored()).toEqual({ inputs: ['req-shared', 'req-shared', 'req-shared'], inline: 1 })
      const again = (await policyAuditsByRequestId(database.db, 'req-shared')).find((record) => record.policyName === 'again')
      expect(again?.input).toBe('{"kind":"ConfigMap"}')
      expect((await policyAuditsByRequestId(database.db, 'req-shared')).find((record) => record.policyName === 'prod')?.input).toBe('{"kind":"Pod","metadata":{"name":"shared"}}')
    })

    it('drops the inputs with the days of the audits that point to them', async () => {
      await dropAuditPartitionsBefore(database.db, new Date('2100-01-01T00:00:00Z'))
      expect(await stored()).toEqual({ inputs: [], inline: 0 })
    })
  })
})
