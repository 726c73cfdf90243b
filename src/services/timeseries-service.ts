import type { Db } from '../store/db.js'
import {
  MAX_TIMESERIES_BUCKETS,
  policyAuditTimeseries,
  rulesetAuditTimeseries,
  timeseriesBuckets,
  type TimeseriesQuery as StoreTimeseriesQuery,
} from '../store/audit-timeseries.js'
import { EARLIEST_TIMESTAMP, parseTimestamp } from './rfc3339-timestamp.js'
import { InvalidRequestError } from './service-errors.js'

/** The query parameters of the timeseries routes, as they arrive (strings, possibly absent). */
export interface TimeseriesQuery {
  startTimestamp?: string
  endTimestamp?: string
  interval?: string
}

export const DEFAULT_INTERVAL = '1h'
/** Without a start, the day before the end: a dashboard's usual first view, and 24 buckets at the default interval. */
export const DEFAULT_RANGE_MS = 24 * 60 * 60 * 1000
export const MAX_BUCKETS = MAX_TIMESERIES_BUCKETS
/** A year: longer intervals have no use, and this keeps every bucket start a representable date. */
export const MAX_INTERVAL_DAYS = 365
/** Whole minutes, hours or days: buckets must be unions of the store's minute counters. */
const INTERVAL = /^([1-9][0-9]{0,8})([mhd])$/
const UNIT_SECONDS = { m: 60, h: 3600, d: 86_400 } as const

interface Request {
  store: StoreTimeseriesQuery
  /** Echoed back as sent, or the defaults used. */
  startTimestamp: string
  endTimestamp: string
  interval: string
}

/**
 * The two timeseries routes: validated parameters in, `{<name field>, startTimestamp,
 * endTimestamp, interval, buckets, topFailingRules}` out. Times parse as on the audit routes.
 */
export class TimeseriesService {
  readonly #db: Db
  readonly #now: () => Date

  constructor(db: Db, now: () => Date = () => new Date()) {
    this.#db = db
    this.#now = now
  }

  async policyTimeseries(policyName: string, query: TimeseriesQuery) {
    const request = this.#request(policyName, query)
    const { buckets, topFailingRules } = await policyAuditTimeseries(this.#db, request.store)
    return { policyName, startTimestamp: request.startTimestamp, endTimestamp: request.endTimestamp, interval: request.interval, buckets, topFailingRules }
  }

  async rulesetTimeseries(rulesetName: string, query: TimeseriesQuery) {
    const request = this.#request(rulesetName, query)
    const { buckets, topFailingRules } = await rulesetAuditTimeseries(this.#db, request.store)
    return { rulesetName, startTimestamp: request.startTimestamp, endTimestamp: request.endTimestamp, interval: request.interval, buckets, topFailingRules }
  }

  #request(name: string, query: TimeseriesQuery): Request {
    const endTimestamp = query.endTimestamp ?? this.#now().toISOString()
    const end = parseTimestamp('query.endTimestamp', endTimestamp)
    const interval = query.interval ?? DEFAULT_INTERVAL
    const intervalSeconds = parseInterval(interval)
    const startTimestamp = query.startTimestamp ?? defaultStart(end, intervalSeconds).toISOString()
    const start = parseTimestamp('query.startTimestamp', startTimestamp)
    if (start.getTime() > end.getTime()) {
      throw new InvalidRequestError(`query.startTimestamp: ${startTimestamp} is after query.endTimestamp ${endTimestamp}`)
    }
    const { first, count } = timeseriesBuckets(start, end, intervalSeconds)
    if (first.getTime() < EARLIEST_TIMESTAMP.getTime()) {
      // Buckets align to the interval since the Unix epoch, so the one holding an early time may begin before year 1.
      const [field, value] = query.startTimestamp === undefined ? ['query.endTimestamp', endTimestamp] : ['query.startTimestamp', startTimestamp]
      throw new InvalidRequestError(
        `${field}: with interval ${interval} the bucket holding ${value} would begin before ${EARLIEST_TIMESTAMP.toISOString()}; use a later time or a shorter interval`,
      )
    }
    if (count > MAX_BUCKETS) {
      throw new InvalidRequestError(
        `query.interval: ${interval} splits ${startTimestamp} to ${endTimestamp} into ${count} buckets, more than ${MAX_BUCKETS}; use a longer interval or a shorter range`,
      )
    }
    return { store: { name, start, end, intervalSeconds }, startTimestamp, endTimestamp, interval }
  }
}

/**
 * DEFAULT_RANGE_MS before the end, but never earlier than the first whole bucket the store can
 * hold, nor after the end: a range near year 1 is cut short rather than refused for what the
 * caller did not send.
 */
function defaultStart(end: Date, intervalSeconds: number): Date {
  const intervalMs = intervalSeconds * 1000
  const firstWholeBucket = Math.ceil(EARLIEST_TIMESTAMP.getTime() / intervalMs) * intervalMs
  return new Date(Math.min(end.getTime(), Math.max(end.getTime() - DEFAULT_RANGE_MS, firstWholeBucket)))
}

/** `15m`, `1h`, `1d`, ... in seconds, or a 400 naming query.interval. */
export function parseInterval(interval: string): number {
  const match = INTERVAL.exec(interval)
  const seconds = match ? Number(match[1]) * UNIT_SECONDS[match[2] as keyof typeof UNIT_SECONDS] : Number.NaN
  if (!Number.isSafeInteger(seconds)) {
    throw new InvalidRequestError(`query.interval: ${JSON.stringify(interval)} is not an interval: a whole number of minutes, hours or days such as 1m, 15m, 1h or 1d`)
  }
  if (seconds > MAX_INTERVAL_DAYS * UNIT_SECONDS.d) {
    throw new InvalidRequestError(`query.interval: ${JSON.stringify(interval)} is longer than ${MAX_INTERVAL_DAYS}d`)
  }
  return seconds
}
