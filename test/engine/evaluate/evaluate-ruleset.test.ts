import { describe, expect, it } from 'vitest'
import { compileRuleset } from '../../../src/engine/compile/compile-ruleset.js'
import { RulesetCompileError } from '../../../src/engine/compile/compile-problem.js'
import { evaluateRuleset } from '../../../src/engine/evaluate/evaluate-ruleset.js'
import type { EvaluationInput } from '../../../src/engine/evaluate/evaluation-input.js'
import { PreparedInput } from '../../../src/engine/evaluate/prepared-input.js'
import type { Rule } from '../../../src/engine/model/rule.js'

const pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', namespace: 'shop', labels: { app: 'web' } },
  spec: { containers: [{ name: 'app', image: 'nginx:latest', ports: [{ containerPort: 8080 }] }] },
}

function judge(rules: Rule[], input: EvaluationInput, verbose = false) {
  return evaluateRuleset(compileRuleset({ name: 'rs', rules }), new PreparedInput(input), { verbose })
}

const noLatest: Rule = {
  name: 'no-latest',
  severity: 'high',
  match: { kinds: ['Pod'] },
  remediation: 'pin the image',
  validate: { cel: [{ expression: "object.spec.containers.all(c, !c.image.endsWith(':latest'))", message: 'images must be pinned' }] },
}

describe('evaluateRuleset', () => {
  it('lists failing rules with severity, message and remediation', () => {
    expect(judge([noLatest], { object: pod })).toEqual({
      ruleset: 'rs',
      passed: false,
      results: [{ ruleset: 'rs', rule: 'no-latest', status: 'fail', severity: 'high', message: 'images must be pinned', remediation: 'pin the image' }],
    })
  })

  it('has empty results when everything passes, and lists pass and skip when verbose', () => {
    const pinned = { ...pod, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } }
    expect(judge([noLatest], { object: pinned })).toEqual({ ruleset: 'rs', passed: true, results: [] })
    const onlyServices: Rule = { name: 'svc', match: { kinds: ['Service'] }, validate: { cel: [{ expression: 'true' }] } }
    expect(judge([noLatest, onlyServices], { object: pinned }, true)).toEqual({
      ruleset: 'rs',
      passed: true,
      results: [
        { ruleset: 'rs', rule: 'no-latest', status: 'pass', severity: 'high' },
        { ruleset: 'rs', rule: 'svc', status: 'skip', severity: 'medium', message: 'the rule does not match this resource' },
      ],
    })
  })

  it('takes messageExpression first, then message, then the rule message, then the expression', () => {
    const rule = (validation: Record<string, string>, message?: string): Rule => ({
      name: 'r',
      ...(message ? { message } : {}),
      validate: { cel: [{ expression: 'object.spec.containers.size() > 1', ...validation }] },
    })
    const messageOf = (r: Rule) => judge([r], { object: pod }).results[0]?.message
    expect(messageOf(rule({ messageExpression: "'only ' + string(object.spec.containers.size())", message: 'static' }))).toBe('only 1')
    expect(messageOf(rule({ messageExpression: 'object.nope', message: 'static' }))).toBe('static')
    expect(messageOf(rule({}, 'rule level'))).toBe('rule level')
    expect(messageOf(rule({}))).toBe('failed expression: object.spec.containers.size() > 1')
  })

  it('reads whole JSON numbers as CEL ints', () => {
    const rule: Rule = { name: 'port', validate: { cel: [{ expression: 'object.spec.containers[0].ports[0].containerPort == 8080' }] } }
    expect(judge([rule], { object: pod }).passed).toBe(true)
  })

  it('turns a runtime error into an error result naming the expression', () => {
    const rule: Rule = { name: 'missing', validate: { cel: [{ expression: 'object.spec.nodeName == "x"' }] } }
    const result = judge([rule], { object: pod })
    expect(result.passed).toBe(false)
    expect(result.results[0]?.status).toBe('error')
    expect(result.results[0]?.message).toMatch(/^expression "object.spec.nodeName == \\"x\\"" failed: .*nodeName/)
  })

  it('treats a non-boolean validation as an error', () => {
    const rule: Rule = { name: 'nb', validate: { cel: [{ expression: 'object.metadata.name' }] } }
    expect(judge([rule], { object: pod }).results[0]).toMatchObject({ status: 'error', message: 'validation "object.metadata.name" returned web, not a bool' })
  })

  it('skips a rule whose match condition is false', () => {
    const rule: Rule = {
      name: 'cond',
      match: { conditions: [{ name: 'is-prod', expression: "object.metadata.namespace == 'prod'" }] },
      validate: { cel: [{ expression: 'false' }] },
    }
    expect(judge([rule], { object: pod }, true).results).toEqual([
      { ruleset: 'rs', rule: 'cond', status: 'skip', severity: 'medium', message: 'match condition "is-prod" is false' },
    ])
  })

  it('evaluates variables lazily, in order, each at most once', () => {
    const rule: Rule = {
      name: 'vars',
      variables: [
        { name: 'images', expression: 'object.spec.containers.map(c, c.image)' },
        { name: 'latest', expression: "variables.images.filter(i, i.endsWith(':latest'))" },
        { name: 'broken', expression: 'object.nope.nope' },
      ],
      validate: { cel: [{ expression: 'size(variables.latest) == 0', messageExpression: "'latest: ' + variables.latest.join(', ')" }] },
    }
    expect(judge([rule], { object: pod }).results).toEqual([
      { ruleset: 'rs', rule: 'vars', status: 'fail', severity: 'medium', message: 'latest: nginx:latest' },
    ])
  })

  it('passes request, oldObject and namespaceObject to CEL', () => {
    const rule: Rule = {
      name: 'ctx',
      validate: {
        cel: [
          { expression: "request.operation == 'UPDATE' && request.userInfo.username == 'ann'" },
          { expression: 'oldObject.metadata.name == object.metadata.name' },
          { expression: "namespaceObject.metadata.labels.env == 'prod'" },
        ],
      },
    }
    const input: EvaluationInput = {
      object: pod,
      oldObject: pod,
      request: { operation: 'UPDATE', userInfo: { username: 'ann' } },
      namespaceObject: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop', labels: { env: 'prod' } } },
    }
    expect(judge([rule], input).passed).toBe(true)
  })

  it('judges a DELETE by its oldObject identity with object null', () => {
    const rule: Rule = { name: 'del', match: { kinds: ['Pod'], operations: ['DELETE'] }, validate: { cel: [{ expression: 'object == null && oldObject.metadata.name == "web"' }] } }
    expect(judge([rule], { object: null, oldObject: pod, request: { operation: 'DELETE' } }, true).results[0]?.status).toBe('pass')
  })

  it('reports every broken expression when compiling', () => {
    const broken: Rule[] = [
      { name: 'a', validate: { cel: [{ expression: 'true' }, { expression: 'object.(' }] } },
      { name: 'b', variables: [{ name: 'v', expression: '1 +' }], validate: { cel: [{ expression: 'true' }] } },
    ]
    let error: unknown
    try {
      compileRuleset({ name: 'bad', rules: broken })
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(RulesetCompileError)
    const problems = (error as RulesetCompileError).problems
    expect(problems.map((p) => [p.rule, p.path, p.expression])).toEqual([
      ['a', 'rules[0].validate.cel[1].expression', 'object.('],
      ['b', 'rules[1].variables[0].expression', '1 +'],
    ])
    expect(problems[0]?.line).toBe(1)
  })

  it('substitutes {{ }} variables in a pattern for each input before matching it', () => {
    const rule: Rule = { name: 'pat', validate: { pattern: { spec: { x: '{{ request.object.y }}' } } } }
    const statuses = (object: unknown) => judge([rule], { object }, true).results.map((r) => [r.status, r.message])
    expect(statuses({ y: 'a', spec: { x: 'a' } })).toEqual([['pass', undefined]])
    expect(statuses({ y: 'a', spec: { x: 'b' } })).toEqual([['fail', 'validation error: rule pat failed at path /spec/x/']])
    expect(statuses({ spec: { x: 'b' } })).toEqual([
      ['error', 'variable substitution failed: failed to resolve request.object.y at path /spec/x: JMESPath query failed: Unknown key "y" in path'],
    ])
  })
})

describe('variables shared between rules', () => {
  it('computes an input-only variable once for all rules that define it, and keeps the rest per rule', () => {
    const counting = (name: string, expression: string): Rule => ({
      name,
      variables: [
        { name: 'images', expression: 'object.spec.containers.map(c, c.image)' },
        { name: 'first', expression: 'variables.images[0]' },
      ],
      validate: { cel: [{ expression }] },
    })
    const result = judge(
      [counting('a', "variables.first == 'nginx:latest'"), counting('b', "size(variables.images) == 1 && variables.first.startsWith('nginx')")],
      { object: pod },
      true,
    )
    expect(result.results.map((r) => [r.rule, r.status])).toEqual([
      ['a', 'pass'],
      ['b', 'pass'],
    ])
  })

  it('does not share a variable that reads other variables, even under the same expression', () => {
    const rule = (name: string, base: string): Rule => ({
      name,
      variables: [
        { name: 'base', expression: base },
        { name: 'derived', expression: 'variables.base + 1' },
      ],
      validate: { cel: [{ expression: 'variables.derived == 2' }] },
    })
    const result = judge([rule('one', '1'), rule('two', '5')], { object: pod }, true)
    expect(result.results.map((r) => [r.rule, r.status])).toEqual([
      ['one', 'pass'],
      ['two', 'fail'],
    ])
  })
})
