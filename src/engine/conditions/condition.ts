/**
 * Kyverno conditions as written in `validate.deny.conditions`, `preconditions` and `foreach`:
 * `key`, `operator`, `value` and an optional `message`. Key and value are any JSON, typically a
 * string holding `{{ }}` variables, substituted just before the condition is evaluated.
 */
export interface Condition {
  readonly key?: unknown
  readonly operator?: unknown
  readonly value?: unknown
  readonly message?: unknown
}

export interface AnyAllConditions {
  readonly any?: readonly Condition[] | null
  readonly all?: readonly Condition[] | null
}

/**
 * A block of conditions: `any` and/or `all`, or (the older form) a bare list that must all hold.
 * An absent block holds, so a `deny` without conditions always denies, as in Kyverno.
 */
export type ConditionBlock = AnyAllConditions | readonly Condition[] | null | undefined

/**
 * Turns a condition's raw key or value into its substituted form (`{{ request.object.x }}` into
 * what it names), leaving parts without variables as written. Throws when substitution fails;
 * the condition then ends in an error, as Kyverno reports it. `prepared` is what the block's
 * OperandReader made of `raw` when the rule compiled, if anything.
 */
export type ConditionResolver = (raw: unknown, prepared?: unknown) => unknown

/** Why a block could not be evaluated: a failed substitution, an unknown operator, an unreadable shape. */
export interface ConditionsError {
  /** Field path of the offending part, e.g. `any[1].key` (prefixed by the base path given). */
  readonly path: string
  readonly message: string
  readonly cause?: unknown
}

/**
 * The outcome of a block: whether it holds, with the message Kyverno reports alongside, or an error.
 *
 * `message` follows Kyverno: when the block holds, the messages of the conditions that held
 * (what a firing deny appends to the rule's message); when it does not, the messages of the
 * conditions that did not hold (what a skipped rule reports after "preconditions not met"). Both
 * keep short-circuiting: conditions after the deciding one are neither evaluated nor reported.
 * Messages are returned as written; substituting variables in them is the caller's step.
 */
export type ConditionsResult =
  | { readonly passed: boolean; readonly message?: string; readonly error?: undefined }
  | { readonly error: ConditionsError; readonly passed?: undefined; readonly message?: undefined }
