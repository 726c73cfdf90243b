import { beforeAll, describe, expect, it } from 'vitest'
import type { RuleResult } from '../../src/engine/index.js'
import { insertAudits, type PolicyAuditRow, type RulesetAuditRow } from '../../src/store/audits-repository.js'
import { auditCountsByName, lastPolicyAudits, policiesWithFailures, ruleResultFigures } from '../../src/store/recommendation-figures.js'
import { resetTestDatabase, testDatabases, useTestDatabase } from '../support/databases.js'

/**
 * A window whose ends fall inside minutes, so counts use hour and minute counters and the rows
 * of the partial minutes at both edges.
 */
const WINDOW = { from: new Date('2026-11-14T12:00:30.500Z'), to: new Date('2026-11-21T12:00:15.250Z') }
const ms = (iso: string) => new Date(iso)
const before = (date: Date, by = 1) => new Date(date.getTime() - by)
const after = (date: Date, by = 1) => new Date(date.getTime() + by)

let sequence = 0

function policyAudit(policyName: string, updatedAt: Date, passed = true): PolicyAuditRow {
  sequence += 1
  return {
    requestId: `p-${sequence}`,
    policyName,
    input: '{"kind":"Pod"}',
    inputFormat: 'json',
    output: { policy: policyName, passed, results: [] },
    updatedBy: 'alice@example.com',
    updatedAt,
  }
}

function result(rule: string, status: 'fail' | 'error', message?: string): RuleResult {
  return { ruleset: 'ignored-here', rule, status, severity: 'medium', ...(message === undefined ? {} : { message }) }
}

function rulesetAudit(rulesetName: string, updatedAt: Date, results: RuleResult[] = []): RulesetAuditRow {
  sequence += 1
  return {
    requestId: `r-${sequence}`,
    rulesetName,
    input: '{"kind":"Pod"}',
    inputFormat: 'json',
    output: { ruleset: rulesetName, passed: results.length === 0, results: results.map((entry) => ({ ...entry, ruleset: rulesetName })) },
    updatedBy: 'alice@example.com',
    updatedAt,
  }
}

describe.each(testDatabases())('recommendation figures ($kind)', ({ kind }) => {
  const database = useTestDatabase(kind)

  describe('audit counts, failures and last audits', () => {
    beforeAll(async () => {
      await resetTestDatabase(database.db)
      await insertAudits(database.db, {
        policyAudits: [
          // Edges: the first and last millisecond of the window count, the ones outside do not.
          policyAudit('busy', before(WINDOW.from)),
          policyAudit('busy', WINDOW.from),
          policyAudit('busy', ms('2026-11-14T12:00:59.999Z')),
          policyAudit('busy', ms('2026-11-14T12:01:00.000Z')),
          policyAudit('busy', ms('2026-11-17T03:15:00.000Z')),
          policyAudit('busy', ms('2026-11-21T12:00:00.000Z')),
          policyAudit('busy', WINDOW.to),
          policyAudit('busy', after(WINDOW.to)),
          policyAudit('quiet', ms('2026-11-18T00:00:00.000Z')),
          policyAudit('failing', ms('2026-11-18T00:00:00.000Z'), false),
          policyAudit('failing', ms('2026-11-19T00:00:00.000Z')),
          policyAudit('failed-long-ago', ms('2026-11-01T00:00:00.000Z'), false),
          policyAudit('failed-long-ago', ms('2026-11-19T00:00:00.000Z')),
          policyAudit('failed-after', after(WINDOW.to), false),
          policyAudit('failed-after', ms('2026-11-19T00:00:00.000Z')),
          policyAudit('old', ms('2026-10-02T08:00:00.000Z')),
          policyAudit('old', ms('2026-09-02T08:00:00.000Z')),
        ],
        rulesetAudits: [rulesetAudit('pods', ms('2026-11-18T00:00:00.000Z')), rulesetAudit('pods', before(WINDOW.from)), rulesetAudit('images', WINDOW.to)],
      })
    })

    it('counts audits per name over the window, both ends included', async () => {
      expect(await auditCountsByName(database.db, 'policy', WINDOW)).toEqual(
        new Map([
          ['busy', 6],
          ['failed-after', 1],
          ['failed-long-ago', 1],
          ['failing', 2],
          ['quiet', 1],
        ]),
      )
      expect(await auditCountsByName(database.db, 'ruleset', WINDOW)).toEqual(new Map([['images', 1], ['pods', 1]]))
    })

    it('counts a window shorter than a minute from the rows alone', async () => {
      const instant = { from: WINDOW.to, to: WINDOW.to }
      expect(await auditCountsByName(database.db, 'policy', instant)).toEqual(new Map([['busy', 1]]))
    })

    it('tells which policies failed in the window', async () => {
      const names = ['busy', 'quiet', 'failing', 'failed-long-ago', 'failed-after', 'unknown']
      expect(await policiesWithFailures(database.db, names, WINDOW)).toEqual(new Set(['failing']))
      expect(await policiesWithFailures(database.db, [], WINDOW)).toEqual(new Set())
    })

    it('finds the newest audit of each policy at any time, or null', async () => {
      expect(await lastPolicyAudits(database.db, ['old', 'unknown', 'busy'])).toEqual(
        new Map([
          ['old', ms('2026-10-02T08:00:00.000Z')],
          ['unknown', null],
          ['busy', after(WINDOW.to)],
        ]),
      )
      expect(await lastPolicyAudits(database.db, [])).toEqual(new Map())
    })
  })

  describe('rule results', () => {
    beforeAll(async () => {
      await resetTestDatabase(database.db)
      await insertAudits(database.db, {
        policyAudits: [],
        rulesetAudits: [
          rulesetAudit('pods', ms('2026-11-15T00:00:00.000Z'), [result('no-latest', 'fail', 'pin nginx:latest'), result('team', 'error', 'no such key: labels')]),
          rulesetAudit('pods', ms('2026-11-16T00:00:00.000Z'), [result('no-latest', 'fail', 'pin redis:latest')]),
          rulesetAudit('pods', ms('2026-11-17T00:00:00.000Z'), [result('no-latest', 'fail', 'pin a:latest')]),
          rulesetAudit('images', ms('2026-11-18T00:00:00.000Z'), [result('registry', 'fail')]),
          rulesetAudit('pods', ms('2026-11-18T00:00:00.000Z')),
          rulesetAudit('pods', before(WINDOW.from), [result('no-latest', 'fail', 'too old')]),
          rulesetAudit('pods', after(WINDOW.to), [result('team', 'error', 'too new')]),
        ],
      })
    })

    it('tallies fail and error results per rule from the failed audits of the window', async () => {
      expect(await ruleResultFigures(database.db, WINDOW)).toEqual({
        tallies: [
          { ruleset: 'images', rule: 'registry', status: 'fail', audits: 1, lastAt: ms('2026-11-18T00:00:00.000Z'), latestMessage: null },
          { ruleset: 'pods', rule: 'no-latest', status: 'fail', audits: 3, lastAt: ms('2026-11-17T00:00:00.000Z'), latestMessage: 'pin a:latest' },
          { ruleset: 'pods', rule: 'team', status: 'error', audits: 1, lastAt: ms('2026-11-15T00:00:00.000Z'), latestMessage: 'no such key: labels' },
        ],
        scannedAudits: 4,
        sampled: false,
        countedFrom: WINDOW.from,
      })
    })

    it('reads at most the limit, newest first, and says where counting started', async () => {
      expect(await ruleResultFigures(database.db, WINDOW, 2)).toEqual({
        tallies: [
          { ruleset: 'images', rule: 'registry', status: 'fail', audits: 1, lastAt: ms('2026-11-18T00:00:00.000Z'), latestMessage: null },
          { ruleset: 'pods', rule: 'no-latest', status: 'fail', audits: 1, lastAt: ms('2026-11-17T00:00:00.000Z'), latestMessage: 'pin a:latest' },
        ],
        scannedAudits: 2,
        sampled: true,
        countedFrom: ms('2026-11-17T00:00:00.000Z'),
      })
      const exact = await ruleResultFigures(database.db, WINDOW, 4)
      expect({ scanned: exact.scannedAudits, sampled: exact.sampled, countedFrom: exact.countedFrom }).toEqual({ scanned: 4, sampled: false, countedFrom: WINDOW.from })
    })

    it('answers an empty tally for a window without failures', async () => {
      const empty = { from: ms('2020-01-01T00:00:00.000Z'), to: ms('2020-01-08T00:00:00.000Z') }
      expect(await ruleResultFigures(database.db, empty)).toEqual({ tallies: [], scannedAudits: 0, sampled: false, countedFrom: empty.from })
    })
  })
})
