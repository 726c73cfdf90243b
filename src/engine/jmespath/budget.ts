import { JmespathError } from './errors.js'

/**
 * A budget of work and time for one top-level JMESPath operation (an evaluation, a variable
 * substitution over a document, a context query with the context entries it loads), so an
 * expression or a document built to explode ends as an error instead of stalling the webhook.
 *
 * Every AST node visited costs a unit; functions that walk or build strings, lists or objects
 * charge for what they walk or build, before building it where the size is known. The clock is
 * read every CHECK_INTERVAL units only, and first at the first of those checkpoints. Evaluation
 * is synchronous, so one module-level meter serves; nested operations (a context entry loaded
 * while a substitution runs) share the outer one's budget.
 *
 * The defaults leave ordinary Kyverno expressions (a few hundred units) far below the limits and
 * stop runaway ones within a few tens of milliseconds.
 */

export interface JmespathLimits {
  /** Work units per top-level operation. */
  readonly maxCost: number
  /** Wall-clock milliseconds per top-level operation. */
  readonly maxMillis: number
  /** Longest string (UTF-16 code units) any function or substitution may build. */
  readonly maxStringLength: number
}

const DEFAULT_LIMITS: JmespathLimits = Object.freeze({ maxCost: 1_000_000, maxMillis: 50, maxStringLength: 1 << 20 })
const CHECK_INTERVAL = 1024

let limits: JmespathLimits = DEFAULT_LIMITS

export class JmespathBudgetError extends JmespathError {
  override name = 'JmespathBudgetError'
}

/** Sets the budget of every later operation; omitted fields keep their current value. */
export function setJmespathLimits(next: Partial<JmespathLimits>): void {
  const merged = { ...limits, ...next }
  if (!(merged.maxCost > 0) || !(merged.maxMillis > 0) || !(merged.maxStringLength > 0)) {
    throw new RangeError('JMESPath limits must be positive numbers')
  }
  limits = Object.freeze(merged)
}

export function getJmespathLimits(): JmespathLimits {
  return limits
}

export function defaultJmespathLimits(): JmespathLimits {
  return DEFAULT_LIMITS
}

class Meter {
  used = 0
  checkAt = CHECK_INTERVAL
  deadline = 0
  depth = 0
  now: Date | undefined = undefined
}

const meter = new Meter()

/**
 * Runs `operation` under one budget. The outermost call starts the meter; nested calls share it.
 * `now` fixes the clock `time_now()` reads, for the whole operation.
 */
export function metered<T>(operation: () => T, now?: Date): T {
  if (meter.depth === 0) {
    meter.used = 0
    meter.checkAt = Math.min(CHECK_INTERVAL, limits.maxCost + 1)
    // The clock starts at the first checkpoint: most operations end before it, and reading the
    // clock costs more than they do. What runs before it is at most CHECK_INTERVAL units of work.
    meter.deadline = Number.POSITIVE_INFINITY
    meter.now = now
  }
  meter.depth++
  try {
    return operation()
  } finally {
    meter.depth--
  }
}

export function charge(units: number): void {
  meter.used += units
  if (meter.used >= meter.checkAt) checkpoint()
}

/** Charges for walking or building a string of `length` code units. */
export function chargeString(length: number): void {
  charge(1 + Math.ceil(length / 64))
}

/** Refuses a string longer than the limit before it is built. */
export function checkStringLength(length: number, what: string): void {
  if (length > limits.maxStringLength) {
    throw new JmespathBudgetError(`${what} would be ${length} characters long, more than the limit of ${limits.maxStringLength}`)
  }
  chargeString(length)
}

/** The clock of the current operation: fixed when the caller gave one, else the real time. */
export function currentTime(): Date {
  return meter.now ?? new Date()
}

function checkpoint(): void {
  if (meter.used > limits.maxCost) {
    throw new JmespathBudgetError(`JMESPath budget exceeded: the operation used more than ${limits.maxCost} work units`)
  }
  const clock = performance.now()
  if (meter.deadline === Number.POSITIVE_INFINITY) meter.deadline = clock + limits.maxMillis
  else if (clock > meter.deadline) {
    throw new JmespathBudgetError(`JMESPath budget exceeded: the operation ran longer than ${limits.maxMillis} ms`)
  }
  meter.checkAt = Math.min(meter.used + CHECK_INTERVAL, limits.maxCost + 1)
}
