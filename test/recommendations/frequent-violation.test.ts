import { describe, expect, it } from 'vitest'
import { FREQUENT_VIOLATIONS, frequentViolations } from '../../src/recommendations/frequent-violation.js'
import type { RuleResultScan, RuleTally, RulesetWithRules } from '../../src/recommendations/rule-results.js'
import { WEEK } from './window.js'

const at = new Date('2026-11-21T09:00:00.000Z')

function fail(ruleset: string, rule: string, audits: number, latestMessage: string | null = null): RuleTally {
  return { ruleset, rule, status: 'fail', audits, lastAt: at, latestMessage }
}

const rulesets: RulesetWithRules[] = [
  {
    name: 'pods',
    updatedAt: '2026-11-01T00:00:00.000Z',
    rules: [
      { name: 'no-latest', remediation: 'Pin every image to a version or digest.', message: 'images must be pinned' },
      { name: 'team-label', message: 'a team label is required' },
      { name: 'probes' },
    ],
  },
]

function scanOf(tallies: RuleTally[]): RuleResultScan {
  return { tallies, scannedAudits: 100, sampled: false, countedFrom: WEEK.from }
}

describe('frequent-violation', () => {
  it('lists the most failed rules with their share and remediation, else their message', () => {
    const scan = scanOf([
      fail('pods', 'team-label', 20),
      fail('pods', 'no-latest', 50),
      fail('pods', 'probes', 10, 'containers need probes'),
      // A rule since deleted still counts in the shares, but is not recommended.
      fail('pods', 'deleted', 20),
      { ruleset: 'pods', rule: 'no-latest', status: 'error', audits: 99, lastAt: at, latestMessage: 'boom' },
    ])
    expect(frequentViolations(rulesets, { scan, rulesetAudits: new Map([['pods', 400]]) }, WEEK)).toEqual([
      {
        id: 'frequent-violation:pods/no-latest',
        type: 'frequent-violation',
        target: { kind: 'rule', name: 'no-latest', ruleset: 'pods' },
        message: 'Rule "no-latest" of ruleset "pods" failed 50 times in the last 7 days (50% of rule failures). Remediation: Pin every image to a version or digest.',
        evidence: {
          failures: 50,
          share: 0.5,
          rulesetAudits: 400,
          lastFailedAt: '2026-11-21T09:00:00.000Z',
          remediation: 'Pin every image to a version or digest.',
          countedFrom: '2026-11-14T12:00:00.000Z',
          sampled: false,
          scannedAudits: 100,
        },
      },
      {
        id: 'frequent-violation:pods/team-label',
        type: 'frequent-violation',
        target: { kind: 'rule', name: 'team-label', ruleset: 'pods' },
        message: 'Rule "team-label" of ruleset "pods" failed 20 times in the last 7 days (20% of rule failures). The rule reports: a team label is required',
        evidence: {
          failures: 20,
          share: 0.2,
          rulesetAudits: 400,
          lastFailedAt: '2026-11-21T09:00:00.000Z',
          remediation: null,
          countedFrom: '2026-11-14T12:00:00.000Z',
          sampled: false,
          scannedAudits: 100,
        },
      },
      {
        id: 'frequent-violation:pods/probes',
        type: 'frequent-violation',
        target: { kind: 'rule', name: 'probes', ruleset: 'pods' },
        message: 'Rule "probes" of ruleset "pods" failed 10 times in the last 7 days (10% of rule failures). The rule reports: containers need probes',
        evidence: {
          failures: 10,
          share: 0.1,
          rulesetAudits: 400,
          lastFailedAt: '2026-11-21T09:00:00.000Z',
          remediation: null,
          countedFrom: '2026-11-14T12:00:00.000Z',
          sampled: false,
          scannedAudits: 100,
        },
      },
    ])
  })

  it(`keeps the top ${FREQUENT_VIOLATIONS}, ties by ruleset then rule`, () => {
    const many: RulesetWithRules = { name: 'many', updatedAt: '2026-11-01T00:00:00.000Z', rules: Array.from({ length: 12 }, (_, i) => ({ name: `r${String(i).padStart(2, '0')}` })) }
    // r00 to r04 and r05 all failed 5 times: the names decide among them.
    const scan = scanOf(many.rules.map((rule, i) => fail('many', rule.name, i < 5 ? 5 : i)))
    const found = frequentViolations([many], { scan, rulesetAudits: new Map() }, WEEK)
    expect(found.map((item) => item.target.name)).toEqual(['r11', 'r10', 'r09', 'r08', 'r07', 'r06', 'r00', 'r01', 'r02', 'r03'])
  })
})
