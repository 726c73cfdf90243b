import { parseGoDuration, secondsToDuration } from '../go-duration.js'
import type { GoValue } from '../go-value.js'

/**
 * Kyverno's deprecated DurationGreaterThan, DurationGreaterThanOrEquals, DurationLessThan and
 * DurationLessThanOrEquals: each side is a Go duration string (here a bare `0` is fine) or a
 * number of seconds (truncated to whole seconds, as Go converts it); anything else is false.
 * Unlike the ordering operators they compare exact nanoseconds, not float seconds. As there, the
 * comparison happens only for the exact spelling of the operator.
 */
export function durationOrderingHolds(operator: string, key: GoValue, value: GoValue): boolean {
  const keyDuration = asDuration(key)
  const valueDuration = keyDuration === undefined ? undefined : asDuration(value)
  if (keyDuration === undefined || valueDuration === undefined) return false
  switch (operator) {
    case 'DurationGreaterThan':
      return keyDuration > valueDuration
    case 'DurationGreaterThanOrEquals':
      return keyDuration >= valueDuration
    case 'DurationLessThan':
      return keyDuration < valueDuration
    case 'DurationLessThanOrEquals':
      return keyDuration <= valueDuration
    default:
      return false
  }
}

function asDuration(side: GoValue): bigint | undefined {
  if (typeof side === 'number' || typeof side === 'bigint') return secondsToDuration(side)
  if (typeof side === 'string') return parseGoDuration(side)
  return undefined
}
