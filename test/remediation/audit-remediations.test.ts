import { describe, expect, it } from 'vitest'
import { compileRuleset, type CompiledRuleset, type Rule, type RuleResult, type Ruleset } from '../../src/engine/index.js'
import {
  auditRemediations,
  type AuditedPolicyEvaluation,
  type AuditedRulesetEvaluation,
  type CurrentRuleset,
} from '../../src/remediation/audit-remediations.js'

const AUDITED_AT = '2026-11-21T10:00:00.000Z'
const BEFORE = '2026-11-21T09:00:00.000Z'
const AFTER = '2026-11-21T11:00:00.000Z'

const noLatest: Rule = {
  name: 'no-latest',
  severity: 'high',
  match: { kinds: ['Pod'] },
  validate: { cel: [{ expression: "object.spec.containers.all(c, !c.image.endsWith(':latest'))", message: 'images must be pinned' }] },
}
const teamLabel: Rule = {
  name: 'team-label',
  validate: { cel: [{ expression: "has(object.metadata.labels) && 'team' in object.metadata.labels", message: 'a team label is required' }] },
  remediation: 'Add a team label.',
}

const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' }, spec: { containers: [{ name: 'web', image: 'nginx:latest' }] } }
const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', labels: { team: 'a' } },
  spec: { template: { metadata: {}, spec: { containers: [{ name: 'web', image: 'nginx:latest' }] } } },
}

const failures = {
  noLatest: { ruleset: 'pods', rule: 'no-latest', status: 'fail', severity: 'high', message: 'images must be pinned' } satisfies RuleResult,
  teamLabel: { ruleset: 'pods', rule: 'team-label', status: 'fail', severity: 'medium', message: 'a team label is required', remediation: 'Add a team label.' } satisfies RuleResult,
}

function rulesetAudit(results: RuleResult[], input: unknown = pod, inputFormat = 'json', rulesetName = 'pods'): AuditedRulesetEvaluation {
  return { rulesetName, input: typeof input === 'string' ? input : JSON.stringify(input), inputFormat, output: { ruleset: rulesetName, passed: results.length === 0, results }, updatedAt: AUDITED_AT }
}

/** The catalog's part: current rulesets by name, compiled. */
function current(rulesets: (Ruleset & { version: number; updatedAt: string })[]) {
  const compiled = new Map<string, CompiledRuleset>()
  return {
    ruleset: (name: string) => rulesets.find((ruleset) => ruleset.name === name),
    compiled: (ruleset: CurrentRuleset) => {
      const known = compiled.get(ruleset.name) ?? compileRuleset(ruleset)
      compiled.set(ruleset.name, known)
      return known
    },
  }
}

const pods = { name: 'pods', version: 1, updatedAt: BEFORE, rules: [noLatest, teamLabel] }

describe('auditRemediations', () => {
  it('gives each failure its remediation and the fields the current rule finds, once per rule', () => {
    const audit = rulesetAudit([failures.noLatest, failures.teamLabel])
    // One admission review judged by two policies audits the shared ruleset twice.
    const policyAudits: AuditedPolicyEvaluation[] = [
      { policyName: 'deny', output: { policy: 'deny', passed: false, results: [failures.noLatest, failures.teamLabel] }, updatedAt: AUDITED_AT },
      { policyName: 'warn', output: { policy: 'warn', passed: false, results: [failures.noLatest, failures.teamLabel] }, updatedAt: AUDITED_AT },
    ]
    expect(auditRemediations('uid-1', { policyAudits, rulesetAudits: [audit, audit] }, current([pods]))).toEqual({
      requestId: 'uid-1',
      policies: [
        { policy: 'deny', passed: false, auditedAt: AUDITED_AT },
        { policy: 'warn', passed: false, auditedAt: AUDITED_AT },
      ],
      rulesets: [{ ruleset: 'pods', passed: false, auditedAt: AUDITED_AT, state: 'unchanged', version: 1, updatedAt: BEFORE }],
      remediations: [
        {
          ...failures.noLatest,
          remediation: 'Make images be pinned.',
          derived: true,
          currentStatus: 'fail',
          fields: [{ path: 'spec.containers[0].image', actual: 'nginx:latest', requirement: 'must not end with ":latest"' }],
        },
        {
          ...failures.teamLabel,
          remediation: 'Add a team label.',
          derived: false,
          currentStatus: 'fail',
          fields: [{ path: 'metadata.labels', requirement: 'must be set' }],
        },
      ],
    })
  })

  it('names fields in the controller that was submitted when the rule judged its pod template, from YAML input too', () => {
    const result = { ...failures.noLatest, autogen: 'Deployment' }
    const yamlInput = `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, labels: {team: a}}\nspec:\n  template:\n    spec:\n      containers: [{name: web, image: "nginx:latest"}]\n`
    for (const [input, format] of [[deployment, 'json'], [yamlInput, 'yaml']] as const) {
      const { remediations } = auditRemediations('uid-2', { policyAudits: [], rulesetAudits: [rulesetAudit([result], input, format)] }, current([pods]))
      expect(remediations.map((entry) => [entry.autogen, entry.fields])).toEqual([
        ['Deployment', [{ path: 'spec.template.spec.containers[0].image', actual: 'nginx:latest', requirement: 'must not end with ":latest"' }]],
      ])
    }
  })

  it('says when the ruleset changed since the audit, and judges with the current definition', () => {
    const relaxed = { ...pods, version: 2, updatedAt: AFTER, rules: [{ ...noLatest, validate: { cel: [{ expression: 'true' }] } }, teamLabel] }
    const answer = auditRemediations('uid-3', { policyAudits: [], rulesetAudits: [rulesetAudit([failures.noLatest, failures.teamLabel])] }, current([relaxed]))
    expect(answer.rulesets).toEqual([{ ruleset: 'pods', passed: false, auditedAt: AUDITED_AT, state: 'changed', version: 2, updatedAt: AFTER }])
    expect(answer.remediations.map((entry) => [entry.rule, entry.currentStatus, entry.fields.length])).toEqual([
      ['no-latest', 'pass', 0],
      ['team-label', 'fail', 1],
    ])
  })

  it('keeps the audited remediation when the ruleset or the rule is gone, and knows no fields then', () => {
    const deleted = auditRemediations('uid-4', { policyAudits: [], rulesetAudits: [rulesetAudit([failures.noLatest, failures.teamLabel])] }, current([]))
    expect(deleted.rulesets).toEqual([{ ruleset: 'pods', passed: false, auditedAt: AUDITED_AT, state: 'deleted' }])
    expect(deleted.remediations.map(({ rule, remediation, derived, currentStatus, fields }) => ({ rule, remediation, derived, currentStatus, fields }))).toEqual([
      { rule: 'no-latest', remediation: 'Make images be pinned.', derived: true, currentStatus: 'unknown', fields: [] },
      { rule: 'team-label', remediation: 'Add a team label.', derived: false, currentStatus: 'unknown', fields: [] },
    ])
    const withoutRule = auditRemediations('uid-5', { policyAudits: [], rulesetAudits: [rulesetAudit([failures.teamLabel])] }, current([{ ...pods, rules: [noLatest] }]))
    expect(withoutRule.remediations.map((entry) => [entry.remediation, entry.currentStatus])).toEqual([['Add a team label.', 'unknown']])
  })

  it('knows no fields for an input it cannot read, and keeps errors without fields', () => {
    const error: RuleResult = { ruleset: 'pods', rule: 'no-latest', status: 'error', severity: 'high', message: 'expression failed' }
    const answer = auditRemediations('uid-6', { policyAudits: [], rulesetAudits: [rulesetAudit([error], '{not json', 'json')] }, current([pods]))
    expect(answer.remediations).toEqual([{ ...error, remediation: 'Make images be pinned.', derived: true, currentStatus: 'unknown', fields: [] }])
  })

  it('turns a policy\'s missing ruleset into an instruction about the policy', () => {
    const missing: RuleResult = { ruleset: 'gone', rule: '', status: 'error', severity: 'high', message: 'ruleset "gone" does not exist' }
    const answer = auditRemediations('uid-7', { policyAudits: [{ policyName: 'prod', output: { policy: 'prod', passed: false, results: [missing] }, updatedAt: AUDITED_AT }], rulesetAudits: [] }, current([]))
    expect(answer.remediations).toEqual([
      { ...missing, remediation: 'Create the ruleset "gone", or remove it from the policy "prod".', derived: true, currentStatus: 'unknown', fields: [] },
    ])
  })
})
