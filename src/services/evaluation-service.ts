import type { AuditOutcome, AuditWriter } from '../audit/audit-writer.js'
import {
  evaluatePolicy,
  evaluateRuleset,
  isReported,
  PreparedInput,
  resolvePolicyRulesets,
  type ClusterData,
  type CompiledRuleset,
  type Exemptions,
  type PolicyResult,
  type RuleResult,
  type RulesetResult,
} from '../engine/index.js'
import type { DefinitionCatalog } from './definition-catalog.js'
import { ConflictError, NotFoundError } from './service-errors.js'

export interface EvaluationRequest {
  /** Policy or ruleset name. */
  name: string
  inputData: unknown
  requestId: string
  /** The caller's identity, written to the audits as updatedBy. */
  by: string
  /** The evaluated document as the caller sent it, for the audit's `input`. */
  inputText: string
  inputFormat: 'json' | 'yaml'
  verbose?: boolean
}

/** Told of every answered evaluation (for metrics): kind, name, verdict, time with the audit commit. */
export type EvaluatedListener = (kind: 'policy' | 'ruleset', name: string, passed: boolean, durationMs: number) => void

export type PolicyEvaluationResponse = { requestId: string } & PolicyResult
export type RulesetEvaluationResponse = { requestId: string } & RulesetResult

/** The answer, and where its audit went (the API says so in a header). */
export interface Evaluated<R> {
  response: R
  audit: AuditOutcome
}

/**
 * Judges a document by a stored policy or ruleset and records the audits before answering:
 * the response is sent only once the audit rows are committed (group commit batches
 * concurrent evaluations into one transaction), or, while the store is unreachable, durably
 * spooled for replay.
 */
export class EvaluationService {
  readonly #catalog: DefinitionCatalog
  readonly #audits: AuditWriter

  readonly #onEvaluated: EvaluatedListener
  readonly #cluster: () => ClusterData | undefined
  readonly #exemptions: (() => Exemptions) | undefined
  readonly #onExempted: (exception: string) => void

  /**
   * `cluster`: the ConfigMaps context entries read, asked for at each evaluation (the controller
   * that holds them starts after the routes are built); undefined or absent without a cluster.
   * `exemptions`: the PolicyExceptions policy evaluations honour and the clock they are judged at,
   * asked for at each evaluation; `onExempted` hears of each rule result one let through.
   */
  constructor(
    catalog: DefinitionCatalog,
    audits: AuditWriter,
    options: { onEvaluated?: EvaluatedListener; cluster?: () => ClusterData | undefined; exemptions?: () => Exemptions; onExempted?: (exception: string) => void } = {},
  ) {
    this.#catalog = catalog
    this.#audits = audits
    this.#onEvaluated = options.onEvaluated ?? (() => {})
    this.#cluster = options.cluster ?? (() => undefined)
    this.#exemptions = options.exemptions
    this.#onExempted = options.onExempted ?? (() => {})
  }

  #input(object: unknown): PreparedInput {
    const cluster = this.#cluster()
    return new PreparedInput(cluster ? { object, cluster } : { object })
  }

  async evaluatePolicy(request: EvaluationRequest): Promise<Evaluated<PolicyEvaluationResponse>> {
    const started = performance.now()
    const evaluated = await this.#evaluatePolicy(request)
    this.#onEvaluated('policy', evaluated.response.policy, evaluated.response.passed, performance.now() - started)
    return evaluated
  }

  async evaluateRuleset(request: EvaluationRequest): Promise<Evaluated<RulesetEvaluationResponse>> {
    const started = performance.now()
    const evaluated = await this.#evaluateRuleset(request)
    this.#onEvaluated('ruleset', evaluated.response.ruleset, evaluated.response.passed, performance.now() - started)
    return evaluated
  }

  /** A definition set aside as invalid is stored but not evaluated: say so, and what is wrong with it. */
  #absent(kind: 'ruleset' | 'policy', name: string): Error {
    const setAside = this.#catalog.setAsideEntry(kind, name)
    if (!setAside) return new NotFoundError(kind, name)
    const problems = setAside.problems.map((problem) => `${problem.path} ${problem.message}`).join('; ')
    return new ConflictError('definition set aside', `${kind} "${name}" is stored but invalid, so nothing evaluates it until it is replaced or deleted: ${problems}`)
  }

  async #evaluatePolicy(request: EvaluationRequest): Promise<Evaluated<PolicyEvaluationResponse>> {
    const policy = this.#catalog.policy(request.name)
    if (!policy) throw this.#absent('policy', request.name)
    const { found, missing } = resolvePolicyRulesets(policy, this.#catalog.rulesets())
    const compiled: CompiledRuleset[] = found.map((ruleset) => this.#catalog.compiled(ruleset))
    const input = this.#input(request.inputData)
    const exemptions = this.#exemptions?.()
    const evaluation = evaluatePolicy(policy, compiled, input, exemptions ? { verbose: true, exemptions } : { verbose: true })
    // A policy switched off judged nothing: its rulesets, even missing ones, do not matter until it is switched on.
    const missingResults = evaluation.output.disabled ? [] : missing.map((name) => missingRuleset(name))
    const all = [...evaluation.output.results, ...missingResults]
    for (const result of all) if (result.exception !== undefined) this.#onExempted(result.exception)
    const output: PolicyResult = {
      policy: policy.name,
      passed: evaluation.output.passed && missingResults.length === 0,
      results: all.filter(isReported),
      ...(evaluation.output.disabled ? { disabled: true, disabledReason: evaluation.output.disabledReason ?? '' } : {}),
    }
    const audit = { requestId: request.requestId, input: request.inputText, inputFormat: request.inputFormat, updatedBy: request.by }
    const outcome = await this.#audits.write({
      policyAudits: [{ ...audit, policyName: policy.name, output, passed: output.passed }],
      rulesetAudits: evaluation.rulesets.map((result) => {
        const rulesetOutput = { ruleset: result.ruleset, passed: result.passed, results: result.results.filter(isReported) }
        return { ...audit, rulesetName: result.ruleset, output: rulesetOutput, passed: rulesetOutput.passed }
      }),
    })
    return {
      response: { requestId: request.requestId, ...output, results: request.verbose ? all : output.results },
      audit: outcome,
    }
  }

  async #evaluateRuleset(request: EvaluationRequest): Promise<Evaluated<RulesetEvaluationResponse>> {
    const ruleset = this.#catalog.ruleset(request.name)
    if (!ruleset) throw this.#absent('ruleset', request.name)
    const result = evaluateRuleset(this.#catalog.compiled(ruleset), this.#input(request.inputData), { verbose: true })
    const output: RulesetResult = { ruleset: ruleset.name, passed: result.passed, results: result.results.filter(isReported) }
    const outcome = await this.#audits.write({
      policyAudits: [],
      rulesetAudits: [
        {
          requestId: request.requestId,
          rulesetName: ruleset.name,
          input: request.inputText,
          inputFormat: request.inputFormat,
          output,
          passed: output.passed,
          updatedBy: request.by,
        },
      ],
    })
    return {
      response: { requestId: request.requestId, ruleset: ruleset.name, passed: output.passed, results: request.verbose ? result.results : output.results },
      audit: outcome,
    }
  }
}

/** A policy naming a ruleset that vanished (possible with CRDs) must not pass silently. */
function missingRuleset(name: string): RuleResult {
  return { ruleset: name, rule: '', status: 'error', severity: 'high', message: `ruleset "${name}" does not exist` }
}
