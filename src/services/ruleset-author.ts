import type { ClauseReport } from '../authoring/compile-instruction.js'
import type { ClauseModel } from '../authoring/model/clause-model.js'
import type { RulesetSpec } from '../engine/index.js'
import type { SentenceReading } from '../authoring/understand/requirement.js'
import type { InstructionBody } from './instruction-body.js'
import { InvalidRequestError } from './service-errors.js'

/** The spec made from an instruction, with how each of its sentences was read. */
export interface AuthoredSpec {
  spec: RulesetSpec
  sentences: SentenceReading[]
}

/**
 * Turns `{instruction, labels}` into a ruleset spec with the catalog, and, when a model is
 * configured, lets it try the clauses the catalog could not map (its rules are accepted only
 * after they validate, compile and judge their samples right). The catalog and the readers are
 * imported by the first instruction, not when the service starts (see AuthoringService).
 */
export class RulesetAuthor {
  readonly #model: ClauseModel | undefined

  constructor(options: { model?: ClauseModel } = {}) {
    this.#model = options.model
  }

  async specFromInstruction(name: string, body: InstructionBody): Promise<AuthoredSpec> {
    let spec: RulesetSpec
    let sentences: SentenceReading[] = []
    const { compileInstruction, InstructionNotUnderstoodError } = await import('../authoring/compile-instruction.js')
    try {
      if (this.#model) {
        const { compileWithModel } = await import('../authoring/model/compile-with-model.js')
        spec = await compileWithModel(name, body.instruction, body.labels, this.#model)
      } else {
        const compiled = compileInstruction(body.instruction, body.labels)
        spec = compiled.spec
        sentences = compiled.sentences
      }
    } catch (error) {
      if (error instanceof InstructionNotUnderstoodError) throw new InvalidRequestError(`body.instruction: ${error.message}`, notUnderstoodSummary(error.clauses))
      throw error
    }
    return { spec: body.description === undefined ? spec : { ...spec, description: body.description }, sentences }
  }
}

function notUnderstoodSummary(clauses: ClauseReport[]): string {
  if (clauses.some((clause) => clause.status === 'missing-parameters')) return 'instruction is missing parameters'
  if (clauses.some((clause) => clause.status === 'ambiguous')) return 'instruction is ambiguous'
  return 'instruction not understood'
}
