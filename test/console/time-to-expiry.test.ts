import { describe, expect, it } from 'vitest'
import { timeToExpiry } from '../../console/src/time-to-expiry.js'

const NOW = Date.parse('2026-03-10T12:00:00Z')
const at = (offsetMs: number) => new Date(NOW + offsetMs).toISOString()
const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

describe('timeToExpiry', () => {
  it('says how long is left, rounded down to the largest unit', () => {
    expect(timeToExpiry(at(3 * DAY + HOUR), NOW)).toBe('in 3 days')
    expect(timeToExpiry(at(3 * DAY - SECOND), NOW)).toBe('in 2 days')
    expect(timeToExpiry(at(DAY + 23 * HOUR), NOW)).toBe('in 1 day')
    expect(timeToExpiry(at(5 * HOUR + 59 * MINUTE), NOW)).toBe('in 5 h')
    expect(timeToExpiry(at(12 * MINUTE + 30 * SECOND), NOW)).toBe('in 12 min')
    expect(timeToExpiry(at(45 * SECOND + 900), NOW)).toBe('in 45 s')
  })

  it('says since when an exception has expired: at expiresAt exactly it no longer applies', () => {
    expect(timeToExpiry(at(0), NOW)).toBe('expired 0 s ago')
    expect(timeToExpiry(at(-(2 * HOUR + 5 * MINUTE)), NOW)).toBe('expired 2 h ago')
    expect(timeToExpiry(at(-40 * DAY), NOW)).toBe('expired 40 days ago')
  })

  it('says when there is no end, and shows a date it cannot read as it is', () => {
    expect(timeToExpiry(undefined, NOW)).toBe('never expires')
    expect(timeToExpiry('soon', NOW)).toBe('ends soon')
  })
})
