import { describe, expect, it } from 'vitest'
import {
  JmespathBudgetError,
  KyvernoContext,
  SubstitutionError,
  substituteVariables,
  type JsonObject,
  type JsonValue,
} from '../../../src/engine/jmespath/index.js'

const resource: JsonObject = {
  metadata: { name: 'temp', namespace: 'n1', annotations: { test: 'name', targetnew: 'target', target: 'nested_target' } },
  spec: { port: '443', kind: 'foo' },
  complex_object_array: ['value1', 'value2', 'value3'],
  complex_object_map: { key2: 'value2', key1: 'value1', key3: '<v&3>' },
  simple_object_bool: false,
  simple_object_int: 5,
  simple_object_float: -5.5,
  simple_object_null: null,
}

function contextFor(extra: JsonObject = {}, operation = 'CREATE'): KyvernoContext {
  return KyvernoContext.fromData({ request: { object: resource, operation }, ...extra })
}

function substitute(value: JsonValue, context = contextFor(), options = {}): JsonValue {
  return substituteVariables(value, context, options)
}

function failure(value: JsonValue, context = contextFor()): SubstitutionError {
  try {
    substitute(value, context)
  } catch (error) {
    expect(error).toBeInstanceOf(SubstitutionError)
    return error as SubstitutionError
  }
  throw new Error('expected a substitution error')
}

describe('whole-string and embedded variables', () => {
  it('a string that is exactly one variable takes the value and its type', () => {
    expect(substitute('{{ request.object.simple_object_int }}')).toBe(5)
    expect(substitute('{{request.object.simple_object_bool}}')).toBe(false)
    expect(substitute('{{ request.object.simple_object_null }}')).toBe(null)
    expect(substitute('{{ request.object.complex_object_array }}')).toEqual(['value1', 'value2', 'value3'])
    expect(substitute('{{ request.object.metadata.name }}')).toBe('temp')
    expect(substitute('{{request.object.simple_object_float}}')).toBe(-5.5)
  })

  it('a variable inside a longer string is replaced by its text: Go JSON for non-strings', () => {
    expect(substitute('content = {{ request.object.simple_object_int }}')).toBe('content = 5')
    expect(substitute('content = {{ request.object.simple_object_bool }}')).toBe('content = false')
    expect(substitute('content = {{ request.object.simple_object_null }}')).toBe('content = null')
    expect(substitute('content = {{ request.object.simple_object_string || request.object.metadata.name }}')).toBe('content = temp')
    expect(substitute('content is {{ request.object.complex_object_map }}')).toBe(
      'content is {"key1":"value1","key2":"value2","key3":"\\u003cv\\u00263\\u003e"}',
    )
    expect(substitute('{{request.object.metadata.name}}-{{request.object.metadata.namespace}}')).toBe('temp-n1')
  })

  it('substitutes every string of a document, keys included, and keeps other values', () => {
    const pattern = {
      kind: '{{request.object.metadata.name}}',
      name: 'ns-owner-{{request.object.metadata.name}}',
      count: 3,
      data: { rules: [{ apiGroups: ['{{request.object.metadata.name}}'], verbs: ['*'] }] },
      '{{request.object.metadata.namespace}}-key': true,
    }
    expect(substitute(pattern)).toEqual({
      kind: 'temp',
      name: 'ns-owner-temp',
      count: 3,
      data: { rules: [{ apiGroups: ['temp'], verbs: ['*'] }] },
      'n1-key': true,
    })
  })

  it('refuses a key that substitutes to something other than a string', () => {
    expect(failure({ '{{ request.object.simple_object_int }}': 1 }).message).toBe(
      'expected string after substituting variables in key "{{ request.object.simple_object_int }}"',
    )
  })

  it('walks a substituted object, and evaluates variables its strings contain', () => {
    const context = contextFor({ defaults: { labels: { team: '{{ request.object.metadata.name }}' } } })
    expect(substitute({ metadata: '{{ defaults }}' }, context)).toEqual({ metadata: { labels: { team: 'temp' } } })
  })
})

describe('nesting, escapes and shallow substitution', () => {
  it('resolves nested variables inside out', () => {
    expect(substitute('{{request.object.metadata.{{request.object.metadata.annotations.test}}}}')).toBe('temp')
    expect(substitute('{{ request.object.metadata.annotations.{{ request.object.metadata.annotations.targetnew }} }}')).toBe('nested_target')
  })

  it('fails when the inner or the outer variable is missing', () => {
    expect(failure('{{request.object.metadata.{{request.object.metadata.annotations.test2}}}}').notFound).toBe(true)
    expect(failure('{{request.object.metadata2.{{request.object.metadata.annotations.test}}}}').notFound).toBe(true)
  })

  it('keeps \\{{ as an escape and writes it as {{', () => {
    expect(substitute('\\{{ not.a.variable }}')).toBe('{{ not.a.variable }}')
    expect(substitute('\\{{request.object.metadata.annotations.{{request.object.metadata.annotations.targetnew}}}}')).toBe(
      '{{request.object.metadata.annotations.target}}',
    )
    expect(substitute('a {{request.object.metadata.name}} \\{{b}}')).toBe('a temp {{b}}')
  })

  it('{{- x }} substitutes x without scanning its text for more variables', () => {
    const context = KyvernoContext.fromData({
      variableWithVariables: '{{ DO_NOT_SUBSTITUTE_ME {{OR_ME}} }}',
      foo: 'bar',
      foo2: 'bar2',
      variablesNested: '{{foo2}}',
    })
    expect(substitute('{{- variableWithVariables }} {{foo}} {{variablesNested}}', context)).toBe('{{ DO_NOT_SUBSTITUTE_ME {{OR_ME}} }} bar bar2')
    expect(substitute('{{foo}} {{- variableWithVariables }} {{variablesNested}}', context)).toBe('bar {{ DO_NOT_SUBSTITUTE_ME {{OR_ME}} }} bar2')
    expect(failure('{{- variableWithVariables {{foo}} {{variablesNested}} }}', context).message).toContain(
      'failed to resolve variableWithVariables bar bar2',
    )
  })

  it('ignores whitespace inside the braces', () => {
    expect(substitute('{{   request.object.metadata.name\n}}')).toBe('temp')
  })

  it('gives up on a value that keeps producing variables', () => {
    const context = KyvernoContext.fromData({ loop: 'x{{loop}}' })
    expect(() => substitute('{{loop}}!', context)).toThrow(JmespathBudgetError)
  })
})

describe('errors, DELETE and the current value', () => {
  it('reports a missing variable the way Kyverno does, with the path', () => {
    const error = failure({ spec: { containers: [{ name: '{{request.object.metadata.name1}}*' }] } })
    expect(error.message).toBe(
      'failed to resolve request.object.metadata.name1 at path /spec/containers/0/name: JMESPath query failed: Unknown key "name1" in path',
    )
    expect(error.notFound).toBe(true)
    expect(error.path).toBe('/spec/containers/0/name')
    expect(error.variable).toBe('request.object.metadata.name1')
    expect(failure('{{ request.object.spec.sourceRef.namespace }}').message).toBe(
      'failed to resolve request.object.spec.sourceRef.namespace at path : JMESPath query failed: Unknown key "sourceRef" in path',
    )
  })

  it('reports syntax errors and empty variables', () => {
    expect(failure('{{ request.object.metadata.app-name }}').message).toMatch(/^failed to resolve request\.object\.metadata\.app-name at path : incorrect query /)
    expect(failure('x {{ }}').message).toBe('failed to resolve  at path : invalid query (nil)')
    expect(failure('x {{ }}').notFound).toBe(false)
  })

  it('reads request.oldObject for request.object on DELETE', () => {
    const context = KyvernoContext.fromData({
      request: { operation: 'DELETE', object: { metadata: { annotations: { target: 'foo' } } }, oldObject: { metadata: { annotations: { target: 'bar' } } } },
    })
    expect(substitute('{{request.object.metadata.annotations.target}}', context)).toBe('bar')
  })

  it('{{@}} is the resource value at the same path after the rule section', () => {
    const pattern = { mutate: { overlay: { spec: { kind: '{{@}}', port: "{{ regex_match('(443)', '{{@}}') }}" } } } }
    expect(substitute(pattern)).toEqual({ mutate: { overlay: { spec: { kind: 'foo', port: true } } } })
    expect(substitute("{{ regex_replace_all_literal('.*', '{{@}}', '1313') }}", contextFor(), { path: '/validate/pattern/spec/port' })).toBe('1313')
    // In a foreach, the path starts after "foreach": /foreach/0/pattern/... reads as /pattern/...
    expect(substitute('{{@}}', contextFor(), { path: '/validate/foreach/0/pattern/spec/kind' })).toBe('foo')
  })
})

describe('$(...) references', () => {
  it('resolves a relative path in the same document, ignoring anchors', () => {
    const document = {
      metadata: { name: 'temp', annotations: { test: '$(../../../../spec/namespace)' } },
      '(spec)': { namespace: 'n1', name: 'temp1' },
    }
    expect(substitute(document)).toEqual({
      metadata: { name: 'temp', annotations: { test: 'n1' } },
      '(spec)': { namespace: 'n1', name: 'temp1' },
    })
  })

  it('keeps an operator and turns numbers into Go %f text', () => {
    const pattern = {
      spec: { containers: [{ resources: { requests: { memory: '$(<=./../../limits/memory)', cpu: '$(>./../../limits/cpu)' }, limits: { memory: '2048Mi', cpu: 2 } } }] },
    }
    const out = substitute(pattern) as { spec: { containers: Array<{ resources: { requests: JsonObject } }> } }
    expect(out.spec.containers[0]?.resources.requests).toEqual({ memory: '<=2048Mi', cpu: '>2.000000' })
  })

  it('unescapes \\$( and leaves other dollar text alone', () => {
    expect(substitute({ a: '\\$(ENV_VAR)', b: '\\${ENV_VAR}', c: '\\$(NODE_NAME)/postgres/\\$(POD_NAME)' })).toEqual({
      a: '$(ENV_VAR)',
      b: '\\${ENV_VAR}',
      c: '$(NODE_NAME)/postgres/$(POD_NAME)',
    })
  })

  it('fails on a reference to nothing, or to a non-string without operator', () => {
    expect(failure({ a: '$(./b)' }).message).toBe('got nil resolved variable $(./b) at path /a: <nil>')
    expect(failure({ a: { b: '$(../../c)' }, c: 1 }).message).toBe('NotResolvedReferenceErr,reference $(../../c) not resolved at path /a/b')
    expect(failure({ a: '$(<=)' }).message).toBe('failed to resolve $(<=) at path /a: expected path, found empty reference')
    // `$()` is not a reference at all: one character must follow `$(`.
    expect(substitute({ a: '$()' })).toEqual({ a: '$()' })
  })

  it('can be turned off', () => {
    expect(substituteVariables({ a: '$(./b)' }, contextFor(), { references: false })).toEqual({ a: '$(./b)' })
  })
})
