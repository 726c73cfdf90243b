/**
 * A key or value an operator cannot take at all, where Kyverno's engine fails outright rather than
 * answering false (the deprecated In and NotIn given a list key holding something other than
 * strings). The condition then ends in an error, as a failed substitution does.
 */
export class ConditionOperandError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ConditionOperandError'
  }
}
