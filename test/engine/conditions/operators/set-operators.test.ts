import { describe, expect, it } from 'vitest'
import { holds } from '../support.js'

const ADDRESSES = ['1.1.1.1', '2.2.2.2', '3.3.3.3']

describe('AnyIn', () => {
  it('finds one key in a list of values (the documented service-account example)', () => {
    const variables = (name: string) => ({ serviceAccountName: name })
    expect(holds('AnyIn', '{{serviceAccountName}}', ['build-default', 'build-base'], variables('build-base'))).toBe(true)
    expect(holds('AnyIn', '{{serviceAccountName}}', ['build-default', 'build-base'], variables('deployer'))).toBe(false)
  })

  it('holds when some element of a list key is among the values', () => {
    expect(holds('AnyIn', ['1.1.1.1', '5.5.5.5'], ADDRESSES)).toBe(true)
    expect(holds('AnyIn', ['4.4.4.4', '5.5.5.5'], ADDRESSES)).toBe(false)
    expect(holds('AnyIn', ['1.1.1.1', '5.5.5.5'], '1.1.1.1')).toBe(true)
    expect(holds('AnyIn', [], ADDRESSES)).toBe(false)
  })

  it('matches globs on either side', () => {
    expect(holds('AnyIn', ['1*'], ADDRESSES)).toBe(true)
    expect(holds('AnyIn', ['5*'], ADDRESSES)).toBe(false)
    expect(holds('AnyIn', ['1.1.1.1', '2.2.2.2'], ['2*'])).toBe(true)
    expect(holds('AnyIn', '1.1.1.1', ['1*'])).toBe(true)
    expect(holds('AnyIn', 'kube-system', 'kube-*')).toBe(true)
    // Against a single string value only the value is a pattern, as in Kyverno.
    expect(holds('AnyIn', 'kube-*', 'kube-system')).toBe(false)
    expect(holds('AnyIn', ['kube-*', 'x'], 'kube-system')).toBe(true)
  })

  it('compares numbers and booleans as Go prints them', () => {
    expect(holds('AnyIn', [1, 2], [1, 2, 3, 4])).toBe(true)
    expect(holds('AnyIn', [5], [1, 2, 3, 4])).toBe(false)
    expect(holds('AnyIn', 2, ['1', '2'])).toBe(true)
    expect(holds('AnyIn', [1, 2, 3], 2)).toBe(true)
    expect(holds('AnyIn', [1.5], '1.5')).toBe(true)
    // The documented privileged-container deny: any of the flags true.
    const privileged = '{{ request.object.spec.containers[].securityContext.privileged }}'
    expect(holds('AnyIn', privileged, [true], { 'request.object.spec.containers[].securityContext.privileged': [false, true] })).toBe(true)
    expect(holds('AnyIn', privileged, [true], { 'request.object.spec.containers[].securityContext.privileged': [false, false] })).toBe(false)
  })

  it('spells a float of a million as Go does, so only a literal list keeps it whole', () => {
    // A substituted number is a float64: fmt prints 1e+06.
    expect(holds('AnyIn', '{{ uid }}', ['1000000'], { uid: 1000000 })).toBe(false)
    expect(holds('AnyIn', '{{ uid }}', ['1e+06'], { uid: 1000000 })).toBe(true)
    // Kyverno round-trips a whole literal key through JSON too, so it is a float64 as well.
    expect(holds('AnyIn', 1000000, ['1000000'])).toBe(false)
    // Inside a literal list the number stays an int64.
    expect(holds('AnyIn', [1000000], ['1000000'])).toBe(true)
    expect(holds('AnyIn', '{{ uid }}', [1000000], { uid: 1000000 })).toBe(false)
    expect(holds('AnyIn', '{{ uid }}', [123456], { uid: 123456 })).toBe(true)
  })

  it('reads a value such as 1-10 as an inclusive range', () => {
    expect(holds('AnyIn', '5', '1-10')).toBe(true)
    expect(holds('AnyIn', 5, '1-10')).toBe(true)
    expect(holds('AnyIn', 10, '1-10')).toBe(true)
    expect(holds('AnyIn', 11, '1-10')).toBe(false)
    expect(holds('AnyIn', ['5'], '1-3')).toBe(false)
    expect(holds('AnyIn', [1, 5], '7-10')).toBe(false)
    expect(holds('AnyIn', [1, 5], '0-10')).toBe(true)
    expect(holds('AnyIn', [1.002, 1.222], '1.001-10')).toBe(true)
    expect(holds('AnyIn', -3, '-5-5')).toBe(true)
  })

  it('reads a range of quantities by amount', () => {
    expect(holds('AnyIn', '512Mi', '256Mi-1Gi')).toBe(true)
    expect(holds('AnyIn', '2Gi', '256Mi-1Gi')).toBe(false)
    expect(holds('AnyIn', '1500m', '1-2')).toBe(true)
    // Nothing that is not a number falls in a range.
    expect(holds('AnyIn', 'abc', '1-10')).toBe(false)
  })

  it('reads a string value holding a JSON list of strings as that list', () => {
    expect(holds('AnyIn', 'b', '["a", "b"]')).toBe(true)
    expect(holds('AnyIn', 'c', '["a", "b"]')).toBe(false)
    expect(holds('AnyIn', ['x', 'b*'], '["a", "bee"]')).toBe(true)
    expect(holds('AnyIn', 'a', 'null')).toBe(false)
  })

  it('is false for values it cannot read: numbers for a scalar key, other JSON, maps, null', () => {
    expect(holds('AnyIn', 'true', true)).toBe(false)
    expect(holds('AnyIn', 5, 5)).toBe(false)
    expect(holds('AnyIn', '6', '5')).toBe(false)
    expect(holds('AnyIn', 'a', '{"a": 1}')).toBe(false)
    expect(holds('AnyIn', 'a', { a: 'a' })).toBe(false)
    expect(holds('AnyIn', '{{ none }}', ['a'], { none: null })).toBe(false)
    expect(holds('AnyIn', { a: 'b' }, ['a'])).toBe(false)
  })
})

describe('globs from either side', () => {
  it('match a long key against a pattern of many stars in bounded time', () => {
    // No clock here: a backtracking or quadratic implementation would not end within the test's timeout.
    expect(holds('AnyIn', ['a'.repeat(20_000)], [`${'*a'.repeat(60)}*b`])).toBe(false)
    expect(holds('AllNotIn', [`${'*a'.repeat(60)}*b`], ['a'.repeat(20_000)])).toBe(true)
  })
})

describe('AllIn', () => {
  it('holds when every element of the key is among the values', () => {
    expect(holds('AllIn', ['1.1.1.1', '2.2.2.2'], ADDRESSES)).toBe(true)
    expect(holds('AllIn', ['1.1.1.1', '5.5.5.5'], ADDRESSES)).toBe(false)
    expect(holds('AllIn', ['1.1.1.1', '5.5.5.5'], ['1.1.1.1'])).toBe(false)
    expect(holds('AllIn', ['2.1.1.1', '2.2.2.2', '2.5.5.5'], ['2*'])).toBe(true)
    expect(holds('AllIn', ['1*'], ADDRESSES)).toBe(true)
    expect(holds('AllIn', [1, 2], [1, 2, 3, 4])).toBe(true)
    expect(holds('AllIn', [1, 5], [1, 2, 3, 4])).toBe(false)
  })

  it('holds for an empty key', () => {
    expect(holds('AllIn', [], ADDRESSES)).toBe(true)
    expect(holds('AllIn', [], [])).toBe(true)
  })

  it('checks a range for every element', () => {
    expect(holds('AllIn', 5, '1-10')).toBe(true)
    expect(holds('AllIn', [3, 2], '1-10')).toBe(true)
    expect(holds('AllIn', [3, 2], '5-10')).toBe(false)
  })

  it('treats a one-element key equal to a string value as in, and other strings as one item', () => {
    expect(holds('AllIn', ['a'], 'a')).toBe(true)
    expect(holds('AllIn', ['1.1.1.1', '5.5.5.5'], '5.5.5.5')).toBe(false)
    expect(holds('AllIn', ['kube-system', 'kube-public'], 'kube-*')).toBe(true)
  })

  it('takes no number or boolean value for a list key, unlike AnyIn', () => {
    expect(holds('AllIn', [1], 1)).toBe(false)
    expect(holds('AnyIn', [1], 1)).toBe(true)
  })
})

describe('AnyNotIn', () => {
  it('holds when some element of the key is not among the values', () => {
    expect(holds('AnyNotIn', ['1.1.1.1', '4.4.4.4'], ADDRESSES)).toBe(true)
    expect(holds('AnyNotIn', ['1.1.1.1', '2.2.2.2'], ADDRESSES)).toBe(false)
    expect(holds('AnyNotIn', ['5.5.5.5', '4.4.4.4'], '4.4.4.4')).toBe(true)
    expect(holds('AnyNotIn', ['1*', '3*', '5*'], ADDRESSES)).toBe(true)
    expect(holds('AnyNotIn', ['2.2*'], ['2.2.2.2'])).toBe(false)
    expect(holds('AnyNotIn', [], ADDRESSES)).toBe(false)
  })

  it('handles a scalar key', () => {
    expect(holds('AnyNotIn', 5, [1, 2, 3])).toBe(true)
    expect(holds('AnyNotIn', 1, [1, 2, 3])).toBe(false)
    expect(holds('AnyNotIn', 'kube-system', ['default', 'kube-*'])).toBe(false)
    expect(holds('AnyNotIn', 'kyverno', 'default')).toBe(true)
    expect(holds('AnyNotIn', '', ['default', 'kyverno'])).toBe(true)
  })

  it('asks whether some element falls outside a range', () => {
    expect(holds('AnyNotIn', '5', '1-3')).toBe(true)
    expect(holds('AnyNotIn', [1, 5, 11], '0-10')).toBe(true)
    expect(holds('AnyNotIn', [1, 5, 7], '0-10')).toBe(false)
  })

  it("keeps Kyverno's reading of a range with a negative lower bound for a list key: always outside", () => {
    // The first `-` becomes `!-`, so `-5-5` turns into the negation `!` of the literal `-5-5`.
    expect(holds('AnyNotIn', [0], '-5-5')).toBe(true)
    expect(holds('AnyNotIn', 0, '-5-5')).toBe(false)
  })

  it('is false, not true, for values it cannot read', () => {
    expect(holds('AnyNotIn', true, true)).toBe(false)
    expect(holds('AnyNotIn', '6', '5')).toBe(false)
    expect(holds('AnyNotIn', 'a', { b: 'c' })).toBe(false)
  })
})

describe('AllNotIn', () => {
  it('holds when no element of the key is among the values', () => {
    expect(holds('AllNotIn', ['5.5.5.5', '4.4.4.4'], ADDRESSES)).toBe(true)
    expect(holds('AllNotIn', ['1.1.1.1', '4.4.4.4'], ADDRESSES)).toBe(false)
    expect(holds('AllNotIn', ['7*', '6*', '5*'], ADDRESSES)).toBe(true)
    expect(holds('AllNotIn', ['1*', '2*'], ADDRESSES)).toBe(false)
    expect(holds('AllNotIn', ['1.1.1.1', '3.3.3.3'], ['2*'])).toBe(true)
    expect(holds('AllNotIn', ['1.1.1.1', '4.4.4.4'], '2.2.2.2')).toBe(true)
    expect(holds('AllNotIn', ['kube-system', 'default'], 'kube-system')).toBe(false)
    expect(holds('AllNotIn', [], ADDRESSES)).toBe(true)
  })

  it('handles a scalar key', () => {
    expect(holds('AllNotIn', 5, [1, 2, 3])).toBe(true)
    expect(holds('AllNotIn', 1.5, [1, 1.5, 2])).toBe(false)
    expect(holds('AllNotIn', '1', ['1', '2', '3'])).toBe(false)
    expect(holds('AllNotIn', 64, '64')).toBe(false)
  })

  it('asks whether every element falls outside a range', () => {
    expect(holds('AllNotIn', 5.5, '6-10')).toBe(true)
    expect(holds('AllNotIn', '5', '1-6')).toBe(false)
    expect(holds('AllNotIn', [3, 2], '5-10')).toBe(true)
    expect(holds('AllNotIn', [2, 6], '5-10')).toBe(false)
  })
})
