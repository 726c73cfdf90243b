import { describe, expect, it } from 'vitest'
import { CelCompileError, compileCel } from '../../../src/engine/cel/index.js'
import { evalCel, evalError } from './helpers.js'

describe('has() over any operand, as cel-go accepts it', () => {
  const object = { spec: { containers: [{ name: 'a', image: 'x' }] }, data: { text: '{"a": {"b": 1}}' } }

  it('tests the last field of a selection from a call, an index or a literal', () => {
    expect(evalCel('has(json.decode(object.data.text).a.b)', { object })).toBe(true)
    expect(evalCel('has(json.decode(object.data.text).a.c)', { object })).toBe(false)
    expect(evalCel('has(object.spec.containers[0].image)', { object })).toBe(true)
    expect(evalCel('has(object.spec.containers[0].resources)', { object })).toBe(false)
    expect(evalCel("has({'a': 1}.a) && !has({'a': 1}.b)")).toBe(true)
    expect(evalCel('object.spec.containers.all(c, has(dyn(c).image))', { object })).toBe(true)
  })

  it('still selects the inner fields as `.` does: a missing one is an error', () => {
    expect(evalError('has(json.decode(object.data.text).x.b)', { object }).message).toBe('No such key: x (at 1:35)')
    expect(evalCel('has(json.decode(object.data.text).?x.b)', { object })).toBe(false)
  })

  it('keeps rules for identifier chains as they were', () => {
    expect(evalCel('has(object.spec) && !has(object.status)', { object })).toBe(true)
    expect(evalError('has(object.status.phase)', { object }).message).toBe('No such key: status (at 1:12)')
  })

  it('still needs a field selection', () => {
    for (const expression of ['has(object)', 'has(object.spec.containers[0])', 'has(size(object))']) {
      expect(() => compileCel(expression)).toThrow(CelCompileError)
      expect(() => compileCel(expression)).toThrow('has() invalid argument')
    }
  })
})
