import { describe, expect, it } from 'vitest'
import { compileRuleset, RulesetCompileError } from '../../../src/engine/index.js'

function problemsOf(expression: string): Array<{ path: string; message: string }> {
  try {
    compileRuleset({ name: 'deep', rules: [{ name: 'r', variables: [{ name: 'v', expression: 'true' }], validate: { cel: [{ expression }] } }] })
    return []
  } catch (error) {
    if (!(error instanceof RulesetCompileError)) throw error
    return error.problems.map(({ path, message }) => ({ path, message }))
  }
}

describe('expressions nested beyond what any walker can take', () => {
  it('refuses a chain of thousands of operators as a compile problem, not a crash', () => {
    expect(problemsOf(`1${' + 1'.repeat(20_000)} > 0`)).toEqual([
      { path: 'rules[0].validate.cel[0].expression', message: 'the expression nests deeper than 250 levels (a chain of that many operators); split it, for example into variables' },
    ])
  })

  it('refuses thousands of prefix operators with a clear message', () => {
    expect(problemsOf(`${'!'.repeat(20_000)}true`)).toEqual([{ path: 'rules[0].validate.cel[0].expression', message: 'the expression nests too deeply to be parsed' }])
  })

  it('accepts a long but shallow expression', () => {
    expect(problemsOf(`[${'1, '.repeat(900)}1].size() > 0 && ${"'x' != '' && ".repeat(100)}true`)).toEqual([])
  })
})
