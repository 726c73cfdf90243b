/**
 * A source document that cannot be read as the format it claims to be: a missing or mistyped
 * field, an unknown enum value. The whole document is rejected, because guessing at a malformed
 * policy could enforce something its author never wrote.
 */
export class ImportError extends Error {
  /** Where in the source document, e.g. `spec.rules[2].validate.cel.expressions[0].expression`. */
  readonly field: string
  /** What is wrong with the field, without the location. */
  readonly problem: string
  /** Which document of the input (0-based), once known. */
  readonly document?: number
  /** `kind/name` of that document, once known. */
  readonly source?: string

  constructor(field: string, problem: string, where?: { document: number; source: string }) {
    super(where ? `${where.source} (document ${where.document + 1}): ${field}: ${problem}` : `${field}: ${problem}`)
    this.name = 'ImportError'
    this.field = field
    this.problem = problem
    if (where) {
      this.document = where.document
      this.source = where.source
    }
  }
}

/**
 * A well-formed construct the Verdict model cannot express. It never escapes the importers: the
 * rule it was found in is reported as a SkippedRule with this message as the reason.
 */
export class Unsupported extends Error {
  constructor(reason: string) {
    super(reason)
    this.name = 'Unsupported'
  }
}
