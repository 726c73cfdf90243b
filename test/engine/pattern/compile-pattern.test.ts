import { describe, expect, it } from 'vitest'
import { compilePattern } from '../../../src/engine/pattern/index.js'

function problems(pattern: unknown): [string, string][] {
  return compilePattern(pattern).problems.map((problem) => [problem.path, problem.message])
}

describe('compilePattern: malformed patterns are problems naming their place', () => {
  it('accepts the anchors Kyverno accepts in validate patterns', () => {
    expect(problems({ spec: { '(a)': 1, '=(b)': 'x', '^(c)': [{ d: 1 }], 'X(e)': 'null', '<(f)': '*', g: ['?*'] } })).toEqual([])
  })

  it('refuses the mutate anchor +(key), as Kyverno does in validate rules', () => {
    expect(problems({ metadata: { labels: { '+(team)': 'a' } } })).toEqual([
      ['metadata.labels["+(team)"]', 'the anchor "+(team)" adds a field in mutate overlays; validate patterns do not accept it'],
    ])
  })

  it('refuses an existence anchor without a non-empty list of maps', () => {
    expect(problems({ spec: { '^(containers)': { image: 'x' } } })).toEqual([['spec["^(containers)"]', 'an existence anchor needs a list of patterns, one of which some item must match']])
    expect(problems({ spec: { '^(containers)': [] } })).toContainEqual(['spec["^(containers)"]', 'an existence anchor needs at least one pattern in its list'])
    expect(problems({ spec: { '^(containers)': ['nginx'] } })).toEqual([['spec["^(containers)"][0]', 'the patterns of an existence anchor must be maps']])
  })

  it('refuses an empty list, which Kyverno fails on every resource that has the field', () => {
    expect(problems({ spec: { containers: [] } })).toEqual([['spec.containers', 'an empty list matches nothing (Kyverno fails it as "pattern Array empty")']])
  })

  it('refuses unknown operators', () => {
    expect(problems({ spec: { replicas: '=>2' } })).toEqual([['spec.replicas', 'unknown operator "=>" in "=>2" (operators are >, <, >=, <=, !, |, &, a-b and a!-b)']])
    expect(problems({ a: '!=5', b: '1 | ==2', c: '<>3' }).map(([path, message]) => [path, message.replace(/ \(operators are .*\)$/, '')])).toEqual([
      ['a', 'unknown operator "!=" in "!=5"'],
      ['b', 'unknown operator "==" in "==2"'],
      ['c', 'unknown operator "<>" in "<>3"'],
    ])
  })

  it('refuses orderings that can never hold: their operand is neither a quantity nor a duration', () => {
    expect(problems({ a: '>abc', b: '1x-5', c: '>=' })).toEqual([
      ['a', '">abc" never matches: > compares quantities or durations, and "abc" is neither'],
      ['b', '">=1x" never matches: >= compares quantities or durations, and "1x" is neither'],
      ['c', '">=" never matches: >= compares quantities or durations, and "" is neither'],
    ])
    expect(problems({ a: '>1', b: '<=1Gi', c: '>=1h30m', d: '1-5', e: '100m!-2', f: '!abc', g: '>', h: '*' })).toEqual([])
  })

  it('lists {{ }} variables and $(...) references, whose text is known only after substitution, for the caller to refuse or substitute', () => {
    const { pattern, problems: found } = compilePattern({ metadata: { name: '{{ request.object.metadata.name }}', '{{k}}': 'v' }, spec: { a: '$(./../b)', c: '=>{{ x }}' } })
    expect(found).toEqual([])
    expect(pattern.variables).toEqual(['metadata.name', 'metadata["{{k}}"] (key)', 'spec.c'])
    expect(pattern.references).toEqual(['spec.a'])
  })

  it('refuses nesting past 100 levels', () => {
    let deep: unknown = 'x'
    for (let i = 0; i < 150; i++) deep = { a: deep }
    expect(problems(deep)).toHaveLength(1)
    expect(problems(deep)[0]?.[1]).toBe('nests deeper than 100 levels')
  })
})
