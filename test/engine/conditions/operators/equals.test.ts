import { describe, expect, it } from 'vitest'
import { holds } from '../support.js'

describe('Equals', () => {
  it.each([
    ['identical strings', 'Pod', 'Pod', true],
    ['different strings', 'Pod', 'Deployment', false],
    ['the empty string', '', '', true],
    ['equal numbers', 3, 3, true],
    ['different numbers', 3, 4, false],
    ['equal fractions', 0.25, 0.25, true],
    ['a number and the string of that number', 3, '3', true],
    ['a number and a string Go reads as that number', 3, '3.0', true],
    ['a number and a string in exponent form', 3000, '3e3', true],
    ['a number and a string of another number', 3, '4', false],
    ['a number and a string that is no number', 3, 'three', false],
    ['a string key and a number value (the key decides, and a string compares only with strings)', '3', 3, false],
    ['equal booleans', false, false, true],
    ['different booleans', true, false, false],
    ['a boolean and its spelling', true, 'true', false],
    ['the spelling of a boolean and a boolean', 'true', true, false],
  ])('%s', (_name, key, value, expected) => {
    expect(holds('Equals', key, value)).toBe(expected)
  })

  it('compares Kubernetes quantities by amount, not spelling', () => {
    expect(holds('Equals', '1Gi', '1024Mi')).toBe(true)
    expect(holds('Equals', '1Ki', '1024')).toBe(true)
    expect(holds('Equals', '500m', '0.5')).toBe(true)
    expect(holds('Equals', '2Gi', '2G')).toBe(false)
    expect(holds('Equals', '10Gi', '1024Mi')).toBe(false)
  })

  it('compares durations by length, against a duration string or a number of seconds', () => {
    expect(holds('Equals', '1h', '60m')).toBe(true)
    expect(holds('Equals', '90s', '1m30s')).toBe(true)
    expect(holds('Equals', '1h', 3600)).toBe(true)
    expect(holds('Equals', '2h', 3600)).toBe(false)
    expect(holds('Equals', '1h', '30m')).toBe(false)
  })

  it('reads the value as a glob against the key', () => {
    expect(holds('Equals', 'nginx:1.25', 'nginx:*')).toBe(true)
    expect(holds('Equals', 'app.mycompany.com', '*.mycompany.com')).toBe(true)
    expect(holds('Equals', 'nginx', 'ngi?x')).toBe(true)
    expect(holds('Equals', '1.5.2', '1.5.*')).toBe(true)
    expect(holds('Equals', 'nginx', 'ngi?')).toBe(false)
    // The key is never a pattern.
    expect(holds('Equals', 'nginx:*', 'nginx:1.25')).toBe(false)
  })

  it('does not glob when the key is a quantity: a value that is not a quantity is simply unequal', () => {
    expect(holds('Equals', '100', '1*')).toBe(false)
    expect(holds('Equals', '100', '100')).toBe(true)
  })

  it('compares maps and lists deeply, lists in order', () => {
    expect(holds('Equals', { app: 'web', tier: 'front' }, { tier: 'front', app: 'web' })).toBe(true)
    expect(holds('Equals', { app: 'web' }, { app: 'api' })).toBe(false)
    expect(holds('Equals', ['a', 'b'], ['a', 'b'])).toBe(true)
    expect(holds('Equals', ['a', 'b'], ['b', 'a'])).toBe(false)
    expect(holds('Equals', [{ name: 'x' }], [{ name: 'x' }])).toBe(true)
    expect(holds('Equals', ['a'], 'a')).toBe(false)
    expect(holds('Equals', { a: 1 }, ['a'])).toBe(false)
  })

  it('keeps Go apart a number written in the definition and one produced by a variable', () => {
    // Literal list elements are int64 for Kyverno, JMESPath results float64, and reflect.DeepEqual tells them apart.
    expect(holds('Equals', '{{ ports }}', [80, 443], { ports: [80, 443] })).toBe(false)
    expect(holds('Equals', [80, 443], [80, 443])).toBe(true)
    expect(holds('Equals', '{{ ports }}', '{{ same }}', { ports: [80], same: [80] })).toBe(true)
    // Strings are strings wherever they came from.
    expect(holds('Equals', '{{ names }}', ['a', 'b'], { names: ['a', 'b'] })).toBe(true)
  })

  it('holds for nothing when the key is null, not even null', () => {
    expect(holds('Equals', '{{ missing }}', null, { missing: null })).toBe(false)
    expect(holds('Equals', '{{ missing }}', '', { missing: null })).toBe(false)
  })

  it('is also spelled Equal', () => {
    expect(holds('Equal', 'a', 'a')).toBe(true)
  })
})

describe('NotEquals', () => {
  it.each([
    ['different strings', 'Pod', 'Deployment', true],
    ['identical strings', 'Pod', 'Pod', false],
    ['an empty service account name against empty', '', '', false],
    ['a service account name against empty', 'builder', '', true],
    ['a host outside a wildcard domain', 'app.example.org', '*.mycompany.com', true],
    ['a host inside a wildcard domain', 'app.mycompany.com', '*.mycompany.com', false],
    ['equal quantities in other units', '1Gi', '1024Mi', false],
    ['a quantity against a string that is none', '100Mi', 'lots', true],
    ['a quantity against the empty string', '100Mi', '', true],
    ['equal durations', '1h', '60m', false],
    ['a duration and other seconds', '2h', 3600, true],
    ['numbers', 1, 2, true],
    ['a number and its string', 1, '1', false],
    ['a boolean and its spelling', false, 'false', true],
    ['a map and a list', { a: 'b' }, ['a', 'b'], true],
    ['reordered lists', ['a', 'b'], ['b', 'a'], true],
  ])('%s', (_name, key, value, expected) => {
    expect(holds('NotEquals', key, value)).toBe(expected)
  })

  it('is false for a null key, like Equals', () => {
    expect(holds('NotEquals', '{{ missing }}', 'x', { missing: null })).toBe(false)
  })

  it('is also spelled NotEqual', () => {
    expect(holds('NotEqual', 'a', 'b')).toBe(true)
  })
})
