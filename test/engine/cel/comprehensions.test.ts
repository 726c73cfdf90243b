import { describe, expect, it } from 'vitest'
import { CelCompileError, compileCel } from '../../../src/engine/cel/index.js'
import { evalCel, evalError } from './helpers.js'

const pod = {
  spec: {
    containers: [
      { name: 'a', ports: [{ containerPort: 80 }] },
      { name: 'b', securityContext: { privileged: false } },
    ],
  },
}

describe('all / exists / exists_one', () => {
  it('quantifies over lists', () => {
    expect(evalCel('[1, 2, 3].all(x, x > 0)')).toBe(true)
    expect(evalCel('[1, 2, 3].all(x, x > 1)')).toBe(false)
    expect(evalCel('[1, 2, 3].exists(x, x == 2)')).toBe(true)
    expect(evalCel('[1, 2, 3].exists(x, x == 4)')).toBe(false)
    expect(evalCel('[1, 2, 3].exists_one(x, x > 2)')).toBe(true)
    expect(evalCel('[1, 2, 3].exists_one(x, x > 1)')).toBe(false)
    expect(evalCel('[].all(x, false)')).toBe(true)
    expect(evalCel('[].exists(x, true)')).toBe(false)
  })

  it('iterates over map keys', () => {
    expect(evalCel("{'a': 1, 'b': 2}.all(k, k in ['a', 'b'])")).toBe(true)
    expect(evalCel("object.metadata.labels.exists(k, k.startsWith('app'))", { object: { metadata: { labels: { app: 'x' } } } })).toBe(true)
  })

  it('lets a false element win over an error in all(), a true one in exists()', () => {
    expect(evalCel('object.spec.containers.all(c, c.securityContext.privileged == true)', { object: pod })).toBe(false)
    expect(evalCel('object.spec.containers.exists(c, c.securityContext.privileged == false)', { object: pod })).toBe(true)
  })

  it('raises the error when nothing decides', () => {
    expect(evalError('object.spec.containers.all(c, c.securityContext.privileged == false)', { object: pod }).message).toBe(
      'No such key: securityContext (at 1:33)',
    )
    expect(evalError('[1, 0].exists_one(x, 1 / x == 1)').message).toBe('division by zero (at 1:22)')
  })

  it('rejects a non-bool predicate', () => {
    expect(evalError("[1].all(x, object)", { object: 'yes' }).message).toBe("all(x, expression): predicate must return bool, got 'string' (at 1:12)")
    expect(() => compileCel('[1].all(x, 1)')).toThrow(CelCompileError)
  })

  it('nests and shadows variables', () => {
    expect(evalCel('[1, 2].all(x, [3, 4].all(y, x < y))')).toBe(true)
    expect(evalCel('[1, 2].exists(x, [x * 10].all(x, x == 20))')).toBe(true)
    expect(evalCel("['10.0.0.1'].all(ip, ip.startsWith('10.'))")).toBe(true)
  })

  it('requires a variable name', () => {
    expect(() => compileCel('[1].all(1, true)')).toThrow('all(var, expression): argument 1 must be a variable name')
  })
})

describe('map / filter', () => {
  it('transforms and filters', () => {
    expect(evalCel('[1, 2, 3].map(x, x * 2)')).toEqual([2n, 4n, 6n])
    expect(evalCel('[1, 2, 3].map(x, x > 1, x * 10)')).toEqual([20n, 30n])
    expect(evalCel('[1, 2, 3].filter(x, x != 2)')).toEqual([1n, 3n])
    expect(evalCel("{'a': 1, 'b': 2}.filter(k, k != 'a')")).toEqual(['b'])
    expect(evalCel('object.spec.containers.map(c, c.name)', { object: pod })).toEqual(['a', 'b'])
  })

  it('stops at the first error', () => {
    expect(evalError('[1, 0].map(x, 1 / x)').message).toBe('division by zero (at 1:15)')
  })
})

describe('two-variable comprehensions', () => {
  it('binds index and element for lists, key and value for maps', () => {
    expect(evalCel("['a', 'b'].all(i, v, i < 2 && v != '')")).toBe(true)
    expect(evalCel("{'a': 1, 'b': 2}.exists(k, v, k == 'b' && v == 2)")).toBe(true)
    expect(evalCel("['a', 'b', 'a'].existsOne(i, v, v == 'b')")).toBe(true)
    expect(evalCel("['a', 'b'].transformList(i, v, v + string(i))")).toEqual(['a0', 'b1'])
    expect(evalCel("['a', 'b'].transformList(i, v, i > 0, v)")).toEqual(['b'])
    expect(evalCel("{'a': 1, 'b': 2}.transformMap(k, v, v * 10)")).toEqual(new Map([['a', 10n], ['b', 20n]]))
    expect(evalCel("{'a': 1, 'b': 2}.transformMap(k, v, v > 1, v)")).toEqual(new Map([['b', 2n]]))
    expect(evalCel("['x'].transformMap(i, v, v)[0]")).toBe('x')
  })

  it('requires two different names', () => {
    expect(() => compileCel('[1].all(x, x, true)')).toThrow('the two variables must have different names')
  })
})
