import { describe, expect, it } from 'vitest'
import { compileRuleset, RulesetCompileError, type CompileProblem, type Rule } from '../../../src/engine/index.js'

function problemsOf(rules: Rule[]): CompileProblem[] {
  try {
    compileRuleset({ name: 'vars', rules })
  } catch (error) {
    if (error instanceof RulesetCompileError) return error.problems
    throw error
  }
  throw new Error('expected the ruleset not to compile')
}

function ruleWith(variables: { name: string; expression: string }[], expression = 'variables.a'): Rule {
  return { name: 'looping', variables, validate: { cel: [{ expression }] } }
}

describe('the order of a rule variables', () => {
  it('refuses two variables that read each other, naming the rule and the cycle', () => {
    const problems = problemsOf([
      { name: 'fine', validate: { cel: [{ expression: 'true' }] } },
      ruleWith([
        { name: 'a', expression: 'variables.b || variables.b' },
        { name: 'b', expression: 'variables.a || variables.a' },
      ]),
    ])
    expect(problems).toEqual([
      { rule: 'looping', path: 'rules[1].variables[0].expression', expression: 'variables.b || variables.b', line: 1, column: 1, message: 'variables cycle: a -> b -> a' },
    ])
  })

  it('refuses a variable that reads itself', () => {
    expect(problemsOf([ruleWith([{ name: 'a', expression: "size(object.metadata.name) > 0 && variables['a']" }])])).toEqual([
      { rule: 'looping', path: 'rules[0].variables[0].expression', expression: "size(object.metadata.name) > 0 && variables['a']", line: 1, column: 35, message: 'variables cycle: a -> a' },
    ])
  })

  it.each([
    ['variables.b', 'variables.a'],
    ["variables['b']", "variables['a']"],
    ["variables[?'b'].orValue(true)", "variables[?'a'].orValue(true)"],
    ['variables.?b.orValue(true)', 'variables.?a.orValue(true)'],
    ['has(variables.b)', 'has(variables.a)'],
    ["[1].all(x, variables.b)", "cel.bind(y, 1, variables.a)"],
  ])('sees a read written %s / %s', (readB, readA) => {
    const problems = problemsOf([ruleWith([{ name: 'a', expression: readB }, { name: 'b', expression: readA }])])
    expect(problems.map((p) => [p.path, p.message])).toEqual([['rules[0].variables[0].expression', 'variables cycle: a -> b -> a']])
  })

  it('names the shortest cycle through the first variable of a longer loop', () => {
    const problems = problemsOf([
      ruleWith([
        { name: 'a', expression: "variables.b + 'x'" },
        { name: 'b', expression: "variables.c + 'y'" },
        { name: 'c', expression: "variables.a + variables.b" },
        { name: 'd', expression: "'unrelated'" },
      ]),
    ])
    expect(problems.map((p) => [p.path, p.column, p.message])).toEqual([['rules[0].variables[0].expression', 1, 'variables cycle: a -> b -> c -> a']])
  })

  it('refuses a read of a variable defined later, as ValidatingAdmissionPolicy does', () => {
    const problems = problemsOf([
      ruleWith(
        [
          { name: 'first', expression: 'variables.second + 1' },
          { name: 'second', expression: '1' },
        ],
        'variables.first == 2',
      ),
    ])
    expect(problems).toEqual([
      {
        rule: 'looping',
        path: 'rules[0].variables[0].expression',
        expression: 'variables.second + 1',
        line: 1,
        column: 1,
        message: 'variable "first" reads variables.second, which is defined after it; a variable may read only the variables listed before it',
      },
    ])
  })

  it('refuses a read of a variable the rule does not define, in any expression', () => {
    const rule: Rule = {
      name: 'typo',
      match: { conditions: [{ name: 'c', expression: 'variables.imgaes != null' }] },
      variables: [{ name: 'images', expression: 'object.spec.containers.map(c, c.image)' }],
      validate: { cel: [{ expression: 'variables.images.all(i, i != "")', messageExpression: "'bad: ' + variables.image[0]" }] },
    }
    expect(problemsOf([rule]).map((p) => [p.path, p.column, p.message])).toEqual([
      ['rules[0].match.conditions[0].expression', 1, 'unknown variable "imgaes": this rule defines images'],
      ['rules[0].validate.cel[0].messageExpression', 11, 'unknown variable "image": this rule defines images'],
    ])
    const bare: Rule = { name: 'bare', validate: { cel: [{ expression: 'variables.x' }] } }
    expect(problemsOf([bare]).map((p) => p.message)).toEqual(['unknown variable "x": this rule defines no variables'])
  })

  it('refuses a variable that reads variables other than by name', () => {
    const problems = problemsOf([
      ruleWith([
        { name: 'key', expression: "'a'" },
        { name: 'a', expression: 'variables[variables.key]' },
      ]),
    ])
    expect(problems.map((p) => [p.path, p.column, p.message])).toEqual([
      ['rules[0].variables[1].expression', 1, 'a variable may read other variables only by name (variables.NAME), so that their order can be checked'],
    ])
  })

  it('refuses a duplicate variable name', () => {
    const problems = problemsOf([ruleWith([{ name: 'a', expression: '1' }, { name: 'a', expression: '2' }], 'variables.a == 2')])
    expect(problems.map((p) => [p.path, p.message])).toEqual([['rules[0].variables[1].name', 'duplicate variable name "a" (also variables[0])']])
  })

  it('accepts variables that read earlier ones, and a comprehension variable named like a variable', () => {
    const rule: Rule = {
      name: 'ok',
      variables: [
        { name: 'containers', expression: 'object.spec.containers' },
        { name: 'images', expression: 'variables.containers.map(c, c.image)' },
        { name: 'shadow', expression: '[{"x": 1}].all(variables, variables.x == 1)' },
      ],
      validate: { cel: [{ expression: "variables.images.all(i, i != '') && variables.shadow && variables[?'images'].hasValue()" }] },
    }
    expect(() => compileRuleset({ name: 'fine', rules: [rule] })).not.toThrow()
  })
})
