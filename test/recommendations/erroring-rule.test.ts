import { describe, expect, it } from 'vitest'
import { erroringRules } from '../../src/recommendations/erroring-rule.js'
import type { RuleResultScan, RulesetWithRules } from '../../src/recommendations/rule-results.js'
import { WEEK } from './window.js'

const rulesets: RulesetWithRules[] = [
  { name: 'pods', updatedAt: '2026-11-10T00:00:00.000Z', rules: [{ name: 'team-label' }, { name: 'limits' }] },
  { name: 'changed', updatedAt: '2026-11-21T00:00:00.000Z', rules: [{ name: 'probe' }] },
]

const scan: RuleResultScan = {
  scannedAudits: 42,
  sampled: false,
  countedFrom: WEEK.from,
  tallies: [
    { ruleset: 'pods', rule: 'team-label', status: 'error', audits: 3, lastAt: new Date('2026-11-20T10:00:00.000Z'), latestMessage: 'no such key: labels' },
    { ruleset: 'pods', rule: 'limits', status: 'error', audits: 9, lastAt: new Date('2026-11-21T09:00:00.000Z'), latestMessage: null },
    { ruleset: 'pods', rule: 'limits', status: 'fail', audits: 30, lastAt: new Date('2026-11-21T09:00:00.000Z'), latestMessage: 'limits required' },
    // Deleted since: nothing to fix.
    { ruleset: 'pods', rule: 'old-rule', status: 'error', audits: 50, lastAt: new Date('2026-11-21T09:00:00.000Z'), latestMessage: 'boom' },
    // Last error before the ruleset's last change, which may have fixed it.
    { ruleset: 'changed', rule: 'probe', status: 'error', audits: 5, lastAt: new Date('2026-11-20T23:59:59.999Z'), latestMessage: 'boom' },
  ],
}

describe('erroring-rule', () => {
  it('lists rules with error results, most first, with their latest message and the policies applying them', () => {
    const policies = new Map([['pods', ['prod', 'staging']]])
    expect(erroringRules(rulesets, { scan, rulesetAudits: new Map([['pods', 200]]), policiesByRuleset: policies }, WEEK)).toEqual([
      {
        id: 'erroring-rule:pods/limits',
        type: 'erroring-rule',
        target: { kind: 'rule', name: 'limits', ruleset: 'pods' },
        message: 'Rule "limits" of ruleset "pods" ended in error in 9 evaluations in the last 7 days: fix its expressions so they judge every input they match.',
        evidence: {
          errors: 9,
          rulesetAudits: 200,
          lastErrorAt: '2026-11-21T09:00:00.000Z',
          latestMessage: null,
          policies: ['prod', 'staging'],
          countedFrom: '2026-11-14T12:00:00.000Z',
          sampled: false,
          scannedAudits: 42,
        },
      },
      {
        id: 'erroring-rule:pods/team-label',
        type: 'erroring-rule',
        target: { kind: 'rule', name: 'team-label', ruleset: 'pods' },
        message:
          'Rule "team-label" of ruleset "pods" ended in error in 3 evaluations in the last 7 days (latest: no such key: labels): fix its expressions so they judge every input they match.',
        evidence: {
          errors: 3,
          rulesetAudits: 200,
          lastErrorAt: '2026-11-20T10:00:00.000Z',
          latestMessage: 'no such key: labels',
          policies: ['prod', 'staging'],
          countedFrom: '2026-11-14T12:00:00.000Z',
          sampled: false,
          scannedAudits: 42,
        },
      },
    ])
  })

  it('says when the counts come from the newest failed audits only', () => {
    const sampled = { ...scan, sampled: true, countedFrom: new Date('2026-11-19T00:00:00.000Z') }
    const [first] = erroringRules(rulesets, { scan: sampled, rulesetAudits: new Map(), policiesByRuleset: new Map() }, WEEK)
    expect(first?.evidence).toMatchObject({ sampled: true, countedFrom: '2026-11-19T00:00:00.000Z', rulesetAudits: 0, policies: [] })
  })
})
