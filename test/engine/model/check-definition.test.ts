import { describe, expect, it } from 'vitest'
import { checkPolicySpec, checkRulesetSpec } from '../../../src/engine/model/check-definition.js'

const celRule = { name: 'r', validate: { cel: [{ expression: 'true' }] } }

describe('checkRulesetSpec', () => {
  it('accepts a minimal ruleset', () => {
    expect(checkRulesetSpec({ rules: [celRule] }, 'spec')).toEqual([])
  })

  it('names the field path of a wrong type', () => {
    const spec = { rules: [celRule, celRule, { name: 'c', validate: { cel: [{ expression: 42 }] } }] }
    expect(checkRulesetSpec(spec, 'spec')).toContainEqual({ path: 'spec.rules[2].validate.cel[0].expression', message: 'must be string' })
  })

  it('names unknown fields and missing ones', () => {
    expect(checkRulesetSpec({ rules: [{ ...celRule, validtae: {} }] }, 'spec')).toEqual([
      { path: 'spec.rules[0].validtae', message: 'unknown field "validtae"' },
    ])
    expect(checkRulesetSpec({ rules: [{ validate: { cel: [{ expression: 'true' }] } }] }, '')).toEqual([
      { path: 'rules[0].name', message: 'is required' },
    ])
  })

  it('refuses a body with many unknown fields, naming them (the validator reports only a few errors)', () => {
    const unknown = Object.fromEntries(Array.from({ length: 12 }, (_, index) => [`extra${index}`, index]))
    const problems = checkRulesetSpec({ rules: [celRule], ...unknown }, 'spec')
    expect(problems.length).toBeGreaterThan(0)
    expect(problems[0]).toEqual({ path: 'spec.extra0', message: 'unknown field "extra0"' })
    expect(problems.every((problem) => /^spec\.extra\d+$/.test(problem.path) && problem.message.startsWith('unknown field'))).toBe(true)
    const policy = checkPolicySpec({ rulesets: ['a'], match: { kinds: 5 }, ...unknown }, 'spec')
    expect(policy.length).toBeGreaterThan(0)
  })

  it('joins the branches of a union into one message', () => {
    expect(checkRulesetSpec({ rules: [{ ...celRule, severity: 'urgent' }] }, 'spec')).toEqual([
      { path: 'spec.rules[0].severity', message: 'must be "info" or "low" or "medium" or "high" or "critical"' },
    ])
  })

  it('refuses a rule with two validate kinds or none', () => {
    const two = { name: 'two', validate: { cel: [{ expression: 'true' }], pattern: { spec: {} } } }
    expect(checkRulesetSpec({ rules: [two] }, 'spec')).toEqual([
      { path: 'spec.rules[0].validate', message: 'has cel and pattern; a rule validates in exactly one way' },
    ])
    expect(checkRulesetSpec({ rules: [{ name: 'none', validate: {} }] }, 'spec')).toEqual([
      { path: 'spec.rules[0].validate', message: 'needs exactly one of cel, pattern, anyPattern, deny, foreach, podSecurity' },
    ])
  })

  it('refuses duplicate rule names', () => {
    expect(checkRulesetSpec({ rules: [celRule, celRule] }, 'spec')).toEqual([
      { path: 'spec.rules[1].name', message: 'duplicate rule name "r" (also rules[0])' },
    ])
  })
})

describe('checkPolicySpec', () => {
  it('needs rulesets or a selector', () => {
    expect(checkPolicySpec({ action: 'Deny' }, 'spec')).toEqual([
      { path: 'spec.rulesets', message: 'a policy needs rulesets or a rulesetSelector' },
    ])
    expect(checkPolicySpec({ rulesets: ['a'], action: 'Deny' }, 'spec')).toEqual([])
    expect(checkPolicySpec({ rulesetSelector: { matchLabels: { team: 'x' } } }, 'spec')).toEqual([])
  })

  it('names a bad action', () => {
    expect(checkPolicySpec({ rulesets: ['a'], action: 'Block' }, 'spec')).toEqual([
      { path: 'spec.action', message: 'must be "Deny" or "Warn" or "Audit"' },
    ])
  })
})
