/**
 * A per-evaluation budget of work and time, so a runaway expression ends as an error instead of
 * stalling the webhook. cel-js tracks no cost, so we count it ourselves: every comprehension
 * iteration (our own all/exists/map/filter macros), every operator and function call with what it
 * builds and reads (metered-nodes.ts, value-cost.ts), every variable read, and every library
 * function that walks a string or list charges units here. Evaluation is synchronous and
 * single-threaded, so one module-level meter is enough; nested evaluations (lazy `variables.x`
 * computed while another expression runs) share the outer evaluation's budget.
 *
 * The hot path is one addition and one comparison (`charge`). Only every CHECK_INTERVAL units does
 * `checkpoint` compare the total with the limit and read the clock.
 *
 * The defaults: an evaluation blocks the one event loop that also answers the webhook, whose p99
 * target is 10 ms. The cost limit is what keeps an evaluation to a few milliseconds, and it is
 * deterministic; the clock is a backstop for work the units under-count, set at 50 ms so that a
 * garbage-collection pause or a busy machine never turns a legitimate evaluation into an error
 * (under failurePolicy Fail, a denial). The clock is read
 * between operations only, so the cost limit must also keep any single operation short: 100,000
 * units are at most 1.6 million characters or 400,000 list slots (a few MB), which one copy
 * builds in a couple of milliseconds. A unit is 10 to 120 ns of work, so runaway loops mostly meet
 * the time limit and runaway growth the cost limit; both end within a few milliseconds. Work on
 * the largest documents the API server admits (comparing two 1.5 MiB objects, about 200,000
 * units; decoding a 1 MiB JSON string, about 330,000) is beyond the defaults by the same measure:
 * it holds the event loop for several milliseconds, so it needs limits raised on purpose.
 */

export interface CelLimits {
  /** Work units (iterations, calls, list slots and string chunks built or walked) per evaluation. */
  readonly maxCost: number
  /** Wall-clock milliseconds per evaluation. */
  readonly maxMillis: number
}

const DEFAULT_LIMITS: CelLimits = Object.freeze({ maxCost: 100_000, maxMillis: 50 })
const CHECK_INTERVAL = 1024

let limits: CelLimits = DEFAULT_LIMITS

/** Sets the budget of every later evaluation; omitted fields keep their current value. */
export function setCelLimits(next: Partial<CelLimits>): void {
  const maxCost = next.maxCost ?? limits.maxCost
  const maxMillis = next.maxMillis ?? limits.maxMillis
  if (!(maxCost > 0) || !(maxMillis > 0)) throw new RangeError('CEL limits must be positive numbers')
  limits = Object.freeze({ maxCost, maxMillis })
}

export function getCelLimits(): CelLimits {
  return limits
}

/** The budget before any setCelLimits (the same as the defaults of VERDICT_CEL_MAX_COST and VERDICT_CEL_MAX_MILLIS). */
export function defaultCelLimits(): CelLimits {
  return DEFAULT_LIMITS
}

/** Thrown out of the expression when the budget runs out or the evaluation is aborted. Never caught by comprehensions. */
export class CelBudgetExceededError extends Error {
  override readonly name = 'CelBudgetExceededError'
}

class Meter {
  used = 0
  /** `used` value at which the next checkpoint runs; 0 once exceeded, so every charge throws. */
  checkAt = CHECK_INTERVAL
  /** Clock reading after which the evaluation is over time; set at the first checkpoint. */
  deadline = 0
  /** Why the budget ran out (or the evaluation was aborted), kept even if some `||` or `all()` swallowed the thrown error. */
  exceeded: string | undefined = undefined
  /** The error every later charge throws again: a new one each time would capture a stack each time. */
  error: CelBudgetExceededError | undefined = undefined
  depth = 0
}

const meter = new Meter()

/** Starts an evaluation; the outermost one resets the meter. Pair with `endEvaluation`. */
export function beginEvaluation(): void {
  if (meter.depth++ > 0) return
  meter.used = 0
  meter.checkAt = Math.min(CHECK_INTERVAL, limits.maxCost + 1)
  meter.deadline = 0
  meter.exceeded = undefined
  meter.error = undefined
}

export function endEvaluation(): void {
  meter.depth--
}

/** True inside an outermost evaluation, false inside one it started (a lazily computed variable) or outside any. */
export function isOutermostEvaluation(): boolean {
  return meter.depth === 1
}

/** Why the current evaluation ran out of budget or was aborted, if it was. */
export function budgetExceededReason(): string | undefined {
  return meter.exceeded
}

/** Charges `units` of work to the running evaluation; throws CelBudgetExceededError when over. */
export function charge(units: number): void {
  if ((meter.used += units) >= meter.checkAt) checkpoint()
}

/**
 * Ends the running evaluation for a reason of its own (a variable read while it is being
 * computed). Like a spent budget it sticks until the evaluation ends: every later charge throws,
 * so an `||` or an `all()` that swallows this error cannot keep the evaluation going.
 */
export function abortEvaluation(reason: string): never {
  exceed(reason)
}

/** Units for walking a string of `length` code units: one per 16, at least one. */
export function stringCost(length: number): number {
  return 1 + (length >>> 4)
}

function checkpoint(): void {
  if (meter.error !== undefined) throw meter.error
  // Functions may be called outside an evaluation (tests, constant folding); nothing to bound then.
  if (meter.depth === 0) {
    meter.used = 0
    return
  }
  if (meter.used > limits.maxCost) {
    exceed(`cost budget exceeded: the expression used more than ${limits.maxCost} cost units`)
  }
  const now = performance.now()
  // The clock starts at the first checkpoint rather than at the start of every evaluation, so
  // the common cheap evaluation never reads it. The first CHECK_INTERVAL units are uncounted
  // time, which is negligible next to maxMillis.
  if (meter.deadline === 0) meter.deadline = now + limits.maxMillis
  else if (now > meter.deadline) {
    exceed(`cost budget exceeded: the expression ran longer than ${limits.maxMillis} ms`)
  }
  meter.checkAt = Math.min(meter.used + CHECK_INTERVAL, limits.maxCost + 1)
}

function exceed(reason: string): never {
  meter.exceeded = reason
  meter.error = new CelBudgetExceededError(reason)
  meter.checkAt = 0
  throw meter.error
}
