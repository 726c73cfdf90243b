import type { PolicyHints, RulesetHints } from '../authoring/hints.js'
import type { PromptCheck } from '../authoring/prompt-check.js'
import type { SampleRequest, SampleResponse } from '../authoring/samples/sample-request.js'
import type { DefinitionCatalog } from './definition-catalog.js'
import { InvalidRequestError } from './service-errors.js'

export interface InstructionRequest {
  instruction: string
  labels?: Record<string, string>
}

/**
 * The helper routes around instruction authoring: hints, prompt validation, samples, vocabulary.
 * The catalog of templates, the field tables and the instruction readers behind them (about 4 MB
 * of heap) are imported by the first call, not when the service starts: evaluations and admission
 * never need them.
 */
export class AuthoringService {
  readonly #definitions: DefinitionCatalog

  constructor(definitions: DefinitionCatalog) {
    this.#definitions = definitions
  }

  async rulesetHints(request: InstructionRequest): Promise<RulesetHints> {
    const { rulesetHints } = await import('../authoring/hints.js')
    return rulesetHints(request.instruction, request.labels ?? {})
  }

  async policyHints(request: InstructionRequest): Promise<PolicyHints> {
    const { policyHints } = await import('../authoring/hints.js')
    const rulesets = this.#definitions.rulesets().map((ruleset) => ({
      name: ruleset.name,
      labels: ruleset.labels ?? {},
      templateIds: ruleset.rules.flatMap((rule) => (rule.template ? [rule.template.id] : [])),
      ruleNames: ruleset.rules.map((rule) => rule.name),
    }))
    return policyHints(request.instruction, rulesets)
  }

  async checkPrompt(request: InstructionRequest): Promise<PromptCheck> {
    const { checkPrompt } = await import('../authoring/prompt-check.js')
    return checkPrompt(request.instruction, request.labels ?? {})
  }

  async samples(request: SampleRequest): Promise<SampleResponse> {
    const [{ generateSamples, SampleRequestError }, { InstructionNotUnderstoodError }] = await Promise.all([
      import('../authoring/samples/sample-request.js'),
      import('../authoring/compile-instruction.js'),
    ])
    try {
      return generateSamples(request)
    } catch (error) {
      if (error instanceof SampleRequestError) throw new InvalidRequestError(`body.${error.field}: ${error.message}`)
      if (error instanceof InstructionNotUnderstoodError) throw new InvalidRequestError(`body.instruction: ${error.message}`, 'instruction not understood')
      throw error
    }
  }

  /** Label values the catalog understands, to offer besides the labels in use. */
  async vocabulary(): Promise<Record<string, string[]>> {
    const [{ CATALOG }, { SAMPLE_KINDS }, { SAMPLE_CATEGORIES }] = await Promise.all([
      import('../authoring/catalog/index.js'),
      import('../authoring/samples/base-documents.js'),
      import('../authoring/samples/sample-request.js'),
    ])
    const terraformTypes = CATALOG.filter((template) => template.platform === 'terraform').flatMap((template) => template.kinds)
    return {
      platform: [...SAMPLE_CATEGORIES],
      resource: [...new Set([...SAMPLE_KINDS, ...terraformTypes])],
    }
  }
}
