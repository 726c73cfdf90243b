import { describe, expect, it } from 'vitest'
import { holds } from '../support.js'

describe('GreaterThan, GreaterThanOrEquals, LessThan, LessThanOrEquals', () => {
  it('order numbers', () => {
    expect(holds('GreaterThan', 10, 1)).toBe(true)
    expect(holds('GreaterThan', 1, 10)).toBe(false)
    expect(holds('GreaterThan', 1, 1)).toBe(false)
    expect(holds('GreaterThan', 1.5, 1)).toBe(true)
    expect(holds('GreaterThan', -5, -10)).toBe(true)
    expect(holds('GreaterThanOrEquals', 1, 1)).toBe(true)
    expect(holds('GreaterThanOrEquals', 1, 1.5)).toBe(false)
    expect(holds('LessThan', 1, 1.5)).toBe(true)
    expect(holds('LessThan', 1, 1)).toBe(false)
    expect(holds('LessThanOrEquals', 1, 1)).toBe(true)
    expect(holds('LessThanOrEquals', 10, 1)).toBe(false)
  })

  it('read numbers out of strings on either side', () => {
    expect(holds('GreaterThan', '10', 9)).toBe(true)
    expect(holds('GreaterThan', 100, '10')).toBe(true)
    expect(holds('GreaterThan', '100', '10')).toBe(true)
    expect(holds('LessThan', '1', 10)).toBe(true)
    expect(holds('LessThan', 1, '10')).toBe(true)
    expect(holds('GreaterThanOrEquals', '10', '10')).toBe(true)
  })

  it('count a variable the way the documentation does (length of a list against 0)', () => {
    expect(holds('GreaterThan', '{{ length(hostpaths) }}', 0, { 'length(hostpaths)': 2 })).toBe(true)
    expect(holds('GreaterThan', '{{ length(hostpaths) }}', 0, { 'length(hostpaths)': 0 })).toBe(false)
  })

  it('compare Kubernetes quantities across units', () => {
    expect(holds('LessThan', '512Mi', '1Gi')).toBe(true)
    expect(holds('LessThan', '1Gi', '1Gi')).toBe(false)
    expect(holds('LessThanOrEquals', '1Gi', '1024Mi')).toBe(true)
    expect(holds('GreaterThan', '1025', '1Ki')).toBe(true)
    expect(holds('GreaterThan', '1Ki', '1023')).toBe(true)
    expect(holds('GreaterThanOrEquals', '500m', '0.5')).toBe(true)
    expect(holds('GreaterThan', '2', '1500m')).toBe(true)
  })

  it('compare durations, against duration strings or numbers of seconds', () => {
    expect(holds('GreaterThan', '10h', '1h')).toBe(true)
    expect(holds('GreaterThan', '1h', '30m')).toBe(true)
    expect(holds('GreaterThan', '1h', '1h')).toBe(false)
    expect(holds('GreaterThan', '1h', 3600)).toBe(false)
    expect(holds('GreaterThanOrEquals', '1h', 3600)).toBe(true)
    expect(holds('GreaterThan', '2h', 3600)).toBe(true)
    expect(holds('GreaterThan', 3600, '30m')).toBe(true)
    expect(holds('GreaterThan', 3600, '1h')).toBe(false)
    expect(holds('LessThan', '30m', 3600)).toBe(true)
  })

  it('compare semantic versions by precedence, not as text', () => {
    expect(holds('GreaterThan', '1.5.5', '1.5.0')).toBe(true)
    expect(holds('GreaterThan', '1.10.0', '1.9.0')).toBe(true)
    expect(holds('LessThan', '1.5.0', '1.5.5')).toBe(true)
    expect(holds('GreaterThanOrEquals', '1.2.0', '1.2.0')).toBe(true)
    expect(holds('LessThan', '1.0.0-rc.1', '1.0.0')).toBe(true)
    // Strict semantic versions only: a leading v or a missing patch is no version.
    expect(holds('GreaterThan', 'v1.2.0', '1.0.0')).toBe(false)
    expect(holds('GreaterThan', '1.2', '1.0.0')).toBe(false)
  })

  it('are false when neither side reads as a number, quantity, duration or version', () => {
    expect(holds('GreaterThan', 'abc', 5)).toBe(false)
    expect(holds('LessThan', 'abc', 'abd')).toBe(false)
    expect(holds('GreaterThan', '1Gi', 5)).toBe(false)
    expect(holds('GreaterThan', true, 5)).toBe(false)
    expect(holds('GreaterThan', ['5'], 1)).toBe(false)
    expect(holds('GreaterThan', '{{ missing }}', 1, { missing: null })).toBe(false)
    expect(holds('LessThan', 5, { a: 1 })).toBe(false)
  })

  it('compare only when spelled exactly, as Kyverno does after finding them in any case', () => {
    expect(holds('greaterthan', 10, 1)).toBe(false)
    expect(holds('GREATERTHAN', 10, 1)).toBe(false)
    // Equality-like operators work in any case.
    expect(holds('equals', 'a', 'a')).toBe(true)
  })
})

describe('DurationGreaterThan, DurationGreaterThanOrEquals, DurationLessThan, DurationLessThanOrEquals', () => {
  it('compare duration strings', () => {
    expect(holds('DurationGreaterThan', '2h', '1h')).toBe(true)
    expect(holds('DurationGreaterThan', '61m', '1h')).toBe(true)
    expect(holds('DurationGreaterThan', '60m', '1h')).toBe(false)
    expect(holds('DurationGreaterThanOrEquals', '60m', '1h')).toBe(true)
    expect(holds('DurationLessThan', '30m', '1h')).toBe(true)
    expect(holds('DurationLessThanOrEquals', '1h30m', '90m')).toBe(true)
    expect(holds('DurationLessThan', '300ms', '1s')).toBe(true)
  })

  it('read numbers as whole seconds, truncating fractions as Go converts them', () => {
    expect(holds('DurationGreaterThan', 120, 60)).toBe(true)
    expect(holds('DurationGreaterThan', 120, '1m')).toBe(true)
    expect(holds('DurationLessThan', '1m', 61)).toBe(true)
    expect(holds('DurationGreaterThan', 120.5, 60.5)).toBe(true)
    expect(holds('DurationGreaterThanOrEquals', 1.9, 2)).toBe(false)
    expect(holds('DurationLessThanOrEquals', 1.9, 1)).toBe(true)
  })

  it('take a bare 0 as a duration', () => {
    expect(holds('DurationGreaterThanOrEquals', '0', 0)).toBe(true)
  })

  it('are false for anything else', () => {
    expect(holds('DurationGreaterThan', true, false)).toBe(false)
    expect(holds('DurationGreaterThan', 'soon', '1h')).toBe(false)
    expect(holds('DurationGreaterThan', '2h', 'soon')).toBe(false)
    expect(holds('DurationGreaterThan', '5', '1s')).toBe(false)
  })
})
