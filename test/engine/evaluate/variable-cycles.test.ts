import { describe, expect, it } from 'vitest'
import { compileCel } from '../../../src/engine/cel/index.js'
import { compileRuleset, evaluateRule, PreparedInput, type CompiledRule } from '../../../src/engine/index.js'

const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' }, spec: { containers: [{ name: 'a', image: 'nginx:1.27' }] }, items: Array.from({ length: 200 }, (_, i) => i) }

/**
 * A compiled rule whose variables are then given other expressions: compiling refuses cycles, so
 * this is the only way to reach the evaluation-time guard, which must hold on its own.
 */
function ruleWithVariables(expressions: Record<string, string>, validation: string): CompiledRule {
  const names = Object.keys(expressions)
  const compiled = compileRuleset({
    name: 'guard',
    rules: [{ name: 'r', variables: names.map((name) => ({ name, expression: 'true' })), validate: { cel: [{ expression: 'true' }] } }],
  })
  const rule = compiled.rules[0] as CompiledRule
  rule.variables = names.map((name) => ({ name, program: compileCel(expressions[name] as string) }))
  rule.validations = [{ program: compileCel(validation) }]
  return rule
}

describe('a variable read while it is being computed', () => {
  it('ends the evaluation as an error naming the cycle', () => {
    const rule = ruleWithVariables({ a: 'variables.b || variables.b', b: 'variables.a || variables.a' }, 'variables.a')
    expect(evaluateRule(rule, new PreparedInput({ object: pod }))).toEqual({
      ruleset: 'guard',
      rule: 'r',
      status: 'error',
      severity: 'medium',
      message: 'expression "variables.a" failed: variables cycle: a -> b -> a',
    })
  })

  it('ends a variable reading itself, even behind || and all() that swallow errors', () => {
    const rule = ruleWithVariables({ a: "object.items.all(i, variables.a || variables['a']) || true" }, 'variables.a || true')
    const result = evaluateRule(rule, new PreparedInput({ object: pod }))
    expect([result.status, result.message]).toEqual(['error', 'expression "variables.a || true" failed: variables cycle: a -> a'])
  })

  it('ends a longer loop reached through a chain of variables', () => {
    const expressions: Record<string, string> = {}
    for (let i = 0; i < 20; i++) expressions[`v${i}`] = `variables.v${(i + 1) % 20} || variables.v${(i + 1) % 20}`
    const rule = ruleWithVariables(expressions, 'variables.v0')
    const result = evaluateRule(rule, new PreparedInput({ object: pod }))
    expect(result.status).toBe('error')
    expect(result.message).toBe(`expression "variables.v0" failed: variables cycle: ${[...Array.from({ length: 20 }, (_, i) => `v${i}`), 'v0'].join(' -> ')}`)
  })

  it('computes a failing variable once, however many || read it again', () => {
    // Thirty levels each reading the one below twice: recomputing the failure on every read would be 2^30 evaluations.
    const expressions: Record<string, string> = { v0: "object.items.map(i, i * 2).size() == 0 || int('not a number') == 1" }
    for (let i = 1; i <= 30; i++) expressions[`v${i}`] = `variables.v${i - 1} || variables.v${i - 1}`
    const rule = ruleWithVariables(expressions, 'variables.v30')
    const result = evaluateRule(rule, new PreparedInput({ object: pod }))
    expect(result.status).toBe('error')
    expect(result.message).toBe(`expression "${expressions.v0 as string}" failed: int() type error: cannot convert to int (at 1:43)`)
  })
})
