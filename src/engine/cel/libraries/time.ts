import type { Environment } from '@marcbachmann/cel-js'
import { registerNamespace } from '../namespaces.js'
import type { CelDuration } from '../runtime-types.js'

/**
 * Kyverno's CEL `time` library:
 * - `time.now()`: the current time (the only input an expression reads besides its bindings);
 * - `time.truncate(t, d)`: `t` rounded down to a multiple of `d` since year 1 (Go's Time.Truncate;
 *   `d` <= 0 leaves `t` as is);
 * - `time.toCron(t)`: `"<minute> <hour> <day> <month> <weekday>"` of `t` in UTC (weekday 0 is Sunday).
 *
 * Timestamps are JavaScript Dates here, as in cel-js: millisecond precision, always UTC.
 */
export function registerTimeLibrary(env: Environment): void {
  const sync = { async: false }
  const time = registerNamespace(env, 'time')
  env.registerFunction(`${time}.now(): google.protobuf.Timestamp`, () => new Date(), sync)
  env.registerFunction(`${time}.truncate(google.protobuf.Timestamp, google.protobuf.Duration): google.protobuf.Timestamp`, (_ns: unknown, t: Date, d: CelDuration) => truncate(t, d), sync)
  env.registerFunction(`${time}.toCron(google.protobuf.Timestamp): string`, (_ns: unknown, t: Date) => toCron(t), sync)
}

/** Milliseconds from 0001-01-01T00:00:00Z, Go's zero time, to the Unix epoch. */
const ZERO_TO_EPOCH_MS = 62_135_596_800_000n

export function truncate(t: Date, d: CelDuration): Date {
  const nanos = d.seconds * 1_000_000_000n + BigInt(d.nanos)
  if (nanos <= 0n) return t
  const sinceZero = (BigInt(t.getTime()) + ZERO_TO_EPOCH_MS) * 1_000_000n
  const rest = sinceZero % nanos
  // Dates hold milliseconds: a remainder finer than that rounds the result down to the millisecond.
  return new Date(t.getTime() - Number((rest + 999_999n) / 1_000_000n))
}

export function toCron(t: Date): string {
  return `${t.getUTCMinutes()} ${t.getUTCHours()} ${t.getUTCDate()} ${t.getUTCMonth() + 1} ${t.getUTCDay()}`
}
