import { describe, expect, it } from 'vitest'
import type { Policy } from '../../src/engine/index.js'
import { READY_TO_DENY_MIN_AUDITS, readyToDeny, readyToDenyCandidates } from '../../src/recommendations/ready-to-deny.js'
import { WEEK } from './window.js'

const policies: Policy[] = [
  { name: 'audit-quiet', rulesets: ['a'] },
  { name: 'warn-quiet', rulesets: ['a'], action: 'Warn' },
  { name: 'deny-quiet', rulesets: ['a'], action: 'Deny' },
  { name: 'audit-off-webhook', rulesets: ['a'], admission: false },
  { name: 'audit-rare', rulesets: ['a'], action: 'Audit' },
  { name: 'audit-failing', rulesets: ['a'], action: 'Audit' },
]

const audits = new Map([
  ['audit-quiet', 120],
  ['warn-quiet', READY_TO_DENY_MIN_AUDITS],
  ['deny-quiet', 500],
  ['audit-off-webhook', 500],
  ['audit-rare', READY_TO_DENY_MIN_AUDITS - 1],
  ['audit-failing', 300],
])

describe('ready-to-deny', () => {
  it('asks about Audit and Warn policies the webhook applies that were audited often enough', () => {
    expect(readyToDenyCandidates(policies, audits)).toEqual(['audit-quiet', 'warn-quiet', 'audit-failing'])
  })

  it('recommends Deny for the candidates without a failed audit, with the figures', () => {
    expect(readyToDeny(policies, { policyAudits: audits, failing: new Set(['audit-failing']) }, WEEK)).toEqual([
      {
        id: 'ready-to-deny:audit-quiet',
        type: 'ready-to-deny',
        target: { kind: 'policy', name: 'audit-quiet' },
        message: 'Policy "audit-quiet" (action Audit) passed all 120 evaluations in the last 7 days: set its action to Deny to enforce it.',
        evidence: { action: 'Audit', audits: 120, failures: 0, minAudits: READY_TO_DENY_MIN_AUDITS, since: '2026-11-14T12:00:00.000Z', existingObjects: null, existingViolations: null },
      },
      {
        id: 'ready-to-deny:warn-quiet',
        type: 'ready-to-deny',
        target: { kind: 'policy', name: 'warn-quiet' },
        message: `Policy "warn-quiet" (action Warn) passed all ${READY_TO_DENY_MIN_AUDITS} evaluations in the last 7 days: set its action to Deny to enforce it.`,
        evidence: { action: 'Warn', audits: READY_TO_DENY_MIN_AUDITS, failures: 0, minAudits: READY_TO_DENY_MIN_AUDITS, since: '2026-11-14T12:00:00.000Z', existingObjects: null, existingViolations: null },
      },
    ])
  })

  it('recommends nothing without audits', () => {
    expect(readyToDenyCandidates(policies, new Map())).toEqual([])
    expect(readyToDeny(policies, { policyAudits: new Map(), failing: new Set() }, WEEK)).toEqual([])
  })

  it('counts the objects already running: a policy some of them fail is not ready, one none fails says so', () => {
    const cluster = new Map([
      ['audit-quiet', { scanned: 40, failing: 0, worst: [] }],
      ['warn-quiet', { scanned: 12, failing: 2, worst: ['v1/Pod/shop/a', 'v1/Pod/shop/b'] }],
    ])
    const found = readyToDeny(policies, { policyAudits: audits, failing: new Set(['audit-failing']), cluster }, WEEK)
    expect(found.map((finding) => finding.target.name)).toEqual(['audit-quiet'])
    expect(found[0]?.message).toBe('Policy "audit-quiet" (action Audit) passed all 120 evaluations in the last 7 days, and none of the 40 objects already running fails it: set its action to Deny to enforce it.')
    expect(found[0]?.evidence).toMatchObject({ existingObjects: 40, existingViolations: 0 })
  })
})

