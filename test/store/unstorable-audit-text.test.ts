import { describe, expect, it } from 'vitest'
import { insertMissingAudits } from '../../src/store/audit-replay.js'
import { insertAudits, listRulesetAudits, policyAuditByRequestId, rulesetAuditsByRequestId, type AuditRows } from '../../src/store/audits-repository.js'
import { resetTestDatabase, testDatabases, useTestDatabase } from '../support/databases.js'

const ALL_TIME = { start: new Date('0001-01-01T00:00:00.000Z'), end: new Date('9999-12-31T23:59:59.999Z') }
const AT = new Date('2026-11-21T07:00:00.000Z')

/** An admission review as a hostile or broken client could send it: every text column holds U+0000 or a lone surrogate. */
function hostileRows(): AuditRows {
  const input = JSON.stringify({ metadata: { name: 'a\u0000b', note: 'x\uD800y' } })
  const results = [{ ruleset: 'r', rule: 'echo', status: 'fail' as const, severity: 'low' as const, message: 'saw a\u0000b and x\uD800y and \uDC00' }]
  const stamp = { requestId: 'uid\u0000one', input, inputFormat: 'json' as const, updatedBy: 'eve\uD800\u0000', updatedAt: AT }
  return {
    policyAudits: [{ ...stamp, policyName: 'p', output: { policy: 'p', passed: false, results } }],
    rulesetAudits: [{ ...stamp, rulesetName: 'r\uDFFF', output: { ruleset: 'r\uDFFF', passed: false, results } }],
  }
}

describe.each(testDatabases())('audits holding text PostgreSQL cannot store ($kind)', ({ kind }) => {
  const database = useTestDatabase(kind)

  it('stores U+0000 and unpaired surrogates in every column as U+FFFD; a JSON input keeps them exactly as escapes', async () => {
    await resetTestDatabase(database.db)
    await insertAudits(database.db, hostileRows())
    const policy = await policyAuditByRequestId(database.db, 'uid\uFFFDone')
    expect(policy).toMatchObject({ requestId: 'uid\uFFFDone', policyName: 'p', updatedBy: 'eve\uFFFD\uFFFD' })
    expect(JSON.parse(policy?.input ?? '')).toEqual({ metadata: { name: 'a\u0000b', note: 'x\uD800y' } })
    expect(policy?.output.results[0]?.message).toBe('saw a\uFFFDb and x\uFFFDy and \uFFFD')
    const [ruleset] = await rulesetAuditsByRequestId(database.db, 'uid\uFFFDone')
    expect(ruleset).toMatchObject({ rulesetName: 'r\uFFFD', updatedBy: 'eve\uFFFD\uFFFD' })
    expect(ruleset?.output.results[0]?.message).toBe('saw a\uFFFDb and x\uFFFDy and \uFFFD')
    expect(await listRulesetAudits(database.db, { name: 'r\uFFFD', ...ALL_TIME, page: 1, pageSize: 10 })).toHaveLength(1)
  })

  it('replaces raw U+0000 and lone surrogates in input text that is not escaped JSON', async () => {
    await resetTestDatabase(database.db)
    const rows = hostileRows()
    const raw = 'name: a\u0000b\nnote: x\uD800y\n'
    await insertAudits(database.db, { policyAudits: rows.policyAudits.map((row) => ({ ...row, input: raw, inputFormat: 'yaml' })), rulesetAudits: [] })
    expect((await policyAuditByRequestId(database.db, 'uid\uFFFDone'))?.input).toBe('name: a\uFFFDb\nnote: x\uFFFDy\n')
  })

  it('replays such rows once: a second replay finds them stored under their stored request id', async () => {
    await resetTestDatabase(database.db)
    expect(await insertMissingAudits(database.db, hostileRows())).toEqual({ inserted: 2, skipped: 0 })
    expect(await insertMissingAudits(database.db, hostileRows())).toEqual({ inserted: 0, skipped: 2 })
    expect(await rulesetAuditsByRequestId(database.db, 'uid\uFFFDone')).toHaveLength(1)
  })
})
