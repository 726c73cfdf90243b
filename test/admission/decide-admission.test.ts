import { describe, expect, it } from 'vitest'
import { admissionWarnings, MAX_WARNINGS } from '../../src/admission/admission-warnings.js'
import { decideAdmission } from '../../src/admission/decide-admission.js'
import { denialMessage } from '../../src/admission/denial-message.js'
import type { PolicyJudgement } from '../../src/admission/judge-request.js'
import { truncateText } from '../../src/admission/truncate-text.js'
import type { PolicyAction, RuleResult } from '../../src/engine/index.js'

function result(rule: string, status: RuleResult['status'], message?: string): RuleResult {
  return { ruleset: 'set', rule, status, severity: 'medium', ...(message === undefined ? {} : { message }) }
}

function judgement(policy: string, action: PolicyAction, results: RuleResult[], ignoreErrors = false): PolicyJudgement {
  const passed = !results.some((r) => r.status === 'fail' || (r.status === 'error' && !ignoreErrors))
  return { policy, action, ignoreErrors, output: { policy, passed, results }, rulesets: [{ ruleset: 'set', passed, results }] }
}

describe('decideAdmission', () => {
  it('allows with nothing to say when every policy passed', () => {
    expect(decideAdmission([judgement('p', 'Deny', [])])).toEqual({ allowed: true, warnings: [], auditAnnotations: { policies: 'p' } })
  })

  it('denies for Deny failures, warns for Warn failures and keeps Audit failures for the annotations', () => {
    const decision = decideAdmission([
      judgement('audit', 'Audit', [result('a', 'fail', 'audited')]),
      judgement('deny', 'Deny', [result('d1', 'fail', 'first'), result('d2', 'fail', 'second')]),
      judgement('warn', 'Warn', [result('w', 'fail', 'careful')]),
    ])
    expect(decision).toEqual({
      allowed: false,
      message: 'deny/set/d1: first\ndeny/set/d2: second',
      warnings: ['warn/set/w: careful'],
      auditAnnotations: { policies: 'audit,deny,warn', 'failed-rules': 'audit/set/a,deny/set/d1,deny/set/d2,warn/set/w' },
    })
  })

  it('counts a rule error under failurePolicy Fail, not under Ignore', () => {
    const error = result('broken', 'error', 'expression failed: no such key')
    expect(decideAdmission([judgement('strict', 'Deny', [error])])).toMatchObject({ allowed: false, message: 'strict/set/broken: expression failed: no such key' })
    expect(decideAdmission([judgement('lenient', 'Deny', [error], true)])).toEqual({ allowed: true, warnings: [], auditAnnotations: { policies: 'lenient' } })
    expect(decideAdmission([judgement('lenient', 'Warn', [error], true)]).warnings).toEqual([])
  })

  it('puts every message on one line and names a rule without a message', () => {
    const decision = decideAdmission([judgement('deny', 'Deny', [result('multi', 'fail', 'line one\n\tline two\r\n'), result('silent', 'fail')])])
    expect(decision.message).toBe('deny/set/multi: line one line two\ndeny/set/silent: the rule failed')
  })
})

describe('warnings', () => {
  it('are cut to 120 characters with an ellipsis, counting code points and never splitting one', () => {
    const [warning] = admissionWarnings([{ policy: 'p', result: result('r', 'fail', '\u{1F600}'.repeat(200)) }])
    const points = Array.from(warning ?? '')
    expect(points).toHaveLength(120)
    expect(points.at(-1)).toBe('\u2026')
    expect(points.slice(9, 119).every((point) => point === '\u{1F600}')).toBe(true)
    expect(warning?.startsWith('p/set/r: ')).toBe(true)
  })

  it('are listed at most MAX_WARNINGS times, the last one counting the rest, without duplicates', () => {
    const failures = Array.from({ length: 25 }, (_, index) => ({ policy: 'p', result: result(`r${index}`, 'fail', 'no') }))
    const warnings = admissionWarnings([...failures, ...failures])
    expect(warnings).toHaveLength(MAX_WARNINGS)
    expect(warnings.at(-1)).toBe('and 6 more Verdict warnings (see the audit of this request)')
    expect(warnings.every((warning) => Array.from(warning).length <= 120)).toBe(true)
  })
})

describe('denial messages', () => {
  it('list at most 20 rules, then count the rest', () => {
    const lines = denialMessage(Array.from({ length: 25 }, (_, index) => ({ policy: 'p', result: result(`r${index}`, 'fail', 'no') }))).split('\n')
    expect(lines).toHaveLength(20)
    expect(lines[0]).toBe('p/set/r0: no')
    expect(lines.at(-1)).toBe('and 6 more failed rules (see the audit of this request)')
  })
})

describe('truncateText', () => {
  it('leaves short text alone', () => {
    expect(truncateText('short', 120)).toBe('short')
    expect(truncateText('x'.repeat(120), 120)).toBe('x'.repeat(120))
    expect(truncateText('x'.repeat(121), 120)).toBe(`${'x'.repeat(119)}\u2026`)
  })
})
