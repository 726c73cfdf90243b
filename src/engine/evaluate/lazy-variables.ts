import type { CelActivation } from '../cel/index.js'
import { abortEvaluation, budgetExceededReason, charge } from '../cel/cost-budget.js'
import type { CompiledNamedProgram, CompiledRule } from '../compile/compiled-ruleset.js'
import type { Subject } from './prepared-input.js'

const NOT_COMPUTED = Symbol('not computed')
const COMPUTING = Symbol('being computed')

/** A variable whose expression failed: the error is its value for this input. */
class Failed {
  constructor(readonly error: unknown) {}
}

/**
 * The `variables` CEL binding of one rule on one input: `variables.NAME` is computed on first use,
 * at most once, and only if read. The CEL runtime reads a Map through `get` without asking for its
 * entries, so a Map that computes in `get` is lazy; it reports its constructor as Map because the
 * runtime recognises maps by exact constructor.
 *
 * Compiling refuses variables that read each other, but evaluation never relies on that alone:
 * reading a variable that is still being computed aborts the whole evaluation (see
 * cost-budget.ts), and every read is charged, so no evaluation can recurse or loop without bound.
 */
export class LazyVariables extends Map<string, unknown> {
  /** Set right after construction: the activation the variables are evaluated in (it holds this map). */
  activation: CelActivation = {}
  readonly #rule: CompiledRule
  readonly #subject: Subject
  /** Computed values by variable position; allocated on the first read, many rules never read one. */
  #values: unknown[] | undefined
  /** Names of the variables being computed, outermost first: the reads that led here. */
  readonly #computing: string[] = []

  constructor(rule: CompiledRule, subject: Subject) {
    super()
    this.#rule = rule
    this.#subject = subject
  }

  override get(name: string): unknown {
    charge(1)
    const index = this.#rule.variableIndex.get(name)
    if (index === undefined) return undefined
    const values = (this.#values ??= new Array<unknown>(this.#rule.variables.length).fill(NOT_COMPUTED))
    const known = values[index]
    if (known === COMPUTING) {
      const loop = [...this.#computing.slice(this.#computing.indexOf(name)), name]
      abortEvaluation(`variables cycle: ${loop.join(' -> ')}`)
    }
    if (known instanceof Failed) throw known.error
    if (known !== NOT_COMPUTED) return known
    values[index] = COMPUTING
    this.#computing.push(name)
    try {
      const value = this.#compute(this.#rule.variables[index] as CompiledNamedProgram)
      values[index] = value
      return value
    } catch (error) {
      // An expression error is this variable's value for this input: kept, so every further read
      // fails at once instead of redoing the work (an `||` that swallows it may read again). A
      // spent budget or an aborted evaluation is not kept; the next evaluation starts afresh.
      values[index] = budgetExceededReason() === undefined ? new Failed(error) : NOT_COMPUTED
      throw error
    } finally {
      this.#computing.pop()
    }
  }

  override has(name: string): boolean {
    return this.#rule.variableIndex.has(name)
  }

  #compute(variable: CompiledNamedProgram): unknown {
    const shared = variable.shareKey === undefined ? undefined : this.#subject.sharedVariables
    if (shared?.has(variable.shareKey as string)) return shared.get(variable.shareKey as string)
    const value = variable.program.evaluate(this.activation)
    shared?.set(variable.shareKey as string, value)
    return value
  }
}

Object.defineProperty(LazyVariables.prototype, 'constructor', { value: Map })
