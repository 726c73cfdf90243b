import { describe, expect, it } from 'vitest'
import { checkConditions, CONDITION_OPERATORS } from '../../../src/engine/conditions/index.js'

const BASE = 'spec.rules[0].validate.deny.conditions'

describe('checkConditions', () => {
  it('accepts well-formed blocks in both forms, and no block', () => {
    expect(checkConditions({ any: [{ key: '{{ request.object.spec.type }}', operator: 'Equals', value: 'NodePort', message: 'm' }] }, BASE)).toEqual([])
    expect(checkConditions({ all: [{ key: 1, operator: 'GreaterThan', value: 0 }], any: null }, BASE)).toEqual([])
    expect(checkConditions([{ key: 'a', operator: 'AnyIn', value: ['a'] }], BASE)).toEqual([])
    expect(checkConditions(undefined, BASE)).toEqual([])
    expect(checkConditions({ any: [] }, BASE)).toEqual([])
  })

  it('accepts every operator Kyverno accepts, deprecated ones and the Equal/NotEqual spellings included', () => {
    for (const operator of CONDITION_OPERATORS) expect(checkConditions([{ key: 'a', operator, value: 'a' }], BASE)).toEqual([])
    expect(CONDITION_OPERATORS).toHaveLength(18)
  })

  it('names an unknown operator at its path', () => {
    const [problem, ...rest] = checkConditions({ all: [{ key: 'a', operator: 'Equals', value: 'a' }, { key: 'a', operator: 'Contains', value: 'a' }] }, BASE)
    expect(rest).toEqual([])
    expect(problem?.path).toBe(`${BASE}.all[1].operator`)
    expect(problem?.message).toMatch(/^unknown condition operator "Contains"; expected one of Equals, NotEquals, /)
  })

  it('refuses a wrongly cased operator, pointing at the right spelling', () => {
    expect(checkConditions([{ key: 'a', operator: 'anyIn', value: 'a' }], BASE)).toEqual([
      { path: `${BASE}[0].operator`, message: 'unknown condition operator "anyIn"; operators are case-sensitive: did you mean "AnyIn"?' },
    ])
  })

  it('wants a key, a value and an operator in every condition', () => {
    expect(checkConditions({ any: [{ operator: 'Equals' }, { key: 'a', value: null, operator: '' }] }, BASE)).toEqual([
      { path: `${BASE}.any[0].key`, message: 'the condition has no key' },
      { path: `${BASE}.any[0].value`, message: 'the condition has no value' },
      { path: `${BASE}.any[1].value`, message: 'the condition has no value' },
      { path: `${BASE}.any[1].operator`, message: 'the condition has no operator' },
    ])
    expect(checkConditions([{ key: 'a', value: '', operator: 'Equals' }], BASE)).toEqual([])
  })

  it('refuses fields that would be ignored, in the block and in a condition', () => {
    expect(checkConditions({ al: [] }, BASE)).toEqual([{ path: `${BASE}.al`, message: 'unknown field "al": conditions take only any and all' }])
    expect(checkConditions([{ key: 'a', operator: 'Equals', value: 'a', mesage: 'x' }], BASE)).toEqual([
      { path: `${BASE}[0].mesage`, message: 'unknown field "mesage": a condition takes key, operator, value and message' },
    ])
  })

  it('refuses shapes that are no conditions', () => {
    expect(checkConditions('x', BASE)).toEqual([{ path: BASE, message: 'conditions must be a list of conditions or an object with any and/or all' }])
    expect(checkConditions({ any: { key: 'a' } }, BASE)).toEqual([{ path: `${BASE}.any`, message: 'any must be a list of conditions' }])
    expect(checkConditions({ all: ['a'] }, BASE)).toEqual([{ path: `${BASE}.all[0]`, message: 'a condition must be an object with key, operator and value' }])
    expect(checkConditions([{ key: 'a', operator: 7, value: 'a', message: 3 }], BASE)).toEqual([
      { path: `${BASE}[0].operator`, message: 'operator must be a string' },
      { path: `${BASE}[0].message`, message: 'message must be a string' },
    ])
  })

  it('wants operations spelled as Kubernetes spells them when the key is the request operation', () => {
    expect(checkConditions([{ key: '{{ request.operation }}', operator: 'Equals', value: 'DELETE' }], BASE)).toEqual([])
    expect(checkConditions([{ key: '{{request.operation}}', operator: 'AnyIn', value: ['CREATE', 'UPDATE'] }], BASE)).toEqual([])
    expect(checkConditions([{ key: '{{ request.operation }}', operator: 'Equals', value: '{{ request.object.data.op }}' }], BASE)).toEqual([])
    expect(checkConditions([{ key: '{{ request.operation }}', operator: 'Equals', value: 'delete' }], BASE)).toEqual([
      { path: `${BASE}[0].value`, message: '"delete" is no operation: request.operation is one of CREATE, UPDATE, DELETE or CONNECT' },
    ])
    expect(checkConditions([{ key: '{{ request.operation }}', operator: 'AnyIn', value: ['CREATE', 'PATCH', 1] }], BASE)).toEqual([
      { path: `${BASE}[0].value[1]`, message: '"PATCH" is no operation: request.operation is one of CREATE, UPDATE, DELETE or CONNECT' },
      { path: `${BASE}[0].value[2]`, message: 'operations compared with request.operation must be strings' },
    ])
    expect(checkConditions([{ key: '{{ request.operation }}', operator: 'Equals', value: 1 }], BASE)).toHaveLength(1)
  })

  it('locates problems under a bare list and with an empty base path', () => {
    expect(checkConditions([{ key: 'a', operator: 'Nope', value: 'a' }], '')[0]?.path).toBe('[0].operator')
  })
})
