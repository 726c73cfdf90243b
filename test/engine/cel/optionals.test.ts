import { describe, expect, it } from 'vitest'
import { compileCel } from '../../../src/engine/cel/index.js'
import { evalCel, evalError } from './helpers.js'

const container = { name: 'web', volumeMounts: [{ name: 'data', readOnly: true }] }

describe('orValue / or', () => {
  it('unwraps an optional or falls back to the default', () => {
    expect(evalCel("object.?spec.?replicas.orValue(1)", { object: { spec: { replicas: 3 } } })).toBe(3n)
    expect(evalCel("object.?spec.?replicas.orValue(1)", { object: {} })).toBe(1n)
    expect(evalCel("optional.none().or(optional.of(2)).value()")).toBe(2n)
    expect(evalCel("optional.of(1).or(optional.of(2)).value()")).toBe(1n)
  })

  it('evaluates the default only when needed', () => {
    expect(evalCel('optional.of(1).orValue(1 / 0)')).toBe(1n)
  })

  it('returns a non-optional receiver unchanged, as cel-go did until v0.28', () => {
    expect(evalCel('object.volumeMounts.orValue([]).size()', { object: container })).toBe(1n)
    expect(evalCel("object.name.or(optional.none())", { object: container })).toBe('web')
  })

  it('still propagates an error from the receiver', () => {
    expect(evalError('object.nope.orValue([])', { object: container }).message).toBe('No such key: nope (at 1:8)')
  })

  it('rejects a receiver that can never be optional at compile time', () => {
    expect(() => compileCel("'a'.orValue('b')")).toThrow("orValue() receiver must be optional, got 'string'")
    expect(() => compileCel("optional.of(1).or(2)")).toThrow("or() argument must be optional, got 'int'")
    expect(evalError('optional.none().or(object.x)', { object: { x: 2 } }).message).toBe('or() argument must be optional (at 1:27)')
  })

  it('keeps the static type of an optional value', () => {
    expect(() => compileCel("optional.of(1).orValue(2) + 'a'")).toThrow('no such overload: int + string')
  })
})
