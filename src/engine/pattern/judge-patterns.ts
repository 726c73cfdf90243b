import type { PathSegment } from '../autogen/pod-template-path.js'
import { compilePattern, type CompiledPattern } from './compile-pattern.js'
import { matchPattern, type MatchOptions, type PatternOutcome } from './match-pattern.js'
import type { PatternField } from './mismatch.js'
import { kyvernoPathText, type PathMapping } from './pattern-path.js'
import type { PatternSubstitute } from './substitution.js'

/** `validate.pattern` (one pattern) or `validate.anyPattern` (the rule passes when any one matches). */
export interface PatternValidation {
  kind: 'pattern' | 'anyPattern'
  patterns: CompiledPattern[]
}

export interface PatternJudgement {
  status: 'pass' | 'fail' | 'skip' | 'error'
  /** Kyverno's message for a failure, skip or error (none for a pass). */
  message?: string
  /** Each failing pattern's field (for anyPattern, one per alternative that failed with a path). */
  fields: PatternField[]
  /** Where the (first) failure is: its field, else the path Kyverno reports. */
  path?: PathSegment[]
}

export interface JudgeOptions {
  /** The rule's name, as Kyverno writes it into its messages. */
  rule: string
  /** The rule's own message (Kyverno's validate.message), which leads the failure message. */
  message?: string
  mapPath?: PathMapping
  wholeNumbers?: MatchOptions['wholeNumbers']
  /** Substitutes `{{ }}` variables and `$(...)` references; required when a pattern holds them. */
  substitute?: PatternSubstitute
}

/**
 * Judges one resource the way Kyverno's validator does (validatePatterns): the outcome of the
 * pattern, or of the first anyPattern alternative that passes, with Kyverno's messages:
 * `validation error: <message>. rule <rule> failed at path /spec/...`, and for anyPattern every
 * failed alternative, `rule <rule>[1] failed at path ...`. An anyPattern rule is skipped only when
 * no alternative failed and some were skipped.
 */
export function judgePatterns(validation: PatternValidation, resource: unknown, options: JudgeOptions): PatternJudgement {
  let patterns = validation.patterns
  if (patterns.some(needsSubstitution)) {
    try {
      patterns = patterns.map((pattern, index) => substituted(pattern, { kind: validation.kind, index }, options.substitute))
    } catch (error) {
      return { status: 'error', message: `variable substitution failed: ${error instanceof Error ? error.message : String(error)}`, fields: [] }
    }
  }
  if (validation.kind === 'pattern') {
    const [pattern] = patterns
    return single(pattern ? match(pattern, resource, options) : { status: 'pass' }, options)
  }
  return any(anyOutcomes(patterns, resource, options), options)
}

function match(pattern: CompiledPattern, resource: unknown, options: JudgeOptions): PatternOutcome {
  return matchPattern(pattern, resource, options)
}

/** Alternatives in order, stopping at the first that passes. */
function anyOutcomes(patterns: readonly CompiledPattern[], resource: unknown, options: JudgeOptions): PatternOutcome[] {
  const outcomes: PatternOutcome[] = []
  for (const pattern of patterns) {
    const outcome = match(pattern, resource, options)
    outcomes.push(outcome)
    if (outcome.status === 'pass') break
  }
  return outcomes
}

function needsSubstitution(pattern: CompiledPattern): boolean {
  return pattern.variables.length > 0 || pattern.references.length > 0
}

/** The pattern after Kyverno's substitution, compiled for this evaluation. */
function substituted(pattern: CompiledPattern, at: Parameters<PatternSubstitute>[1], substitute: PatternSubstitute | undefined): CompiledPattern {
  if (!needsSubstitution(pattern)) return pattern
  if (!substitute) {
    const places = [...pattern.variables, ...pattern.references].join(', ')
    throw new Error(`the pattern holds {{ }} variables or $(...) references (at ${places}) and this engine has no substitution for them`)
  }
  return compilePattern(substitute(pattern.raw, at)).pattern
}

function single(outcome: PatternOutcome, options: JudgeOptions): PatternJudgement {
  switch (outcome.status) {
    case 'pass':
      return { status: 'pass', fields: [] }
    case 'skip':
      return { status: 'skip', message: outcome.reason, fields: [] }
    case 'fail':
      return {
        status: 'fail',
        message: `validation error: ${lead(options)}rule ${options.rule} failed at path ${kyvernoPathText(outcome.path)}`,
        fields: fieldsOf(outcome),
        path: outcome.field?.path ?? outcome.path,
      }
    case 'error':
      return { status: 'error', message: `validation error: ${lead(options)}rule ${options.rule} execution error: ${outcome.reason}`, fields: [] }
  }
}

/** The rule's message ending in a period and a space, or nothing. */
function lead(options: JudgeOptions): string {
  if (options.message === undefined || options.message === '') return ''
  return options.message.endsWith('.') ? `${options.message} ` : `${options.message}. `
}

function any(outcomes: readonly PatternOutcome[], options: JudgeOptions): PatternJudgement {
  if (outcomes.some((outcome) => outcome.status === 'pass')) return { status: 'pass', fields: [] }
  const failed: string[] = []
  const skipped: string[] = []
  const fields: PatternField[] = []
  let path: PathSegment[] | undefined
  outcomes.forEach((outcome, index) => {
    const name = `rule ${options.rule}[${index}]`
    if (outcome.status === 'skip') skipped.push(`${name} skipped: ${outcome.reason}`)
    else if (outcome.status === 'fail') {
      failed.push(`${name} failed at path ${kyvernoPathText(outcome.path)}`)
      fields.push(...fieldsOf(outcome))
      path ??= outcome.field?.path ?? outcome.path
    } else if (outcome.status === 'error') failed.push(`${name} failed: ${outcome.reason}`)
  })
  if (failed.length === 0) return { status: 'skip', message: skipped.join(' '), fields: [] }
  const judgement: PatternJudgement = { status: 'fail', message: `validation error: ${lead(options)}${failed.join(' ')}`, fields }
  if (path) judgement.path = path
  return judgement
}

function fieldsOf(outcome: Extract<PatternOutcome, { status: 'fail' }>): PatternField[] {
  return outcome.field ? [outcome.field] : []
}
