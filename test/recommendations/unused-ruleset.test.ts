import { describe, expect, it } from 'vitest'
import type { Policy } from '../../src/engine/index.js'
import { unusedRulesets, type RulesetDefinition } from '../../src/recommendations/unused-ruleset.js'
import { WEEK } from './window.js'

const rule = { name: 'r', validate: { cel: [{ expression: 'true' }] } }

const rulesets: RulesetDefinition[] = [
  { name: 'by-name', labels: {}, rules: [rule] },
  { name: 'by-selector', labels: { team: 'payments' }, rules: [rule] },
  { name: 'direct-only', labels: { team: 'search' }, rules: [rule, rule] },
  { name: 'orphan', rules: [rule] },
]

const policies: Policy[] = [
  { name: 'named', rulesets: ['by-name'] },
  { name: 'selected', rulesetSelector: { matchLabels: { team: 'payments' } } },
]

describe('unused-ruleset', () => {
  it('lists rulesets no policy applies by name or selector, with their direct evaluations', () => {
    expect(unusedRulesets(policies, rulesets, new Map([['direct-only', 12], ['by-name', 40]]), WEEK)).toEqual([
      {
        id: 'unused-ruleset:direct-only',
        type: 'unused-ruleset',
        target: { kind: 'ruleset', name: 'direct-only' },
        message: 'No policy applies ruleset "direct-only" by name or by rulesetSelector (evaluated directly 12 times in the last 7 days): add it to a policy or delete it.',
        evidence: { policies: 0, rules: 2, rulesetAudits: 12 },
      },
      {
        id: 'unused-ruleset:orphan',
        type: 'unused-ruleset',
        target: { kind: 'ruleset', name: 'orphan' },
        message: 'No policy applies ruleset "orphan" by name or by rulesetSelector and was not evaluated in the last 7 days: add it to a policy or delete it.',
        evidence: { policies: 0, rules: 1, rulesetAudits: 0 },
      },
    ])
  })

  it('counts a selector matching every ruleset as using them all', () => {
    expect(unusedRulesets([{ name: 'all', rulesetSelector: {} }], rulesets, new Map(), WEEK)).toEqual([])
  })
})
