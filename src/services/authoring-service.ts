import { CATALOG } from '../authoring/catalog/index.js'
import { InstructionNotUnderstoodError } from '../authoring/compile-instruction.js'
import { policyHints, rulesetHints, type PolicyHints, type RulesetHints } from '../authoring/hints.js'
import { checkPrompt, type PromptCheck } from '../authoring/prompt-check.js'
import { SAMPLE_KINDS } from '../authoring/samples/base-documents.js'
import { generateSamples, SampleRequestError, SAMPLE_CATEGORIES, type SampleRequest, type SampleResponse } from '../authoring/samples/sample-request.js'
import type { DefinitionCatalog } from './definition-catalog.js'
import { InvalidRequestError } from './service-errors.js'

export interface InstructionRequest {
  instruction: string
  labels?: Record<string, string>
}

/** The helper routes around instruction authoring: hints, prompt validation, samples, vocabulary. */
export class AuthoringService {
  readonly #definitions: DefinitionCatalog

  constructor(definitions: DefinitionCatalog) {
    this.#definitions = definitions
  }

  rulesetHints(request: InstructionRequest): RulesetHints {
    return rulesetHints(request.instruction, request.labels ?? {})
  }

  policyHints(request: InstructionRequest): PolicyHints {
    const rulesets = this.#definitions.rulesets().map((ruleset) => ({
      name: ruleset.name,
      labels: ruleset.labels ?? {},
      templateIds: ruleset.rules.flatMap((rule) => (rule.template ? [rule.template.id] : [])),
      ruleNames: ruleset.rules.map((rule) => rule.name),
    }))
    return policyHints(request.instruction, rulesets)
  }

  checkPrompt(request: InstructionRequest): PromptCheck {
    return checkPrompt(request.instruction, request.labels ?? {})
  }

  samples(request: SampleRequest): SampleResponse {
    try {
      return generateSamples(request)
    } catch (error) {
      if (error instanceof SampleRequestError) throw new InvalidRequestError(`body.${error.field}: ${error.message}`)
      if (error instanceof InstructionNotUnderstoodError) throw new InvalidRequestError(`body.instruction: ${error.message}`, 'instruction not understood')
      throw error
    }
  }

  /** Label values the catalog understands, to offer besides the labels in use. */
  vocabulary(): Record<string, string[]> {
    const terraformTypes = CATALOG.filter((template) => template.platform === 'terraform').flatMap((template) => template.kinds)
    return {
      platform: [...SAMPLE_CATEGORIES],
      resource: [...new Set([...SAMPLE_KINDS, ...terraformTypes])],
    }
  }
}
