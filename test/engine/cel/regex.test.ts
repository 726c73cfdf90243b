import { describe, expect, it } from 'vitest'
import { CelCompileError, compileCel } from '../../../src/engine/cel/index.js'
import { evalCel, evalError } from './helpers.js'

describe('matches', () => {
  it('matches anywhere in the string, in both call forms', () => {
    expect(evalCel("'hello'.matches('l+')")).toBe(true)
    expect(evalCel("'hello'.matches('^l+$')")).toBe(false)
    expect(evalCel("matches('hello', '^h.*o$')")).toBe(true)
    expect(evalCel("matches('hello', 'x')")).toBe(false)
  })

  it('uses RE2 syntax: word boundaries, classes, no backreferences or lookahead', () => {
    expect(evalCel("'run ps aux'.matches('\\\\bps\\\\b')")).toBe(true)
    expect(evalCel("'psql'.matches('\\\\bps\\\\b')")).toBe(false)
    expect(evalCel("'v1.2.3'.matches('^v[0-9]\\\\.[0-9]\\\\.[0-9]$')")).toBe(true)
    expect(evalCel("'ABC'.matches('(?i)abc')")).toBe(true)
    expect(() => compileCel("'aa'.matches('(a)\\\\1')")).toThrow(CelCompileError)
    expect(() => compileCel("'ab'.matches('a(?=b)')")).toThrow(CelCompileError)
  })

  it('takes a pattern from data', () => {
    expect(evalCel('object.name.matches(object.pattern)', { object: { name: 'web-1', pattern: '^web-[0-9]+$' } })).toBe(true)
    expect(evalCel('matches(object.name, object.pattern)', { object: { name: 'db', pattern: '^web' } })).toBe(false)
  })

  it('rejects an invalid literal pattern at compile time and a computed one at evaluation', () => {
    expect(() => compileCel("'a'.matches('(a')")).toThrow('invalid regular expression "(a": error parsing regexp: missing closing ): `(a`')
    expect(evalError('object.name.matches(object.pattern)', { object: { name: 'a', pattern: '(a' } }).message).toMatch(
      /^invalid regular expression "\(a": error parsing regexp: missing closing \)/,
    )
  })

  it('type-checks its operands', () => {
    expect(() => compileCel("1.matches('a')")).toThrow("found no matching overload for 'int.matches(string)'")
    expect(evalError("object.n.matches('a')", { object: { n: 1 } }).message).toBe("found no matching overload for 'int.matches(string)' (at 1:1)")
  })

  it('runs in linear time on an input that stalls a backtracking engine', () => {
    expect(evalCel("object.s.matches('(a+)+$')", { object: { s: `${'a'.repeat(30_000)}!` } })).toBe(false)
    expect(evalCel("object.s.matches('(a+)+!$')", { object: { s: `${'a'.repeat(30_000)}!` } })).toBe(true)
    expect(evalCel("object.s.matches('^(a+)+$')", { object: { s: `${'a'.repeat(30_000)}!` } })).toBe(false)
  })
})

describe('find / findAll', () => {
  it('returns the leftmost match or an empty string', () => {
    expect(evalCel("'abc 123'.find('[0-9]+')")).toBe('123')
    expect(evalCel("'abc 123'.find('xyz')")).toBe('')
    expect(evalCel("'abc 123'.find('[0-9]*')")).toBe('')
  })

  it('returns successive matches like Go, skipping an empty match right after a match', () => {
    expect(evalCel("'123 abc 456'.findAll('[0-9]+')")).toEqual(['123', '456'])
    expect(evalCel("'123 abc 456'.findAll('[0-9]*')")).toEqual(['123', '', '', '', '', '456'])
    expect(evalCel("'baaab'.findAll('a*')")).toEqual(['', 'aaa', ''])
    expect(evalCel("'h😀i'.findAll('')")).toEqual(['', '', '', ''])
    expect(evalCel("'123 abc 456'.findAll('xyz')")).toEqual([])
  })

  it('limits the number of matches', () => {
    expect(evalCel("'a1b2c3'.findAll('[0-9]', 2)")).toEqual(['1', '2'])
    expect(evalCel("'a1b2c3'.findAll('[0-9]', 0)")).toEqual([])
    expect(evalCel("'a1b2c3'.findAll('[0-9]', -1)")).toEqual(['1', '2', '3'])
  })
})
