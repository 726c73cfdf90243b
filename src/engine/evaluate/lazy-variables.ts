import type { CelActivation } from '../cel/index.js'
import type { CompiledNamedProgram, CompiledRule } from '../compile/compiled-ruleset.js'
import type { Subject } from './prepared-input.js'

const NOT_COMPUTED = Symbol('not computed')

/**
 * The `variables` CEL binding of one rule on one input: `variables.NAME` is computed on first use,
 * at most once, and only if read. The CEL runtime reads a Map through `get` without asking for its
 * entries, so a Map that computes in `get` is lazy; it reports its constructor as Map because the
 * runtime recognises maps by exact constructor.
 */
export class LazyVariables extends Map<string, unknown> {
  /** Set right after construction: the activation the variables are evaluated in (it holds this map). */
  activation: CelActivation = {}
  readonly #rule: CompiledRule
  readonly #subject: Subject
  /** Computed values by variable position; allocated on the first read, many rules never read one. */
  #values: unknown[] | undefined

  constructor(rule: CompiledRule, subject: Subject) {
    super()
    this.#rule = rule
    this.#subject = subject
  }

  override get(name: string): unknown {
    const index = this.#rule.variableIndex.get(name)
    if (index === undefined) return undefined
    const values = (this.#values ??= new Array<unknown>(this.#rule.variables.length).fill(NOT_COMPUTED))
    const known = values[index]
    if (known !== NOT_COMPUTED) return known
    const variable = this.#rule.variables[index] as CompiledNamedProgram
    const shared = variable.shareKey === undefined ? undefined : this.#subject.sharedVariables
    let value: unknown
    if (shared?.has(variable.shareKey as string)) value = shared.get(variable.shareKey as string)
    else {
      value = variable.program.evaluate(this.activation)
      shared?.set(variable.shareKey as string, value)
    }
    values[index] = value
    return value
  }

  override has(name: string): boolean {
    return this.#rule.variableIndex.has(name)
  }
}

Object.defineProperty(LazyVariables.prototype, 'constructor', { value: Map })
