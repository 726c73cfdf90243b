import type { Rule } from '../../engine/index.js'
import type { Clause } from '../text/clause.js'
import type { JsonValue } from './named-requirement.js'
import type { ParameterValue, Parameters, Recognition, SampleEdit, TemplateSamples } from './rule-template.js'

/** The options an entry gives a piece of the vocabulary (`with`). */
export type Options = Readonly<Record<string, JsonValue>>

/** The parameters and the values made from them (NamedRequirement.values), which texts name in double braces. */
export type Values = Readonly<Record<string, JsonValue>>

/**
 * What entries name instead of holding code. Each area of the catalog contributes its own
 * pieces (vocabulary-*.ts); `vocabulary-index.ts` joins them and refuses a name given twice.
 */
export interface Vocabulary {
  /** Named groups of words (regular expressions): "image words", "pull policy words". */
  words?: Record<string, RegExp>
  /** Tests of a clause that words alone cannot say. */
  tests?: Record<string, (clause: Clause, options: Options) => boolean>
  /** Readers of one parameter from a clause: undefined when the clause does not give it. */
  readers?: Record<string, (clause: Clause, options: Options) => ParameterValue | undefined>
  /** Whole recognizers, for requirements whose words decide their parameters as they go. */
  recognizers?: Record<string, (clause: Clause, options: Options) => Recognition>
  /** Rules made from parameters and the entry's options (names, descriptions, checks). */
  rules?: Record<string, (parameters: Parameters, options: Options) => Rule>
  /** Sample sets made from parameters. */
  samples?: Record<string, (parameters: Parameters, options: Options) => TemplateSamples>
  /** Places in a sample document an edit applies at: they create what is missing. A place may be several objects (every container). */
  places?: Record<string, (document: Record<string, unknown>, options: Options) => Record<string, unknown> | Array<Record<string, unknown>>>
  /** Named edits, for changes a path and a value cannot say. */
  edits?: Record<string, (parameters: Parameters, options: Options) => SampleEdit>
  /** Values made from the parameters and the values before them: a CEL test over a list, words chosen by a value. */
  values?: Record<string, (values: Values, options: Options) => Record<string, JsonValue>>
  /** Named changes to the object at a place, for what a path and a value cannot say (a part of an image reference). */
  changes?: Record<string, (target: Record<string, unknown>, options: Options) => void>
}

/** A text option an entry must give a piece; a missing one is an error in the entry, found when it is used. */
export function optionText(options: Options, name: string): string {
  const value = options[name]
  if (typeof value !== 'string') throw new Error(`a catalog entry's piece needs the text "${name}"`)
  return value
}

/** A list's items as text; anything else is no items. */
export function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? (value as unknown[]).map(String) : []
}
