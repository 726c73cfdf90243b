import { describe, expect, it } from 'vitest'
import { compileRuleset } from '../../../src/engine/compile/compile-ruleset.js'
import { compileException } from '../../../src/engine/exceptions/compile-exception.js'
import { evaluatePolicy } from '../../../src/engine/evaluate/evaluate-policy.js'
import { PreparedInput } from '../../../src/engine/evaluate/prepared-input.js'
import { resolvePolicyRulesets } from '../../../src/engine/evaluate/resolve-rulesets.js'
import type { Policy } from '../../../src/engine/model/policy.js'
import type { Ruleset } from '../../../src/engine/model/ruleset.js'

const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'shop' }, spec: { containers: [{ name: 'a', image: 'nginx' }] } }

const strict: Ruleset = {
  name: 'strict',
  labels: { tier: 'strict' },
  rules: [{ name: 'has-team', severity: 'low', validate: { cel: [{ expression: 'has(object.metadata.labels)', message: 'labels needed' }] } }],
}
const broken: Ruleset = {
  name: 'broken',
  labels: { tier: 'strict' },
  rules: [{ name: 'errors', validate: { cel: [{ expression: 'object.spec.nope == 1' }] } }],
}
const fine: Ruleset = { name: 'fine', rules: [{ name: 'ok', validate: { cel: [{ expression: 'true' }] } }] }

function run(policy: Policy, rulesets: Ruleset[], object: unknown = pod) {
  return evaluatePolicy(policy, rulesets.map(compileRuleset), new PreparedInput({ object }))
}

describe('evaluatePolicy', () => {
  it('collects the results of every ruleset and keeps each ruleset result apart', () => {
    const evaluation = run({ name: 'p', rulesets: ['strict', 'fine'], action: 'Deny' }, [strict, fine])
    expect(evaluation).toEqual({
      action: 'Deny',
      applied: true,
      output: {
        policy: 'p',
        passed: false,
        results: [{ ruleset: 'strict', rule: 'has-team', status: 'fail', severity: 'low', message: 'labels needed' }],
      },
      rulesets: [
        { ruleset: 'strict', passed: false, results: [{ ruleset: 'strict', rule: 'has-team', status: 'fail', severity: 'low', message: 'labels needed' }] },
        { ruleset: 'fine', passed: true, results: [] },
      ],
    })
  })

  it('counts errors as violations under Fail (the default) and lets them through under Ignore', () => {
    expect(run({ name: 'p', rulesets: ['broken'] }, [broken]).output.passed).toBe(false)
    const ignored = run({ name: 'p', rulesets: ['broken'], failurePolicy: 'Ignore' }, [broken])
    expect(ignored.output.passed).toBe(true)
    expect(ignored.output.results.map((r) => r.status)).toEqual(['error'])
    expect(ignored.action).toBe('Audit')
  })

  it('is not applied when its match does not select the input', () => {
    const evaluation = run({ name: 'p', rulesets: ['strict'], match: { namespaces: ['prod'] } }, [strict])
    expect(evaluation).toEqual({ action: 'Audit', applied: false, output: { policy: 'p', passed: true, results: [] }, rulesets: [] })
  })

  it('selects controllers of Pods when its match names Pods', () => {
    const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'shop' }, spec: { template: { spec: pod.spec } } }
    expect(run({ name: 'p', rulesets: ['fine'], match: { kinds: ['Pod'] } }, [fine], deployment).applied).toBe(true)
  })
})

describe('resolvePolicyRulesets', () => {
  it('takes named rulesets in order, then selected ones by name, without duplicates, and names the missing', () => {
    const all = [fine, strict, broken]
    expect(resolvePolicyRulesets({ name: 'p', rulesets: ['strict', 'nope'], rulesetSelector: { matchLabels: { tier: 'strict' } } }, all)).toEqual({
      found: [strict, broken],
      missing: ['nope'],
    })
  })
})

describe('evaluatePolicy with switches', () => {
  const switchedOff: Ruleset = { ...strict, rules: [{ ...(strict.rules[0] as Ruleset['rules'][number]), match: { kinds: ['Pod'] }, enabled: false, disabledReason: 'labels come later' }] }
  const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'shop' }, spec: { template: { spec: pod.spec } } }
  const skip = { ruleset: 'strict', rule: 'has-team', status: 'skip', severity: 'low', message: 'rule switched off: labels come later', disabled: true, disabledReason: 'labels come later' }

  it('lists a rule switched off as a skip saying so, where it would have judged (a pod template too), and not elsewhere', () => {
    const policy: Policy = { name: 'p', rulesets: ['strict'], action: 'Deny' }
    expect(run(policy, [switchedOff]).output).toEqual({ policy: 'p', passed: true, results: [skip] })
    expect(run(policy, [switchedOff], deployment).output).toEqual({ policy: 'p', passed: true, results: [{ ...skip, autogen: 'Deployment' }] })
    expect(run(policy, [switchedOff], { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }).output).toEqual({ policy: 'p', passed: true, results: [] })
  })

  it('leaves a rule switched off as it is when an exception also names it: it was not judged, so nothing was let through', () => {
    const exception = compileException({ name: 'let-web', policies: ['p'], match: { kinds: ['Pod'] }, reason: 'testing' })
    const evaluation = evaluatePolicy({ name: 'p', rulesets: ['strict'] }, [compileRuleset(switchedOff)], new PreparedInput({ object: pod }), { exemptions: { exceptions: [exception], now: new Date() } })
    expect(evaluation.output.results).toEqual([skip])
  })

  it('leaves a rule the API server judges (judgedElsewhere) unjudged, as a skip naming the ValidatingAdmissionPolicy, in the form it matched', () => {
    const podRules: Ruleset = { ...strict, rules: [{ ...(strict.rules[0] as Ruleset['rules'][number]), match: { kinds: ['Pod'] } }, { name: 'errors', match: { kinds: ['Pod'] }, validate: { cel: [{ expression: 'object.spec.nope == 1' }] } }] }
    const asked: unknown[] = []
    const judgedElsewhere = (ruleset: string, rule: string, autogen: string | undefined) => {
      asked.push([ruleset, rule, autogen])
      return rule === 'has-team' ? (autogen === undefined ? 'p-has-team' : 'p-has-team-autogen') : undefined
    }
    const judge = (object: unknown) => evaluatePolicy({ name: 'p', rulesets: ['strict'], action: 'Deny' }, [compileRuleset(podRules)], new PreparedInput({ object }), { judgedElsewhere })
    const onPod = judge(pod)
    const judged = { ruleset: 'strict', rule: 'has-team', status: 'skip', severity: 'low', message: 'judged by ValidatingAdmissionPolicy "p-has-team" in the API server', judgedBy: 'ValidatingAdmissionPolicy', validatingAdmissionPolicy: 'p-has-team' }
    // The other rule is judged here (and errs): only the rule the API server judges is left to it.
    expect(onPod.output.results).toEqual([judged, expect.objectContaining({ rule: 'errors', status: 'error' })])
    expect(onPod.output.passed).toBe(false)
    expect(judge(deployment).output.results[0]).toEqual({ ...judged, message: 'judged by ValidatingAdmissionPolicy "p-has-team-autogen" in the API server', validatingAdmissionPolicy: 'p-has-team-autogen', autogen: 'Deployment' })
    // Asked only for rules that match, in the form they matched.
    asked.length = 0
    expect(judge({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }).output.results).toEqual([])
    expect(asked).toEqual([])
  })

  it('takes a false match condition of a rule the API server judges as a plain skip (its policy judged nothing), as the API server does even when another errs', () => {
    const conditioned: Ruleset = {
      name: 'strict',
      rules: [
        {
          name: 'has-team',
          match: { kinds: ['Pod'], conditions: [{ name: 'broken', expression: 'object.spec.nope == 1' }, { name: 'labelled', expression: 'has(object.metadata.labels)' }] },
          validate: { cel: [{ expression: "'team' in object.metadata.labels" }] },
        },
      ],
    }
    const evaluation = evaluatePolicy({ name: 'p', rulesets: ['strict'], action: 'Deny' }, [compileRuleset(conditioned)], new PreparedInput({ object: pod }), { verbose: true, judgedElsewhere: () => 'p' })
    expect(evaluation.output.results).toEqual([{ ruleset: 'strict', rule: 'has-team', status: 'skip', severity: 'medium', message: 'match condition "labelled" is false' }])
    const labelled = { ...pod, metadata: { ...pod.metadata, labels: { app: 'web' } } }
    const judged = evaluatePolicy({ name: 'p', rulesets: ['strict'], action: 'Deny' }, [compileRuleset(conditioned)], new PreparedInput({ object: labelled }), { judgedElsewhere: () => 'p' })
    expect(judged.output.results).toEqual([expect.objectContaining({ status: 'skip', judgedBy: 'ValidatingAdmissionPolicy', validatingAdmissionPolicy: 'p' })])
  })

  it('judges nothing by a policy switched off, and says so', () => {
    expect(run({ name: 'p', rulesets: ['strict'], action: 'Deny', enabled: false, disabledReason: 'replaced' }, [strict])).toEqual({
      action: 'Deny',
      applied: false,
      output: { policy: 'p', passed: true, results: [], disabled: true, disabledReason: 'replaced' },
      rulesets: [],
    })
  })
})
