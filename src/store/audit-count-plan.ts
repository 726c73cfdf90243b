import { COUNT_SPANS_SECONDS } from './migrations/002-audit-counts.js'

/** Whole buckets of one length: `from` inclusive, `to` exclusive, both multiples of the span since the epoch. */
export interface BucketRange {
  spanSeconds: number
  from: Date
  to: Date
}

/** Rows to count one by one: `from` inclusive, `to` inclusive or not. */
export interface RawRange {
  from: Date
  to: Date
  toInclusive: boolean
}

export interface CountPlan {
  buckets: BucketRange[]
  raw: RawRange[]
}

/**
 * Splits the inclusive range [start, end] into whole counter buckets, longest span first, and
 * the leftover edges that must be counted row by row (shorter than the shortest span each).
 * The pieces are disjoint and together cover the range exactly.
 */
export function planAuditCount(start: Date, end: Date, spansSeconds: readonly number[] = COUNT_SPANS_SECONDS): CountPlan {
  const plan: CountPlan = { buckets: [], raw: [] }
  if (start.getTime() > end.getTime()) return plan
  split(plan, start.getTime(), end.getTime(), true, spansSeconds.map((span) => span * 1000))
  return plan
}

function split(plan: CountPlan, from: number, to: number, toInclusive: boolean, spansMs: number[]): void {
  if (from > to || (from === to && !toInclusive)) return
  const [span, ...shorter] = spansMs
  if (span === undefined) {
    plan.raw.push({ from: new Date(from), to: new Date(to), toInclusive })
    return
  }
  const firstWhole = Math.ceil(from / span) * span
  const endOfWhole = Math.floor(to / span) * span
  if (firstWhole >= endOfWhole) {
    split(plan, from, to, toInclusive, shorter)
    return
  }
  plan.buckets.push({ spanSeconds: span / 1000, from: new Date(firstWhole), to: new Date(endOfWhole) })
  split(plan, from, firstWhole, false, shorter)
  split(plan, endOfWhole, to, toInclusive, shorter)
}
