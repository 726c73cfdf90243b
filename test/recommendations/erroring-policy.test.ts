import { describe, expect, it } from 'vitest'
import type { Policy } from '../../src/engine/index.js'
import { erroringPolicies } from '../../src/recommendations/erroring-policy.js'
import { WEEK } from './window.js'

describe('erroring-policy', () => {
  const rulesets = [{ name: 'pods' }]

  it('names the rulesets a policy names that do not exist, and what its failurePolicy makes of that', () => {
    const policies: Policy[] = [
      { name: 'fine', rulesets: ['pods'] },
      { name: 'strict', rulesets: ['pods', 'gone', 'gone'] },
      { name: 'lenient', rulesets: ['gone', 'vanished'], failurePolicy: 'Ignore' },
    ]
    expect(erroringPolicies(policies, rulesets, new Map([['strict', 1]]), WEEK)).toEqual([
      {
        id: 'erroring-policy:strict',
        type: 'erroring-policy',
        target: { kind: 'policy', name: 'strict' },
        message:
          'Policy "strict" names a ruleset that does not exist (gone): every evaluation of it ends in error, so it fails every resource it matches (1 evaluation in the last 7 days). Create the ruleset or remove it from the policy.',
        evidence: { missingRulesets: ['gone'], audits: 1, failurePolicy: 'Fail' },
      },
      {
        id: 'erroring-policy:lenient',
        type: 'erroring-policy',
        target: { kind: 'policy', name: 'lenient' },
        message:
          'Policy "lenient" names rulesets that do not exist (gone, vanished): every evaluation of it ends in error, which its failurePolicy Ignore lets pass unchecked (0 evaluations in the last 7 days). Create the rulesets or remove them from the policy.',
        evidence: { missingRulesets: ['gone', 'vanished'], audits: 0, failurePolicy: 'Ignore' },
      },
    ])
  })
})
