import { describe, expect, it } from 'vitest'
import { idlePolicies, idlePolicyCandidates, type PolicyDefinition } from '../../src/recommendations/idle-policy.js'
import { WEEK } from './window.js'

const policies: PolicyDefinition[] = [
  { name: 'busy', rulesets: ['a'], createdAt: '2026-01-01T00:00:00.000Z' },
  { name: 'forgotten', rulesets: ['a'], createdAt: '2026-01-01T00:00:00.000Z' },
  { name: 'never-ran', rulesets: ['a'], createdAt: '2026-11-14T12:00:00.000Z' },
  { name: 'brand-new', rulesets: ['a'], createdAt: '2026-11-20T00:00:00.000Z' },
]

describe('idle-policy', () => {
  const policyAudits = new Map([['busy', 3]])

  it('asks only about policies without audits that existed for the whole window', () => {
    expect(idlePolicyCandidates(policies, policyAudits, WEEK)).toEqual(['forgotten', 'never-ran'])
  })

  it('names each idle policy with its last audit, or none', () => {
    const lastAudits = new Map<string, Date | null>([
      ['forgotten', new Date('2026-10-02T08:00:00.000Z')],
      ['never-ran', null],
    ])
    expect(idlePolicies(policies, { policyAudits, lastAudits }, WEEK)).toEqual([
      {
        id: 'idle-policy:forgotten',
        type: 'idle-policy',
        target: { kind: 'policy', name: 'forgotten' },
        message:
          'Policy "forgotten" was not evaluated in the last 7 days (last evaluated 2026-10-02T08:00:00.000Z): check that its match and its rulesets select resources that are evaluated, or delete it.',
        evidence: { audits: 0, lastAuditAt: '2026-10-02T08:00:00.000Z', createdAt: '2026-01-01T00:00:00.000Z' },
      },
      {
        id: 'idle-policy:never-ran',
        type: 'idle-policy',
        target: { kind: 'policy', name: 'never-ran' },
        message:
          'Policy "never-ran" was not evaluated in the last 7 days and has no audit at all: check that its match and its rulesets select resources that are evaluated, or delete it.',
        evidence: { audits: 0, lastAuditAt: null, createdAt: '2026-11-14T12:00:00.000Z' },
      },
    ])
  })

  it('says "the last day" for a one-day window', () => {
    const day = { days: 1, from: new Date('2026-11-20T12:00:00.000Z'), to: WEEK.to }
    const [idle] = idlePolicies([policies[1] as PolicyDefinition], { policyAudits: new Map(), lastAudits: new Map([['forgotten', null]]) }, day)
    expect(idle?.message).toMatch(/^Policy "forgotten" was not evaluated in the last day and has no audit at all/)
  })
})
