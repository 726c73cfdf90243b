import { describe, expect, it } from 'vitest'
import { jp, jpError } from './helpers.js'

describe('regex_match', () => {
  it('matches anywhere unless anchored, and takes numbers as text', () => {
    expect(jp("regex_match('^[1-7]$', `1`)")).toBe(true)
    expect(jp("regex_match('^[1-7]$', '1')")).toBe(true)
    expect(jp("regex_match('^[1-7]$', '8')")).toBe(false)
    expect(jp("regex_match('(443)', '443')")).toBe(true)
    expect(jp("regex_match('ab', 'xxabxx')")).toBe(true)
  })

  it('reads numbers as Kyverno does (float32 text, no exponent)', () => {
    expect(jp("regex_match('^0.1$', `0.1`)")).toBe(true)
    expect(jp("regex_match('^1000000000000000000000$', `1e21`)")).toBe(true)
  })

  it('uses RE2 syntax, with its error messages', () => {
    expect(jp("regex_match('(?i)^NGINX', 'nginx:1')")).toBe(true)
    expect(jp("regex_match('\\\\d+', 'a1')")).toBe(true)
    expect(jpError("regex_match('(a', 'a')").message).toContain('missing closing )')
    expect(jpError("regex_match('a(?=b)', 'ab')").message).toContain('invalid or unsupported Perl syntax')
  })

  it('stays linear on patterns that make backtracking engines explode', () => {
    // No clock here: a backtracking or quadratic implementation would not end within the test's timeout.
    expect(jp("regex_match('^(a+)+$', @)", `${'a'.repeat(5000)}!`)).toBe(false)
  })

  it('refuses arguments that are neither strings nor numbers', () => {
    expect(jpError("regex_match('a', `true`)").message).toContain('Invalid type')
  })
})

describe('regex_replace_all and regex_replace_all_literal', () => {
  it('expands $1, ${1} and named groups in the replacement', () => {
    expect(jp("regex_replace_all('([0-9])([0-9])', 'hello im 42 months old', '${1}1')")).toBe('hello im 41 months old')
    expect(jp("regex_replace_all('([0-9])([0-9])', 'days_37', '${1}0')")).toBe('days_30')
    expect(jp("regex_replace_all('(?P<first>[a-z]+)-(?P<second>[a-z]+)', 'ab-cd', '${second}-${first}')")).toBe('cd-ab')
    expect(jp("regex_replace_all('^([^/]+\\\\.[^/]+/)?(.*)$', 'docker.io/nginx', 'myregistry.corp.com/$2')")).toBe(
      'myregistry.corp.com/nginx',
    )
  })

  it('reads $name greedily and drops unknown groups, as Go does', () => {
    expect(jp("regex_replace_all('(a)', 'a', '$1x')")).toBe('')
    expect(jp("regex_replace_all('(a)', 'a', '${1}x')")).toBe('ax')
    expect(jp("regex_replace_all('(a)', 'a', '$$1')")).toBe('$1')
    expect(jp("regex_replace_all('a', 'a', '$')")).toBe('$')
  })

  it('replaces an empty match only where no match just ended', () => {
    expect(jp("regex_replace_all_literal('.*', '43123', '1313')")).toBe('1313')
    expect(jp("regex_replace_all('a*', 'baaac', '-')")).toBe('-b-c-')
    expect(jp("regex_replace_all_literal('', 'abc', '-')")).toBe('-a-b-c-')
  })

  it('regex_replace_all_literal does not expand $ references', () => {
    expect(jp("regex_replace_all_literal('^(\\\\d{3}-?\\\\d{2}-?\\\\d{4})$', '123-45-6789', 'redacted')")).toBe('redacted')
    expect(jp("regex_replace_all_literal('^[^/]+', 'docker.io/nginx', 'myregistry.corp.com')")).toBe('myregistry.corp.com/nginx')
    expect(jp("regex_replace_all_literal('(a)', 'a', '$1')")).toBe('$1')
  })

  it('accepts numbers for subject and replacement', () => {
    expect(jp("regex_replace_all('1', `121`, `3`)")).toBe('323')
  })

  it('reports an invalid pattern with the function name', () => {
    expect(jpError("regex_replace_all('(', 'a', 'b')").message).toMatch(/^JMESPath function 'regex_replace_all': error parsing regexp/)
  })
})
