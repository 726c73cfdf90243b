import { getHeapStatistics } from 'node:v8'
import { describe, expect, it } from 'vitest'
import { HEAP_GROWING_PERCENT, limitHeapGrowth } from '../../src/server/heap-growth.js'

describe('limitHeapGrowth', () => {
  it('sets the growing factor unless the command line chose one, without touching the heap limit', () => {
    const limit = getHeapStatistics().heap_size_limit
    expect(() => limitHeapGrowth(HEAP_GROWING_PERCENT, ['--heap-growing-percent=80'])).not.toThrow()
    expect(() => limitHeapGrowth(HEAP_GROWING_PERCENT, [])).not.toThrow()
    expect(getHeapStatistics().heap_size_limit).toBe(limit)
  })
})
