import { describe, expect, it } from 'vitest'
import { jp, jpError } from './helpers.js'

describe('parse_json and parse_yaml', () => {
  it('parse_json decodes any JSON value', () => {
    expect(jp("parse_json('[\"1001\",\"1002\"]')[*].to_number(@)")).toEqual([1001, 1002])
    expect(jp('parse_json(\'{"a": {"b": 1}}\').a.b')).toBe(1)
    expect(jp("parse_json('null')")).toBe(null)
    expect(jpError("parse_json('{')").message).toMatch(/^JMESPath function 'parse_json': /)
  })

  it('parse_yaml reads YAML 1.1 as sigs.k8s.io/yaml does', () => {
    const pets = 'species:\n  dog: lab\n  height: 15\n  isGoodBoi: false\n  snacks:\n  - chimken\n  - fries\n'
    expect(jp('parse_yaml(@).species.isGoodBoi', pets)).toBe(false)
    expect(jp('parse_yaml(@).species.snacks[1]', pets)).toBe('fries')
    expect(jp('parse_yaml(@)', 'a: yes\nb: off\nc: 0777\nd: 2001-12-14\ne: ~\n1: x\n')).toEqual({
      a: true,
      b: false,
      c: 511,
      d: '2001-12-14',
      e: null,
      1: 'x',
    })
    expect(jp("parse_yaml('')")).toBe(null)
  })

  it('refuses decoded values deeper than the document limit, and YAML without a JSON form', () => {
    expect(jpError('parse_json(@)', '['.repeat(300) + ']'.repeat(300)).message).toContain('nested more than 200 levels')
    expect(jpError("parse_yaml('a: .inf')").message).toContain('not a JSON number')
  })
})

describe('items and object_from_lists', () => {
  it('items turns a map into sorted key/value objects with the given names', () => {
    expect(jp("items(@, 'key', 'value')", { team: 'apple', organization: 'banana' })).toEqual([
      { key: 'organization', value: 'banana' },
      { key: 'team', value: 'apple' },
    ])
  })

  it('items turns an array into index/value objects', () => {
    expect(jp("items(@, 'key', 'value')", [{ team: 'apple' }, { organization: 'banana' }])).toEqual([
      { key: 0, value: { team: 'apple' } },
      { key: 1, value: { organization: 'banana' } },
    ])
  })

  it('object_from_lists pairs keys with values, null when values run out', () => {
    const pod = {
      spec: {
        containers: [
          {
            env: [
              { name: 'KEY', value: '123-456-789' },
              { name: 'endpoint', value: 'licensing.corp.org' },
            ],
          },
        ],
      },
    }
    expect(jp('object_from_lists(spec.containers[].env[].name, spec.containers[].env[].value)', pod)).toEqual({
      KEY: '123-456-789',
      endpoint: 'licensing.corp.org',
    })
    expect(jp('object_from_lists(`["a", "b"]`, `[1]`)')).toEqual({ a: 1, b: null })
    expect(jp('object_from_lists(`[1, true]`, `["x", "y"]`)')).toEqual({ 1: 'x', true: 'y' })
    expect(jpError('object_from_lists(`[{}]`, `[1]`)').message).toContain('StringArray')
  })
})

describe('lookup and label_match', () => {
  it('lookup reads a key or an index, null when absent', () => {
    expect(jp('lookup(`{"key1": "value1", "key2": "value2"}`, \'key2\')')).toBe('value2')
    expect(jp('lookup(`["item0", "item1", "item2"]`, `1`)')).toBe('item1')
    expect(jp("lookup(`{}`, 'nope')")).toBe(null)
    expect(jp('lookup(`[1]`, `5`)')).toBe(null)
    expect(jp('lookup(`[1]`, `-1`)')).toBe(null)
  })

  it('lookup wants a string key for objects and an integer index for arrays', () => {
    expect(jpError('lookup(`{}`, `1`)').message).toContain('argument #2 is not of type String')
    expect(jpError("lookup(`[1]`, 'a')").message).toContain('argument #2 is not of type Number')
    expect(jpError('lookup(`[1]`, `0.5`)').message).toBe("JMESPath function 'lookup': argument #2: expected an integer number but got: 0.5")
  })

  it('label_match is true when every label of the first map is in the second', () => {
    expect(jp('label_match(`{"dog": "lab", "color": "tan"}`, `{"color": "tan", "dog": "lab"}`)')).toBe(true)
    expect(jp('label_match(`{"dog": "lab", "color": "tan"}`, `{"color": "tan", "weight": "chonky", "dog": "lab"}`)')).toBe(true)
    expect(jp('label_match(`{"dog": "lab", "color": "tan"}`, `{"color": "black", "dog": "lab"}`)')).toBe(false)
    expect(jp('label_match(`{"a": {"b": 1}}`, `{"a": {"b": 1}}`)')).toBe(true)
  })
})

describe('pattern_match', () => {
  it('matches * and ? wildcards against the whole string or number', () => {
    expect(jp("pattern_match('158-7?-4*', '158-73-417')")).toBe(true)
    expect(jp("pattern_match('158-6?-3*', '158-73-417')")).toBe(false)
    expect(jp("pattern_match('1*', `123`)")).toBe(true)
    expect(jp("pattern_match('a?c', 'a😀c')")).toBe(true)
    expect(jp("pattern_match('', '')")).toBe(true)
    expect(jp("pattern_match('a', 'ab')")).toBe(false)
  })

  it('stays fast on many stars', () => {
    // No clock here: a backtracking or quadratic implementation would not end within the test's timeout.
    expect(jp(`pattern_match('${'a*'.repeat(50)}b', @)`, 'a'.repeat(2000))).toBe(false)
  })
})
