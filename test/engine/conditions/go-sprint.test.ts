import { describe, expect, it } from 'vitest'
import { formatGoFloat, goSprint } from '../../../src/engine/conditions/go-sprint.js'

describe('formatGoFloat', () => {
  it.each([
    [0, '0'],
    [-0, '-0'],
    [1, '1'],
    [-5, '-5'],
    [1.5, '1.5'],
    [123456, '123456'],
    [999999.5, '999999.5'],
    [1000000, '1e+06'],
    [1234567, '1.234567e+06'],
    [1e21, '1e+21'],
    [1.5e100, '1.5e+100'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [0.000123, '0.000123'],
    [1.5e-7, '1.5e-07'],
    [0.1 + 0.2, '0.30000000000000004'],
    [Infinity, '+Inf'],
    [-Infinity, '-Inf'],
    [NaN, 'NaN'],
  ])('prints %s as %s', (value, text) => {
    expect(formatGoFloat(value)).toBe(text)
  })
})

describe('goSprint', () => {
  it('prints decoded JSON as fmt.Sprint does', () => {
    expect(goSprint('text')).toBe('text')
    expect(goSprint(true)).toBe('true')
    expect(goSprint(null)).toBe('<nil>')
    expect(goSprint(1000000n)).toBe('1000000')
    expect(goSprint(1000000)).toBe('1e+06')
    expect(goSprint(['a b', 1n, 2.5, null])).toBe('[a b 1 2.5 <nil>]')
    expect(goSprint({ b: 'x', a: [1n], é: true, z: {} })).toBe('map[a:[1] b:x z:map[] é:true]')
  })
})
