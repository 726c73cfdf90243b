import type { PreparedInput } from '../evaluate/prepared-input.js'
import { matchesAnyGlob, matchesGlob } from '../match/glob.js'
import type { RuleResultForm } from '../model/policy-exception.js'
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
  /** The controller kind when the result was judged by autogen on its pod template (RuleResult.autogen). */
  autogen?: string | undefined
  input: PreparedInput
  now: Date
}

/**
 * The exception that lets one whole rule result through, or undefined: the first, by name, that is
 * active at `now` (expiry is exact), names the policy, names the rule when it names rules, matches
 * the resource (a Pod match also takes a pod controller's template, as autogen judges it), whose
 * CEL conditions are all true and that has no `podSecurity` (those let through single controls of
 * a podSecurity rule, judged with the rule: exemptedResult). A condition that errs or is not a
 * bool does not exempt: the rule is judged as if the exception were not there.
 */
export function exemptingException(exceptions: readonly CompiledException[], query: ExemptionQuery): CompiledException | undefined {
  const applying = exceptionsApplyingTo({ exceptions, now: query.now }, query.policy, query.input)
  return firstNamingRule(
    applying.filter((exception) => exception.podSecurity === undefined),
    query.ruleset,
    query.rule,
    query.autogen,
  )
}

/**
 * The exceptions that let something of `policy` through for this input at `now`, in name order:
 * what one policy evaluation then asks per rule (firstNamingRule). The part that does not depend
 * on the policy (active, match, conditions) is worked out once per input, however many policies
 * judge it, so that the common case, no exception matching the request, costs almost nothing.
 */
export function exceptionsApplyingTo(exemptions: Exemptions, policy: string, input: PreparedInput): CompiledException[] {
  const applying = applyingToInput(exemptions, input)
  return applying.length === 0 ? applying : applying.filter((exception) => namesPolicy(exception, policy))
}

/**
 * The first of `exceptions` whose `rules` name this rule, in the form it was judged in (`autogen`:
 * the controller kind of an autogen result), or that names no rules: every rule of its policies.
 */
export function firstNamingRule(exceptions: readonly CompiledException[], ruleset: string, rule: string, autogen?: string): CompiledException | undefined {
  return exceptions.find((exception) => namesRule(exception, ruleset, rule, autogen))
}

/** Whether an exception may let rules of `policy` through: its `policies` match the name, or it names none (its `rules` say which). */
export function namesPolicy(exception: { readonly policies?: readonly string[] | undefined }, policy: string): boolean {
  return exception.policies === undefined || matchesAnyGlob(policy, exception.policies)
}

/** Whether an exception's `rules` name some rule of `ruleset`. */
export function namesRuleset(exception: { readonly rules?: readonly { ruleset: string }[] | undefined }, ruleset: string): boolean {
  return (exception.rules ?? []).some((entry) => matchesGlob(ruleset, entry.ruleset))
}

function namesRule(exception: CompiledException, ruleset: string, rule: string, autogen: string | undefined): boolean {
  if (exception.rules === undefined) return true
  return exception.rules.some(
    (entry) => matchesGlob(ruleset, entry.ruleset) && matchesGlob(rule, entry.rule) && (entry.appliesTo === undefined || entry.appliesTo.includes(resultForm(autogen))),
  )
}

/** A result judged on the object itself, or by autogen on a CronJob's or another controller's pod template. */
export function resultForm(autogen: string | undefined): RuleResultForm {
  if (autogen === undefined) return 'object'
  return autogen === 'CronJob' ? 'cronJobs' : 'controllers'
}

interface InputExemptions {
  readonly exceptions: readonly CompiledException[]
  readonly nowMs: number
  readonly applying: CompiledException[]
}

/** Per input, the exceptions applying to it, for the list and instant they were worked out for. */
const perInput = new WeakMap<PreparedInput, InputExemptions>()

function applyingToInput(exemptions: Exemptions, input: PreparedInput): CompiledException[] {
  const nowMs = exemptions.now.getTime()
  const known = perInput.get(input)
  if (known && known.exceptions === exemptions.exceptions && known.nowMs === nowMs) return known.applying
  const target = input.subject.target
  // A Namespace belongs to itself (see matches-filter.ts): only other objects are compared with the set.
  const namespace = target.gvk.kind === 'Namespace' && target.gvk.group === '' ? undefined : target.namespace
  const applying = exemptions.exceptions.filter(
    (exception) => isActiveAt(exception, nowMs) && (namespace === undefined || exception.namespaces === undefined || exception.namespaces.has(namespace)) && appliesTo(exception, input),
  )
  perInput.set(input, { exceptions: exemptions.exceptions, nowMs, applying })
  return applying
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
