import { describe, expect, it } from 'vitest'
import { evalCel } from './helpers.js'

// Receivers typed `dyn` at compile time (everything read from `object`) are dispatched at runtime
// among overloads that share a method name across libraries.
describe('runtime dispatch on dynamic receivers', () => {
  const object = { name: 'abc', items: [1, 2, 3], limit: '1Gi', version: '1.2.3', cidr: '10.0.0.0/8' }

  it.each([
    ['object.name.reverse()', 'cba'],
    ['object.items.reverse()', [3n, 2n, 1n]],
    ["object.name.indexOf('c')", 2n],
    ['object.items.indexOf(3)', 2n],
    ["object.name.lastIndexOf('a')", 0n],
    ['object.items.lastIndexOf(1)', 0n],
    ["quantity(object.limit).isLessThan(quantity('2Gi'))", true],
    ["semver(object.version).isLessThan(semver('2.0.0'))", true],
    ["cidr(object.cidr).containsIP('10.1.2.3')", true],
    ["[ip('10.0.0.1'), cidr(object.cidr)].map(v, string(v))", ['10.0.0.1', '10.0.0.0/8']],
  ])('%s', (expression, expected) => {
    expect(evalCel(expression, { object })).toEqual(expected)
  })
})
