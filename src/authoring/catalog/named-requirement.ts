import type { Platform, TemplateCategory, TemplateParameter } from './rule-template.js'

/**
 * A named requirement of the catalog as data: what it is called, the words that ask for it, the
 * rule it makes and how sample documents pass and fail it. An entry holds no code: JSON values
 * only, and where it needs more than words (a check, an edit, a reader of parameters) it names a
 * piece of the vocabulary (vocabulary.ts), which is shared by every entry that needs it.
 * `entry-template.ts` turns an entry into the RuleTemplate the reader, hints and samples use.
 */
export interface NamedRequirement {
  /** Stable, recorded in generated rules: never rename one that shipped. */
  id: string
  title: string
  platform: Platform
  category: TemplateCategory
  /** Kinds the rule judges (Kubernetes kinds; for Terraform, resource types; ['*'] for generic). */
  kinds: readonly string[]
  /** Instructions that ask for this requirement alone, as an author would type them; used for hints and tests. */
  phrasings: readonly string[]
  parameters: readonly TemplateParameter[]
  /** Words that name the set the rule's constants come from ("safe" sysctls): see RuleTemplate.constantsNamedBy. */
  constantsNamedBy?: Words
  recognize: EntryRecognition
  rule: Use
  samples: EntrySamples
}

/**
 * Words a clause may contain, matched against its normalized text: a phrase (word boundaries,
 * spaces or hyphens between its words), a regular expression's source (with its flags, for words
 * matched against the text as written: `constantsNamedBy`), or a named group of the vocabulary's
 * words (so entries share "image words" instead of repeating them).
 */
export type Words = string | { re: string; flags?: string } | { words: string }

/** A test on a prepared clause, as data. */
export type ClauseTest =
  /** The clause mentions one of these. */
  | { mentions: readonly Words[] }
  | { all: readonly ClauseTest[] }
  | { any: readonly ClauseTest[] }
  | { not: ClauseTest }
  /** The clause forbids rather than requires (see Clause.negated). */
  | { negated: boolean }
  /** A test of the vocabulary, by name, for what words alone cannot say. */
  | { test: string }

export type EntryRecognition =
  | {
      /** Without it the clause is not about this requirement (score 0). */
      when: ClauseTest
      /** The score, or the first of these whose test holds (the last without a test is the default). */
      score: number | ReadonlyArray<{ when?: ClauseTest; score: number }>
      /** Each parameter's reader in the vocabulary; a required parameter it cannot read is missing. */
      parameters?: Readonly<Record<string, ParameterReading>>
    }
  /** A recognizer of the vocabulary, by name, for a requirement whose words decide its parameters as they go. */
  | Use

/**
 * A reader of one parameter, read only when `when` holds: the same list of values is the allowed
 * one in "only 80 and 443" and the forbidden one in "no host port 22", and a flag is read only
 * from the words that set it.
 */
export type ParameterReading = Use & { when?: ClauseTest }

/** A piece of the vocabulary by name, with the options this entry gives it. */
export interface Use {
  use: string
  with?: Readonly<Record<string, JsonValue>>
}

export type EntrySamples =
  | {
      /** Edits after which the document complies (often none: the base complies). */
      good?: readonly SampleEditData[]
      /** Each alone makes the document fail the rule. */
      bad: readonly BadSample[]
      /**
       * Values the vocabulary computes from the parameters (the host ports a rule rejects, say),
       * for bad samples that depend on them: the i-th bad sample takes the i-th value (the last,
       * when there are fewer), a sample marked `each` is made once per value. A value that is an
       * object binds each of its keys, any other value binds `value`; in the sample's description
       * and edit `{name}` is then replaced by the bound value (a string that is `{name}` alone
       * takes the value itself, number or object).
       */
      values?: Use
    }
  /** Samples the vocabulary makes from the parameters (one bad sample per listed value, say). */
  | Use

/** A bad sample: its edits, applied in turn, make a complying document fail. */
export interface BadSample {
  description: string
  edit: SampleEditData | readonly SampleEditData[]
  /** One sample per value of `values` (none when there are none). */
  each?: true
  /** A flag parameter that, when true, leaves this sample out (the rule it selects does not reject it). */
  unless?: string
}

/**
 * A change to a sample document as data: at a place of the document (a vocabulary name such as
 * `first-container` or `pod-spec`; a place may be several objects, each edited alike), set these
 * dotted paths, append an item to a list, or remove paths; or a named edit of the vocabulary.
 */
export type SampleEditData =
  | {
      at: string
      set?: Readonly<Record<string, JsonValue>>
      append?: { to: string; item: JsonValue }
      remove?: readonly string[]
    }
  | Use

/** A JSON value: what an entry is made of. */
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue }
