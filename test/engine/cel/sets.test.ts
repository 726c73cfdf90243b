import { describe, expect, it } from 'vitest'
import { evalCel } from './helpers.js'

describe('sets', () => {
  it.each([
    ['sets.contains([], [])', true],
    ['sets.contains([1, 2, 3, 4], [2, 3])', true],
    ['sets.contains([1, 2, 3], [3, 4])', false],
    ['sets.contains([[1], [2]], [[2]])', true],
    ['sets.contains([1, 2.0, 3u], [1.0, 2u, 3])', true],
    ['sets.equivalent([], [])', true],
    ['sets.equivalent([1], [1, 1])', true],
    ['sets.equivalent([1, 2, 3], [3u, 2.0, 1])', true],
    ['sets.equivalent([1, 2], [2, 2, 2])', false],
    ['sets.intersects([1], [1])', true],
    ['sets.intersects([1], [])', false],
    ["sets.intersects(['a', 'b'], ['c', 'b'])", true],
    ['sets.intersects([1, 2], [3, 4])', false],
  ])('%s', (expression, expected) => {
    expect(evalCel(expression)).toBe(expected)
  })
})
