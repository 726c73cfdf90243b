import { currentTime } from '../budget.js'
import { JmespathError } from '../errors.js'
import { formatGoDuration, parseGoDuration } from '../go-duration.js'
import {
  addDuration,
  civilTime,
  compareTimes,
  formatRfc3339,
  fromDate,
  parseGoTime,
  parseRfc3339,
  RFC3339_LAYOUT,
  subtractTimes,
  truncateTime,
  type GoTime,
} from '../go-time.js'
import type { JsonValue } from '../json.js'
import { STRING, stringArg, type JmespathFunction } from './function.js'

/**
 * Kyverno's time_* functions. Times are RFC 3339 strings unless a Go layout is given
 * (time_since, time_parse); durations are Go durations ("1h30m"). Results keep the UTC offset the
 * time was written with, as Go's Format does. time_now() reads the operation's clock, in UTC:
 * Kyverno prints its process's local time, which is UTC in its container images.
 */

/** Go errors (time.ParseError, ParseDuration's) come back as Kyverno returns them: unwrapped. */
function goCall<T>(operation: () => T): T {
  try {
    return operation()
  } catch (error) {
    if (error instanceof JmespathError) throw error
    throw new JmespathError((error as Error).message, { cause: error })
  }
}

const time = (args: readonly JsonValue[], index: number): GoTime => goCall(() => parseRfc3339(stringArg(args, index)))
const duration = (args: readonly JsonValue[], index: number): bigint => goCall(() => parseGoDuration(stringArg(args, index)))
const now = (): GoTime => fromDate(currentTime())

const INT64 = /^[+-]?[0-9]+$/

/** strconv.ParseInt(text, 10, 64), or undefined when Go would fail. */
function parseInt64(text: string): bigint | undefined {
  if (!INT64.test(text)) return undefined
  // Past 19 significant digits the value is out of range whatever they are.
  if (text.replace(/^[+-]?0*/, '').length > 19) return undefined
  const value = BigInt(text)
  return value >= -(2n ** 63n) && value < 2n ** 63n ? value : undefined
}

function timeParse(args: readonly JsonValue[]): JsonValue {
  const layout = stringArg(args, 0)
  const text = stringArg(args, 1)
  // A layout that is an integer means "the value is Unix seconds".
  if (parseInt64(layout) !== undefined) {
    const seconds = parseInt64(text)
    if (seconds === undefined) {
      const reason = INT64.test(text) ? 'value out of range' : 'invalid syntax'
      throw new JmespathError(`strconv.ParseInt: parsing ${JSON.stringify(text)}: ${reason}`)
    }
    return formatRfc3339({ seconds, nanos: 0, offset: 0 })
  }
  return formatRfc3339(goCall(() => parseGoTime(layout, text)))
}

function timeSince(args: readonly JsonValue[]): JsonValue {
  const layout = stringArg(args, 0) === '' ? RFC3339_LAYOUT : stringArg(args, 0)
  const start = goCall(() => parseGoTime(layout, stringArg(args, 1)))
  const end = stringArg(args, 2) === '' ? now() : goCall(() => parseGoTime(layout, stringArg(args, 2)))
  return formatGoDuration(subtractTimes(end, start))
}

function timeToCron(args: readonly JsonValue[]): JsonValue {
  const c = civilTime(time(args, 0))
  return `${c.minute} ${c.hour} ${c.day} ${c.month} ${c.weekday}`
}

export const TIME_FUNCTIONS: readonly JmespathFunction[] = [
  { name: 'time_since', signature: [STRING, STRING, STRING], call: timeSince },
  { name: 'time_now', signature: [], call: () => formatRfc3339(now()) },
  { name: 'time_now_utc', signature: [], call: () => formatRfc3339(now()) },
  { name: 'time_add', signature: [STRING, STRING], call: (args) => formatRfc3339(addDuration(time(args, 0), duration(args, 1))) },
  { name: 'time_parse', signature: [STRING, STRING], call: timeParse },
  { name: 'time_to_cron', signature: [STRING], call: timeToCron },
  { name: 'time_utc', signature: [STRING], call: (args) => formatRfc3339({ ...time(args, 0), offset: 0 }) },
  { name: 'time_diff', signature: [STRING, STRING], call: (args) => formatGoDuration(subtractTimes(time(args, 1), time(args, 0))) },
  { name: 'time_before', signature: [STRING, STRING], call: (args) => compareTimes(time(args, 0), time(args, 1)) < 0 },
  { name: 'time_after', signature: [STRING, STRING], call: (args) => compareTimes(time(args, 0), time(args, 1)) > 0 },
  {
    name: 'time_between',
    signature: [STRING, STRING, STRING],
    call: (args) => {
      const t = time(args, 0)
      return compareTimes(t, time(args, 1)) > 0 && compareTimes(t, time(args, 2)) < 0
    },
  },
  {
    name: 'time_truncate',
    signature: [STRING, STRING],
    call: (args) => formatRfc3339(truncateTime(time(args, 0), duration(args, 1))),
  },
]
