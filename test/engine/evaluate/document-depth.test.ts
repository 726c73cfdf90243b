import { describe, expect, it } from 'vitest'
import { describeDepthExcess, findDepthExcess, MAX_DOCUMENT_DEPTH } from '../../../src/engine/evaluate/document-depth.js'

function nestedObjects(depth: number): unknown {
  let value: unknown = 'leaf'
  for (let level = 0; level < depth; level++) value = { a: value }
  return value
}

describe('findDepthExcess', () => {
  it('accepts scalars and values up to the limit', () => {
    expect(findDepthExcess('text')).toBeUndefined()
    expect(findDepthExcess(null)).toBeUndefined()
    expect(findDepthExcess(nestedObjects(MAX_DOCUMENT_DEPTH))).toBeUndefined()
  })

  it('finds the first value one level past the limit, with its path', () => {
    expect(findDepthExcess(nestedObjects(MAX_DOCUMENT_DEPTH + 1))).toEqual({ path: Array.from({ length: MAX_DOCUMENT_DEPTH }, () => 'a'), limit: MAX_DOCUMENT_DEPTH })
    expect(findDepthExcess({ spec: [{ x: [[1]] }] }, 3)).toEqual({ path: ['spec', 0, 'x'], limit: 3 })
  })

  it('walks a million levels without overflowing the stack', () => {
    expect(findDepthExcess(nestedObjects(1_000_000))?.path.length).toBe(MAX_DOCUMENT_DEPTH)
  })

  it('describes the start of the path for a reader', () => {
    expect(describeDepthExcess('body', { path: ['inputData', 'spec', 0, 'odd key', 'a', 'a'], limit: 5 })).toBe('body.inputData.spec[0]["odd key"]… nests deeper than 5 levels, the most Verdict judges')
    expect(describeDepthExcess('request.object', { path: ['x'], limit: 1 })).toBe('request.object.x nests deeper than 1 levels, the most Verdict judges')
  })
})
