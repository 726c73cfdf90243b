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
 * spaces or hyphens between its words), a regular expression's source, or a named group of the
 * vocabulary's words (so entries share "image words" instead of repeating them).
 */
export type Words = string | { re: string } | { words: string }

/** A test on a prepared clause, as data. */
export type ClauseTest =
  /** The clause mentions one of these. */
  | { mentions: readonly Words[] }
  | { all: readonly ClauseTest[] }
  | { any: readonly ClauseTest[] }
  | { not: ClauseTest }
  /** The clause forbids rather than requires (see Clause.negated). */
  | { negated: boolean }
  /** A test of the vocabulary, by name, for what words alone cannot say; `with` are its options. */
  | { test: string; with?: Readonly<Record<string, JsonValue>> }
  /** A reader of the vocabulary (see EntryRecognition.parameters) reads a value from the clause: "the clause gives a number". */
  | { reads: Use }

export type EntryRecognition =
  | {
      /** Without it the clause is not about this requirement (score 0). */
      when: ClauseTest
      /** The score, or the first of these whose test holds (the last without a test is the default). */
      score: number | ReadonlyArray<{ when?: ClauseTest; score: number }>
      /** Each parameter's reader in the vocabulary; a required parameter it cannot read is missing. */
      parameters?: Readonly<Record<string, Use>>
      /**
       * Parameters asked for again when a test holds, after the required ones not read: a value
       * the clause gives that cannot be used (an invalid pattern, bounds the wrong way round), or
       * an optional parameter that one of several must be read (a minimum or a maximum).
       */
      missing?: ReadonlyArray<{ parameter: string; when: ClauseTest }>
    }
  /** A recognizer of the vocabulary, by name, for a requirement whose words decide its parameters as they go. */
  | Use

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
      bad: ReadonlyArray<{ description: string; edit: SampleEditData }>
      /** With it, descriptions are texts naming parameters ("a look-alike host web.evil{domain}"). */
      texts?: EntryTexts
    }
  /** Samples the vocabulary makes from the parameters (one bad sample per listed value, say). */
  | Use

/**
 * A change to a sample document as data: at a place of the document (a vocabulary name such as
 * `first-container` or `pod-spec`), set these dotted paths, append an item to a list, or remove
 * paths; or a named edit of the vocabulary.
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

/**
 * A text naming parameters, for texts that depend on them (a rule's name, messages, CEL; sample
 * descriptions): `{name}` is a parameter, read as EntryTexts says, or a phrase; `{name|or}` a list
 * joined with "or" (also `and`, `first`, and `cel` for a CEL list of strings; a list alone is
 * joined with commas). Or the first of several cases whose condition holds (none: empty), or each
 * item of a list parameter (`{item}` in `text`), joined.
 */
export type EntryText = string | ReadonlyArray<{ when?: TextCondition; text: string }> | { each: string; from?: number; text: string; join: string }

/** A condition on read parameters, every part of which holds: given (a number, a non-empty list), with several items, a first item. */
export type TextCondition = { given?: string | readonly string[]; many?: string; is?: Readonly<Record<string, string>> }

/**
 * How texts read parameters: as a `number` (`otherwise` when the value is none), or as a `list` of
 * strings (kept to `only` these, lowercased, `otherwise` when empty); and phrases by name.
 */
export type EntryTexts = {
  parameters?: Readonly<Record<string, { as: 'number' | 'list'; otherwise?: number | readonly string[]; only?: readonly string[]; lowercase?: boolean }>>
  phrases?: Readonly<Record<string, EntryText>>
}
