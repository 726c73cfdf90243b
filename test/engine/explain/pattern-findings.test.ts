import { describe, expect, it } from 'vitest'
import { compileRuleset, explainRule, PreparedInput, type Rule } from '../../../src/engine/index.js'

function explain(rule: Rule, object: unknown) {
  const [compiled] = compileRuleset({ name: 'rs', rules: [rule] }).rules
  if (!compiled) throw new Error('no rule')
  return explainRule(compiled, new PreparedInput({ object }))
}

const pod = (spec: Record<string, unknown>, metadata: Record<string, unknown> = { name: 'web' }) => ({ apiVersion: 'v1', kind: 'Pod', metadata, spec })

const privileged: Rule = {
  name: 'privileged',
  match: { kinds: ['Pod'] },
  validate: { pattern: { spec: { containers: [{ '=(securityContext)': { '=(privileged)': 'false' } }] } } },
}

describe('explaining a failed pattern rule', () => {
  it('names the field it failed at, what was found and the compliant value', () => {
    expect(explain(privileged, pod({ containers: [{ name: 'a', securityContext: { privileged: true } }] }))).toEqual({
      status: 'fail',
      fields: [{ path: 'spec.containers[0].securityContext.privileged', actual: true, expected: false, requirement: 'must be "false"' }],
    })
  })

  it('names the field in the controller under autogen', () => {
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: { template: { spec: { containers: [{ name: 'a', securityContext: { privileged: true } }] } } },
    }
    expect(explain(privileged, deployment).fields.map((field) => field.path)).toEqual(['spec.template.spec.containers[0].securityContext.privileged'])
  })

  it('says what each kind of failure asks', () => {
    const rule = (pattern: unknown): Rule => ({ name: 'r', match: { kinds: ['Pod'] }, validate: { pattern } })
    expect(explain(rule({ metadata: { labels: { app: '?*' } } }), pod({}, { name: 'web', labels: { app: '' } })).fields).toEqual([
      { path: 'metadata.labels.app', actual: '', requirement: 'must be set and not empty' },
    ])
    expect(explain(rule({ spec: { 'X(hostNetwork)': 'null' } }), pod({ hostNetwork: true })).fields).toEqual([
      { path: 'spec.hostNetwork', actual: true, requirement: 'must not be set' },
    ])
    expect(explain(rule({ spec: { securityContext: { runAsNonRoot: true } } }), pod({})).fields).toEqual([{ path: 'spec.securityContext', requirement: 'must be set' }])
    expect(explain(rule({ spec: { containers: [{ image: '!*:latest' }] } }), pod({ containers: [{ image: 'nginx:latest' }] })).fields).toEqual([
      { path: 'spec.containers[0].image', actual: 'nginx:latest', requirement: 'must not match "*:latest"' },
    ])
    expect(explain(rule({ spec: { replicas: '>=2' } }), pod({ replicas: 1 })).fields).toEqual([{ path: 'spec.replicas', actual: 1, requirement: 'must match ">=2"' }])
    expect(explain(rule({ spec: { '^(containers)': [{ image: 'nginx:*' }] } }), pod({ containers: [{ image: 'redis' }] })).fields).toEqual([
      { path: 'spec.containers', requirement: 'at least one item must match the pattern' },
    ])
  })

  it('lists each failing alternative of an anyPattern rule, and nothing for a rule that passes or is skipped', () => {
    const nonRoot: Rule = {
      name: 'non-root',
      match: { kinds: ['Pod'] },
      validate: { anyPattern: [{ spec: { securityContext: { runAsNonRoot: true } } }, { spec: { containers: [{ securityContext: { runAsNonRoot: true } }] } }] },
    }
    expect(explain(nonRoot, pod({ containers: [{ name: 'a', securityContext: { runAsNonRoot: false } }] })).fields).toEqual([
      { path: 'spec.securityContext', requirement: 'must be set' },
      { path: 'spec.containers[0].securityContext.runAsNonRoot', actual: false, expected: true, requirement: 'must be true' },
    ])
    expect(explain(nonRoot, pod({ securityContext: { runAsNonRoot: true } }))).toEqual({ status: 'pass', fields: [] })
    const conditional: Rule = { name: 'c', match: { kinds: ['Pod'] }, validate: { pattern: { spec: { '(hostNetwork)': true, hostPID: false } } } }
    expect(explain(conditional, pod({ hostPID: true }))).toEqual({ status: 'skip', fields: [] })
  })
})
