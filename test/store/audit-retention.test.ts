import { describe, expect, it } from 'vitest'
import { retentionCutoff } from '../../src/store/audit-retention.js'

describe('retentionCutoff', () => {
  it('is the given number of days before now', () => {
    expect(retentionCutoff(new Date('2026-11-21T07:00:00.000Z'), 30).toISOString()).toBe('2026-10-22T07:00:00.000Z')
  })
})
