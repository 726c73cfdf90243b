import { describe, expect, it } from 'vitest'
import { compileRuleset } from '../../../src/engine/compile/compile-ruleset.js'
import { evaluatePolicy } from '../../../src/engine/evaluate/evaluate-policy.js'
import { PreparedInput } from '../../../src/engine/evaluate/prepared-input.js'
import { compileException, ExceptionCompileError } from '../../../src/engine/exceptions/compile-exception.js'
import { exemptingException, type ExemptionQuery } from '../../../src/engine/exceptions/exempting-exception.js'
import { checkExceptionSpec } from '../../../src/engine/model/check-exception.js'
import type { PolicyException } from '../../../src/engine/model/policy-exception.js'
import type { Ruleset } from '../../../src/engine/model/ruleset.js'

const NOW = new Date('2026-06-01T12:00:00Z')

const shipper = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'log-shipper-x1', namespace: 'logging', labels: { app: 'log-shipper' } },
  spec: { containers: [{ name: 'a', image: 'registry.example.com/shipper:1.2', securityContext: { privileged: true } }] },
}
const daemonSet = {
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name: 'log-shipper', namespace: 'logging' },
  spec: { template: { metadata: { labels: { app: 'log-shipper' } }, spec: shipper.spec } },
}

const hardening: Ruleset = {
  name: 'pod-hardening',
  rules: [
    { name: 'no-privileged', match: { kinds: ['Pod'] }, validate: { cel: [{ expression: 'object.spec.containers.all(c, !(c.?securityContext.?privileged.orValue(false)))', message: 'no privileged containers' }] } },
    { name: 'pinned', match: { kinds: ['Pod'] }, validate: { cel: [{ expression: "object.spec.containers.all(c, !c.image.endsWith(':latest'))", message: 'pin images' }] } },
  ],
}

const exception: PolicyException = {
  name: 'log-shipper-privileged',
  policies: ['baseline-*'],
  rules: [{ ruleset: 'pod-hardening', rule: 'no-privileged' }],
  match: { kinds: ['Pod'], namespaces: ['logging'], names: ['log-shipper*'] },
  conditions: [{ expression: "object.spec.containers.all(c, c.image.startsWith('registry.example.com/'))" }],
  reason: 'the log shipper reads host logs',
  expiresAt: '2026-07-01T00:00:00Z',
}

function query(object: unknown, overrides: Partial<ExemptionQuery> = {}): ExemptionQuery {
  return { policy: 'baseline-pods', ruleset: 'pod-hardening', rule: 'no-privileged', input: new PreparedInput({ object }), now: NOW, ...overrides }
}

describe('exemptingException', () => {
  const compiled = [compileException(exception)]

  it('exempts the named rule of a matching policy for a matching resource', () => {
    expect(exemptingException(compiled, query(shipper))?.name).toBe('log-shipper-privileged')
  })

  it('stops at expiresAt exactly', () => {
    expect(exemptingException(compiled, query(shipper, { now: new Date('2026-06-30T23:59:59.999Z') }))?.name).toBe('log-shipper-privileged')
    expect(exemptingException(compiled, query(shipper, { now: new Date('2026-07-01T00:00:00.000Z') }))).toBeUndefined()
  })

  it('leaves other policies, other rules, other resources and failed conditions alone', () => {
    expect(exemptingException(compiled, query(shipper, { policy: 'restricted' }))).toBeUndefined()
    expect(exemptingException(compiled, query(shipper, { rule: 'pinned' }))).toBeUndefined()
    expect(exemptingException(compiled, query({ ...shipper, metadata: { ...shipper.metadata, namespace: 'shop' } }))).toBeUndefined()
    const elsewhere = { ...shipper, spec: { containers: [{ name: 'a', image: 'docker.io/shipper:1.2' }] } }
    expect(exemptingException(compiled, query(elsewhere))).toBeUndefined()
  })

  it('lets a pod controller through by its template, as autogen judges it', () => {
    expect(exemptingException(compiled, query(daemonSet))?.name).toBe('log-shipper-privileged')
  })

  it('does not exempt when a condition errs', () => {
    const erring = [compileException({ ...exception, conditions: [{ expression: 'object.spec.nothing == 1' }] })]
    expect(exemptingException(erring, query(shipper))).toBeUndefined()
  })

  it('judges one input again at another instant (what it worked out is kept per input and instant)', () => {
    const input = new PreparedInput({ object: shipper })
    expect(exemptingException(compiled, query(shipper, { input }))?.name).toBe('log-shipper-privileged')
    expect(exemptingException(compiled, query(shipper, { input, now: new Date('2026-07-01T00:00:00Z') }))).toBeUndefined()
    expect(exemptingException(compiled, query(shipper, { input }))?.name).toBe('log-shipper-privileged')
  })

  it('compares namespaces literally or as globs, and takes a Namespace as belonging to itself', () => {
    const namespaceObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'logging' } }
    const forNamespaces = [compileException({ name: 'ns', policies: ['*'], match: { kinds: ['Namespace'], namespaces: ['logging'] }, reason: 'r' })]
    expect(exemptingException(forNamespaces, query(namespaceObject))?.name).toBe('ns')
    const globbed = [compileException({ ...exception, conditions: undefined, match: { kinds: ['Pod'], namespaces: ['log*'] } })]
    expect(exemptingException(globbed, query(shipper))?.name).toBe('log-shipper-privileged')
    expect(exemptingException(globbed, query({ ...shipper, metadata: { ...shipper.metadata, namespace: 'shop' } }))).toBeUndefined()
  })

  it('takes the first exception by name when several apply', () => {
    const all = [compileException({ ...exception, name: 'a-first' }), ...compiled]
    expect(exemptingException(all, query(shipper))?.name).toBe('a-first')
  })
})

describe('evaluatePolicy with exemptions', () => {
  const rulesets = [compileRuleset(hardening)]
  const policy = { name: 'baseline-pods', rulesets: ['pod-hardening'], action: 'Deny' as const }

  it('turns the exempted failure into a skip naming the exception; the decision ignores it', () => {
    const evaluation = evaluatePolicy(policy, rulesets, new PreparedInput({ object: shipper }), { exemptions: { exceptions: [compileException(exception)], now: NOW } })
    const skip = { ruleset: 'pod-hardening', rule: 'no-privileged', status: 'skip', severity: 'medium', message: 'exempted by exception "log-shipper-privileged"', exception: 'log-shipper-privileged' }
    expect(evaluation.output).toEqual({ policy: 'baseline-pods', passed: true, results: [skip] })
    expect(evaluation.rulesets).toEqual([{ ruleset: 'pod-hardening', passed: true, results: [skip] }])
  })

  it('judges the rule again once the exception expired', () => {
    const evaluation = evaluatePolicy(policy, rulesets, new PreparedInput({ object: shipper }), {
      exemptions: { exceptions: [compileException(exception)], now: new Date('2026-07-01T00:00:00Z') },
    })
    expect(evaluation.output.passed).toBe(false)
    expect(evaluation.output.results).toEqual([
      { ruleset: 'pod-hardening', rule: 'no-privileged', status: 'fail', severity: 'medium', message: 'no privileged containers' },
    ])
  })

  it('marks the controller judged through its template', () => {
    const evaluation = evaluatePolicy(policy, rulesets, new PreparedInput({ object: daemonSet }), { exemptions: { exceptions: [compileException(exception)], now: NOW } })
    expect(evaluation.output.results).toEqual([
      expect.objectContaining({ rule: 'no-privileged', status: 'skip', exception: 'log-shipper-privileged', autogen: 'DaemonSet' }),
    ])
  })
})

describe('checkExceptionSpec and compileException', () => {
  const { name: _name, ...spec } = exception

  it('accepts a complete spec', () => {
    expect(checkExceptionSpec(spec, 'spec')).toEqual([])
  })

  it('refuses an exception naming neither policies nor rules', () => {
    const { policies: _p, rules: _r, ...everything } = spec
    expect(checkExceptionSpec(everything, 'spec')).toEqual([
      { path: 'spec.policies', message: expect.stringMatching(/^is required unless rules is given/) },
    ])
  })

  it('names a missing reason, a missing match and control characters', () => {
    const { reason: _reason, ...noReason } = spec
    expect(checkExceptionSpec(noReason, 'spec')).toEqual([{ path: 'spec.reason', message: 'is required' }])
    const { match: _match, ...noMatch } = spec
    expect(checkExceptionSpec(noMatch, 'spec')).toEqual([{ path: 'spec.match', message: 'is required' }])
    expect(checkExceptionSpec({ ...spec, ticket: 'OPS-1\u001b[2J' }, 'spec')).toEqual([
      { path: 'spec.ticket', message: 'contains the control character U+001B at offset 5; only tabs and line breaks are allowed' },
    ])
  })

  it('reports a CEL condition that does not compile, naming the field and position', () => {
    expect(() => compileException({ ...exception, conditions: [{ expression: 'true' }, { expression: 'object.spec.containers.all(c, ' }] })).toThrow(ExceptionCompileError)
    const thrown = (() => {
      try {
        compileException({ ...exception, conditions: [{ expression: 'nosuch.thing == 1' }] })
      } catch (error) {
        return error
      }
      return undefined
    })()
    expect(thrown).toBeInstanceOf(ExceptionCompileError)
    expect((thrown as ExceptionCompileError).problems).toEqual([{ path: 'conditions[0].expression (line 1, column 1)', message: expect.stringContaining('nosuch') }])
  })
})
