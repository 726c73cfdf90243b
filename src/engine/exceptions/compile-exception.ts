import { DEFAULT_POD_CONTROLLERS } from '../autogen/pod-controllers.js'
import { CelCompileError, compileCel } from '../cel/index.js'
import type { CompiledNamedProgram } from '../compile/compiled-ruleset.js'
import { namesPodKind } from '../match/kind-selector.js'
import type { TargetPredicate } from '../match/matches-filter.js'
import { compileMatch, kindsNamedBy } from '../match/matches-rule.js'
import type { DefinitionProblem } from '../model/definition-problem.js'
import type { PodSecurityExcludeEntry } from '../model/pod-security.js'
import type { ExceptionRule, PolicyException } from '../model/policy-exception.js'

/** An exception ready to be asked, on every evaluation, whether it lets a rule result through. */
export interface CompiledException {
  readonly name: string
  readonly version: number
  /** Globs over policy names; undefined: any policy (then `rules` narrows it). */
  readonly policies: readonly string[] | undefined
  /** Globs over ruleset and rule names; undefined: every rule of the policies. */
  readonly rules: readonly ExceptionRule[] | undefined
  readonly matches: TargetPredicate
  /**
   * The match's own `namespaces` when none is a glob: a namespaced object outside them is never
   * matched, so a request is compared with a set before any predicate runs (most exceptions name
   * their namespaces, and every request asks every exception).
   */
  readonly namespaces: ReadonlySet<string> | undefined
  /** The pod controllers whose template is judged as a Pod, as autogen does for a rule naming Pods (none with matchPodTemplates: false). */
  readonly controllers: ReadonlySet<string>
  readonly conditions: readonly CompiledNamedProgram[]
  /** Set when it lets through only these Pod Security controls of the podSecurity rules it names, not whole rules. */
  readonly podSecurity: readonly PodSecurityExcludeEntry[] | undefined
  /** The instant it stops applying, in epoch milliseconds; undefined: it does not expire. */
  readonly expiresAtMs: number | undefined
  readonly reason: string
}

/** Why an exception cannot be used: each problem names its field, e.g. `conditions[0].expression (line 1, column 9)`. */
export class ExceptionCompileError extends Error {
  readonly exception: string
  readonly problems: DefinitionProblem[]

  constructor(exception: string, problems: DefinitionProblem[]) {
    super(`exception "${exception}" does not compile: ${problems.map((problem) => `${problem.path}: ${problem.message}`).join('; ')}`)
    this.name = 'ExceptionCompileError'
    this.exception = exception
    this.problems = problems
  }
}

const POD_CONTROLLERS: ReadonlySet<string> = new Set(DEFAULT_POD_CONTROLLERS)
const NO_CONTROLLERS: ReadonlySet<string> = new Set()

/**
 * Compiles an exception whose spec passed checkExceptionSpec: its CEL conditions with the
 * environment rules use (a bad expression is a problem naming the field), its match, and its end.
 */
export function compileException(exception: PolicyException): CompiledException {
  const problems: DefinitionProblem[] = []
  const conditions = (exception.conditions ?? []).flatMap((condition, index): CompiledNamedProgram[] => {
    try {
      return [{ name: condition.name ?? `${index}`, program: compileCel(condition.expression) }]
    } catch (error) {
      const path = `conditions[${index}].expression`
      if (error instanceof CelCompileError) problems.push({ path: `${path} (line ${error.line}, column ${error.column})`, message: error.summary })
      else problems.push({ path, message: (error as Error).message })
      return []
    }
  })
  let expiresAtMs: number | undefined
  if (exception.expiresAt !== undefined) {
    expiresAtMs = Date.parse(exception.expiresAt)
    if (Number.isNaN(expiresAtMs)) problems.push({ path: 'expiresAt', message: `${JSON.stringify(exception.expiresAt)} is not an RFC 3339 date-time such as 2026-01-31T12:00:00Z` })
  }
  if (problems.length > 0) throw new ExceptionCompileError(exception.name, problems)
  const kinds = kindsNamedBy(exception.match)
  return {
    name: exception.name,
    version: exception.version ?? 0,
    policies: exception.policies,
    rules: exception.rules,
    matches: compileMatch(exception.match),
    namespaces: literalNamespaces(exception.match.namespaces),
    controllers: exception.matchPodTemplates !== false && kinds && namesPodKind(kinds) ? POD_CONTROLLERS : NO_CONTROLLERS,
    conditions,
    podSecurity: exception.podSecurity,
    expiresAtMs,
    reason: exception.reason,
  }
}

function literalNamespaces(namespaces: readonly string[] | undefined): ReadonlySet<string> | undefined {
  if (namespaces === undefined || namespaces.some((namespace) => namespace.includes('*') || namespace.includes('?'))) return undefined
  return new Set(namespaces)
}

/** Compiled, in name order (the order Exemptions asks them in); throws ExceptionCompileError for the first that fails. */
export function compileExceptions(exceptions: readonly PolicyException[]): CompiledException[] {
  return inNameOrder(exceptions.map((exception) => compileException(exception)))
}

/** Byte order of names, as the store lists them: when several exceptions apply, the first names the skip. */
export function inNameOrder(exceptions: readonly CompiledException[]): CompiledException[] {
  return [...exceptions].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}

/** Whether the exception still applies at `nowMs`: it stops at `expiresAt` exactly. */
export function isActiveAt(exception: Pick<CompiledException, 'expiresAtMs'>, nowMs: number): boolean {
  return exception.expiresAtMs === undefined || nowMs < exception.expiresAtMs
}
