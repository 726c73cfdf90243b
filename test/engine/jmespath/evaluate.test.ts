import { describe, expect, it } from 'vitest'
import { JmespathError, JmespathNotFoundError, JmespathSyntaxError, type JsonValue } from '../../../src/engine/jmespath/index.js'
import { jp, jpError } from './helpers.js'

const pod: JsonValue = {
  request: {
    object: {
      metadata: { name: 'web', labels: { app: 'shop', tier: null } },
      spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }, { name: 'side', image: 'busybox' }] },
    },
  },
}

describe('Kyverno not-found semantics', () => {
  it('reads present fields, including explicit nulls', () => {
    expect(jp('request.object.metadata.name', pod)).toBe('web')
    expect(jp('request.object.metadata.labels.tier', pod)).toBe(null)
    expect(jp('request.object.spec.containers[0].image', pod)).toBe('nginx:1.25')
  })

  it('throws "Unknown key" for a field missing along the main path, naming the first missing key', () => {
    const error = jpError('request.object.metadata.labels.team', pod)
    expect(error).toBeInstanceOf(JmespathNotFoundError)
    expect(error.message).toBe('Unknown key "team" in path')
    expect(jpError('request.object.metadata.annotations.team', pod).message).toBe('Unknown key "annotations" in path')
    expect(jpError('request.object.spec.initContainers[0]', pod).message).toBe('Unknown key "initContainers" in path')
    expect(jpError('missing', pod).message).toBe('Unknown key "missing" in path')
  })

  it('reads null below a field that is not an object, as go-jmespath does', () => {
    expect(jp('request.object.metadata.name.first', pod)).toBe(null)
    expect(jp('request.object.metadata.labels.tier.x', pod)).toBe(null)
  })

  it('swallows a missing field inside ||, functions, comparisons, projections, filters, pipes and multi-selects', () => {
    expect(jp("request.object.metadata.labels.team || 'none'", pod)).toBe('none')
    expect(jp('length(request.object.metadata.annotations || `{}`)', pod)).toBe(0)
    expect(jp("request.object.metadata.labels.team == 'x'", pod)).toBe(false)
    expect(jp('request.object.spec.initContainers[].image', pod)).toBe(null)
    expect(jp('request.object.spec.containers[?securityContext.privileged].name', pod)).toEqual([])
    expect(jp('request.object.metadata.annotations | @', pod)).toBe(null)
    expect(jp('request.object.[missing, metadata.name]', pod)).toEqual([null, 'web'])
    expect(jp('!(request.object.metadata.labels.team)', pod)).toBe(true)
    // `!` binds tighter than `.`, in go-jmespath too: this is (!request).object... on false.
    expect(jp('!request.object.metadata.labels.team', pod)).toBe(null)
  })

  it('propagates it from the right side of && only', () => {
    expect(jp('request.object.metadata.labels.team && request.object.nothing', pod)).toBe(null)
    expect(jpError('request.object.metadata.name && request.object.nothing', pod).message).toBe('Unknown key "nothing" in path')
  })
})

describe('the Kyverno dialect of JMESPath', () => {
  it('evaluates the standard grammar', () => {
    expect(jp('request.object.spec.containers[*].name', pod)).toEqual(['nginx', 'side'])
    expect(jp('request.object.spec.containers[].image | [1]', pod)).toBe('busybox')
    expect(jp("request.object.spec.containers[?name == 'side'].image | [0]", pod)).toBe('busybox')
    expect(jp('request.object.spec.{count: length(containers), first: containers[0].name}', pod)).toEqual({ count: 2, first: 'nginx' })
    expect(jp('request.object.metadata.labels.*', pod)).toEqual(['shop'])
    expect(jp('`[1, 2, 3]`[::-1]')).toEqual([3, 2, 1])
    expect(jp("'raw string'")).toBe('raw string')
    expect(jp('request.object.metadata."name"', pod)).toBe('web')
  })

  it('refuses the community extensions Kyverno does not parse', () => {
    for (const expression of ['$', 'let $x = a in $x', 'a ? b : c', 'a + b', '-a']) {
      expect(jpError(expression)).toBeInstanceOf(JmespathSyntaxError)
    }
    const dash = jpError('request.object.metadata.labels.app-name', pod)
    expect(dash).toBeInstanceOf(JmespathSyntaxError)
    expect(dash.message).toContain('labels."app-name"')
  })

  it('refuses non-JSON backtick literals and reports syntax errors', () => {
    expect(jpError('`foo`')).toBeInstanceOf(JmespathSyntaxError)
    expect(jpError('a[')).toBeInstanceOf(JmespathSyntaxError)
  })

  it('knows only the functions Kyverno knows', () => {
    for (const name of ['lower', 'upper', 'zip', 'find_first', 'pad_left', 'group_by', 'from_items', 'trim_left']) {
      expect(jpError(`${name}('a')`).message).toContain('Unknown function')
    }
    expect(jpError('no_such_function(@)').message).toContain('Unknown function')
  })

  it('reports wrong argument types and counts as errors', () => {
    expect(jpError('to_upper(`1`)')).toBeInstanceOf(JmespathError)
    expect(jpError("to_upper('a', 'b')")).toBeInstanceOf(JmespathError)
    expect(jpError('to_upper(request.object.metadata.labels.team)', pod)).toBeInstanceOf(JmespathError)
  })

  it('slices lists, not strings', () => {
    expect(jp('[1:]', ['a', 'b'])).toEqual(['b'])
    expect(jp('name[0:2]', { name: 'web' })).toBe(null)
  })

  it('evaluates the right side of a dot even on null, as Go does', () => {
    expect(jp('nothing.to_string(@)', { nothing: null })).toBe('null')
    expect(jp('nothing.[a, b]', { nothing: null })).toBe(null)
  })
})

describe('standard functions with Go behaviour', () => {
  it('to_string writes Go JSON: sorted keys, HTML-safe escapes', () => {
    expect(jp('to_string(@)', { b: 1, a: '<x&y>' })).toBe('{"a":"\\u003cx\\u0026y\\u003e","b":1}')
    expect(jp("to_string('already')")).toBe('already')
    expect(jp('to_string(`[1.5, true, null]`)')).toBe('[1.5,true,null]')
  })

  it('to_number accepts Go float syntax only', () => {
    expect(jp("to_number('12')")).toBe(12)
    expect(jp("to_number('1.5e3')")).toBe(1500)
    expect(jp("to_number(' 12')")).toBe(null)
    expect(jp("to_number('0x10')")).toBe(null)
    expect(jp("to_number('Infinity')")).toBe(null)
    expect(jp("to_number('abc')")).toBe(null)
    expect(jp('to_number(`true`)')).toBe(null)
  })

  it('contains compares by value', () => {
    expect(jp('contains(@, `{"a": 1}`)', [{ a: 1 }])).toBe(true)
    expect(jp("contains('nginx:latest', ':latest')")).toBe(true)
    expect(jp("contains('abc', `1`)")).toBe(false)
  })

  it('sort, max and min order numbers numerically and strings by code point', () => {
    expect(jp('sort(`[10, 9, 1]`)')).toEqual([1, 9, 10])
    expect(jp('sort(`["b", "a", "B", "\u00e9"]`)')).toEqual(['B', 'a', 'b', 'é'])
    // A multi-select of null is null (Go), so this sorts nothing and fails on the type.
    expect(jpError("sort(['b', 'a'])")).toBeInstanceOf(JmespathError)
    expect(jp('max(`[3, 10, 2]`)')).toBe(10)
    expect(jp('min(`["b", "a"]`)')).toBe('a')
    expect(jp('max(`[]`)')).toBe(null)
  })

  it('keeps data keys such as __proto__ and constructor as data', () => {
    const data = JSON.parse('{"__proto__": {"polluted": true}, "constructor": "c"}') as JsonValue
    expect(jp('constructor', data)).toBe('c')
    expect(jp('keys(@)', data)).toEqual(['__proto__', 'constructor'])
    expect(Object.keys(jp('merge(@, `{"x": 1}`)', data) as object)).toEqual(['__proto__', 'constructor', 'x'])
    expect(({} as Record<string, unknown>).polluted).toBe(undefined)
    expect(jpError('toString', {}).message).toBe('Unknown key "toString" in path')
    expect(jp('a.constructor', { a: 'text' })).toBe(null)
  })
})
