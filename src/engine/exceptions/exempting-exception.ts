import type { PreparedInput } from '../evaluate/prepared-input.js'
import { matchesAnyGlob, matchesGlob } from '../match/glob.js'
import { isActiveAt, type CompiledException } from './compile-exception.js'

/** The exceptions an evaluation honours, and the instant it happens at (expiry is judged against it, nothing else). */
export interface Exemptions {
  /** In name order: when several exempt a rule, the first names it. */
  readonly exceptions: readonly CompiledException[]
  readonly now: Date
}

/** What is being judged when asking for an exemption. */
export interface ExemptionQuery {
  policy: string
  ruleset: string
  rule: string
  input: PreparedInput
  now: Date
}

/**
 * Whether each exception's match and conditions hold for one input: they do not depend on the
 * rule, so one evaluation asks each exception once however many rules it could exempt.
 */
export type ExemptionMemo = Map<CompiledException, boolean>

/**
 * The exception that lets one rule result through, or undefined: the first, by name, that is
 * active at `now` (expiry is exact), names the policy, names the rule when it names rules, matches
 * the resource (a Pod match also takes a pod controller's template, as autogen judges it) and whose
 * CEL conditions are all true. A condition that errs or is not a bool does not exempt: the
 * rule is judged as if the exception were not there.
 */
export function exemptingException(exceptions: readonly CompiledException[], query: ExemptionQuery, memo: ExemptionMemo = new Map()): CompiledException | undefined {
  const nowMs = query.now.getTime()
  for (const exception of exceptions) {
    if (!isActiveAt(exception, nowMs) || !namesPolicy(exception, query.policy) || !namesRule(exception, query.ruleset, query.rule)) continue
    let applies = memo.get(exception)
    if (applies === undefined) {
      applies = appliesTo(exception, query.input)
      memo.set(exception, applies)
    }
    if (applies) return exception
  }
  return undefined
}

/** The exceptions that may exempt some rule of `policy` at `now`: what one policy evaluation asks among. */
export function exceptionsForPolicy(exemptions: Exemptions, policy: string): CompiledException[] {
  const nowMs = exemptions.now.getTime()
  return exemptions.exceptions.filter((exception) => isActiveAt(exception, nowMs) && namesPolicy(exception, policy))
}

/** Whether an exception may let rules of `policy` through: its `policies` match the name, or it names none (its `rules` say which). */
export function namesPolicy(exception: { readonly policies?: readonly string[] | undefined }, policy: string): boolean {
  return exception.policies === undefined || matchesAnyGlob(policy, exception.policies)
}

/** Whether an exception's `rules` name some rule of `ruleset`. */
export function namesRuleset(exception: { readonly rules?: readonly { ruleset: string }[] | undefined }, ruleset: string): boolean {
  return (exception.rules ?? []).some((entry) => matchesGlob(ruleset, entry.ruleset))
}

function namesRule(exception: CompiledException, ruleset: string, rule: string): boolean {
  return exception.rules === undefined || exception.rules.some((entry) => matchesGlob(ruleset, entry.ruleset) && matchesGlob(rule, entry.rule))
}

function appliesTo(exception: CompiledException, input: PreparedInput): boolean {
  const subject = input.subjectMatching(exception.matches, exception.controllers)
  if (!subject) return false
  for (const condition of exception.conditions) {
    try {
      if (condition.program.evaluate(subject.bindings) !== true) return false
    } catch {
      // An exception is a permission: when its condition cannot be decided, nothing is let through.
      return false
    }
  }
  return true
}
