import { parseGoDuration, secondsToDuration } from '../go-duration.js'
import type { GoValue } from '../go-value.js'

/**
 * Equals, NotEquals and the ordering operators compare by duration as soon as either side is a
 * duration string (`1h`, `90s`; a bare `0` does not count); the other side must then be a
 * duration string too or a number of seconds. Undefined when the pair is not read as durations.
 */
export function durationPair(key: GoValue, value: GoValue): readonly [bigint, bigint] | undefined {
  const keyDuration = asDurationString(key)
  const valueDuration = asDurationString(value)
  if (keyDuration === undefined && valueDuration === undefined) return undefined
  const keySide = keyDuration ?? asSeconds(key)
  const valueSide = valueDuration ?? asSeconds(value)
  return keySide === undefined || valueSide === undefined ? undefined : [keySide, valueSide]
}

function asDurationString(side: GoValue): bigint | undefined {
  return typeof side === 'string' && side !== '0' ? parseGoDuration(side) : undefined
}

function asSeconds(side: GoValue): bigint | undefined {
  return typeof side === 'number' || typeof side === 'bigint' ? secondsToDuration(side) : undefined
}
