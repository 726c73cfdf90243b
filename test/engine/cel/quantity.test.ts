import { describe, expect, it } from 'vitest'
import { compileCel } from '../../../src/engine/cel/index.js'
import { parseQuantity } from '../../../src/engine/cel/libraries/quantity.js'
import { evalCel, evalError } from './helpers.js'

describe('quantity()', () => {
  it('parses every suffix', () => {
    const value = (text: string): number => Number(evalCel(`quantity('${text}').asApproximateFloat()`))
    expect(value('12Mi')).toBe(12 * 2 ** 20)
    expect(value('1Ki')).toBe(1024)
    expect(value('1Gi')).toBe(2 ** 30)
    expect(value('1Ti')).toBe(2 ** 40)
    expect(value('1Pi')).toBe(2 ** 50)
    expect(value('1Ei')).toBe(2 ** 60)
    expect(value('500m')).toBe(0.5)
    expect(value('1n')).toBe(1e-9)
    expect(value('3u')).toBe(3e-6)
    expect(value('2k')).toBe(2000)
    expect(value('2M')).toBe(2e6)
    expect(value('2G')).toBe(2e9)
    expect(value('2T')).toBe(2e12)
    expect(value('2P')).toBe(2e15)
    expect(value('2E')).toBe(2e18)
    expect(value('1.5e3')).toBe(1500)
    expect(value('15E-1')).toBe(1.5)
    expect(value('-0.25')).toBe(-0.25)
    expect(value('+.5')).toBe(0.5)
  })

  it('rounds values finer than a nano up', () => {
    expect(evalCel("quantity('0.1n') == quantity('1n')")).toBe(true)
    expect(evalCel("quantity('1e-20') == quantity('1n')")).toBe(true)
    expect(evalCel("quantity('-1e-20') == quantity('-1n')")).toBe(true)
  })

  it('caps binary quantities at 2^63-1', () => {
    expect(evalCel("quantity('100000000Ei').compareTo(quantity('9223372036854775807'))")).toBe(0n)
  })

  it('rejects malformed quantities with the Kubernetes messages', () => {
    expect(evalError("quantity('10Mo')").message).toBe(
      "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$' (at 1:1)",
    )
    expect(evalError("quantity('10Mm')").message).toBe("unable to parse quantity's suffix (at 1:1)")
    expect(evalError("quantity('')").message).toMatch(/^quantities must match/)
    expect(evalError("quantity('1 Mi')").message).toMatch(/^quantities must match/)
    expect(evalError("quantity('1K')").message).toBe("unable to parse quantity's suffix (at 1:1)")
  })

  it('isQuantity', () => {
    expect(evalCel("isQuantity('20')")).toBe(true)
    expect(evalCel("isQuantity('20M')")).toBe(true)
    expect(evalCel("isQuantity('20Mi')")).toBe(true)
    expect(evalCel("isQuantity('20Mo')")).toBe(false)
    expect(evalCel("isQuantity('10Mm')")).toBe(false)
    expect(() => compileCel('isQuantity([1, 2, 3])')).toThrow("found no matching overload for 'isQuantity(list<int>)'")
  })
})

describe('Quantity methods (the Kubernetes library test cases)', () => {
  it.each([
    ['quantity("200M") == quantity("200M")', true],
    ['quantity("200M") == quantity("0.2G") && quantity("0.2G") == quantity("200M")', true],
    ['quantity("2M") == quantity("0.002G") && quantity("2000k") == quantity("2M") && quantity("0.002G") == quantity("2000k")', true],
    ['quantity("200M") == quantity("0.3G")', false],
    ['quantity("50M").isLessThan(quantity("50Mi"))', true],
    ['quantity("50M").isLessThan(quantity("100M"))', true],
    ['quantity("100M").isLessThan(quantity("50M"))', false],
    ['quantity("50Mi").isGreaterThan(quantity("50M"))', true],
    ['quantity("150Mi").isGreaterThan(quantity("100Mi"))', true],
    ['quantity("50M").isGreaterThan(quantity("100M"))', false],
    ['quantity("200M").compareTo(quantity("0.2G"))', 0n],
    ['quantity("50M").compareTo(quantity("50Mi"))', -1n],
    ['quantity("50Mi").compareTo(quantity("50M"))', 1n],
    ['quantity("50k").add(quantity("20")) == quantity("50.02k")', true],
    ['quantity("50k").add(20).isLessThan(quantity("50020"))', false],
    ['quantity("50k").sub(quantity("20")) == quantity("49.98k")', true],
    ['quantity("50k").sub(20) == quantity("49980")', true],
    ['quantity("50k").add(20).sub(quantity("100k")).asInteger()', -49980n],
    ['quantity("50k").add(20).sub(quantity("100k")).sub(-50000).asInteger()', 20n],
    ['quantity("50k").asInteger()', 50000n],
    ['quantity("9999999999999999999999999999999999999G").isInteger()', false],
    ['quantity("50").isInteger()', true],
    ['quantity("50.703k").asApproximateFloat()', 50703],
    ['[quantity("9999999999999999999999999999999999999")].all(x, x.add(quantity("1")).compareTo(x.add(quantity("2"))) == -1)', true],
  ])('%s', (expression, expected) => {
    expect(evalCel(expression)).toBe(expected)
  })

  it('fails asInteger when the value is not an int64', () => {
    expect(evalError('quantity("9999999999999999999999999999999999999G").asInteger()').message).toBe('cannot convert value to integer (at 1:1)')
  })

  it('follows Go on which quantities count as integers', () => {
    expect(evalCel("quantity('1k').isInteger()")).toBe(true)
    expect(evalCel("quantity('1.5k').asInteger()")).toBe(1500n)
    expect(evalCel("quantity('1Ki').asInteger()")).toBe(1024n)
    // Go keeps these in a form whose AsInt64 reports failure although the value is whole.
    expect(evalCel("quantity('1000m').isInteger()")).toBe(false)
    expect(evalCel("quantity('1.5Ki').isInteger()")).toBe(false)
  })

  it('sign, in both call forms', () => {
    expect(evalCel("quantity('-5').sign()")).toBe(-1n)
    expect(evalCel("sign(quantity('0'))")).toBe(0n)
    expect(evalCel("quantity('1m').sign()")).toBe(1n)
  })

  it('works on values from the resource', () => {
    const object = { spec: { containers: [{ resources: { limits: { memory: '512Mi', cpu: '500m' } } }] } }
    expect(evalCel("object.spec.containers.all(c, quantity(c.resources.limits.memory).isLessThan(quantity('1Gi')))", { object })).toBe(true)
    expect(evalCel("quantity(object.spec.containers[0].resources.limits.cpu).asApproximateFloat()", { object })).toBe(0.5)
  })

  it('prints parsed quantities as written and computed ones canonically', () => {
    expect(parseQuantity('1.5Gi').toString()).toBe('1.5Gi')
    expect(evalCel("string(quantity('1k').add(quantity('500')).isInteger())")).toBe('true')
    expect(parseQuantity('1k').add(parseQuantity('500')).toString()).toBe('1500')
    expect(parseQuantity('1k').add(parseQuantity('1k')).toString()).toBe('2k')
    expect(parseQuantity('1').sub(parseQuantity('500m')).toString()).toBe('500m')
  })

  it('refuses arithmetic across absurd exponents instead of building huge numbers', () => {
    expect(evalCel("quantity('1e999999999').isGreaterThan(quantity('1'))")).toBe(true)
    expect(evalError("quantity('1e999999999').add(quantity('1'))").message).toBe('quantity arithmetic out of the supported range (at 1:1)')
  })
})
