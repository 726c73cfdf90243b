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
  /**
   * Values the rule and the samples need that the parameters give only through some computing (a
   * CEL test over the listed ports, an instance type the allowlist rejects): a piece of the
   * vocabulary (`values`) makes them from the parameters. `{name}` in the rule's options, in sample
   * descriptions and in sample edits stands for the value `name`: a string that is nothing but
   * `{name}` becomes the value itself (a number, a list); inside text, its text (a list's items
   * joined with ", "). Braces around anything but a value's name stay as written.
   */
  values?: Use
  /** The rule's piece, or several: the first whose condition on the parameters holds (the last has none). */
  rule: Use | readonly RuleChoice[]
  samples: EntrySamples
}

/** One of several ways to build the rule, chosen by the parameters ("deny" lists forbid, others allow). */
export type RuleChoice = Use & { if?: ParameterCondition }

/**
 * A condition on the parameters a rule or a sample was made from: every named parameter is the
 * given value, or a list holding it. `false` holds for a parameter that is not `true` (a flag left
 * out is off).
 */
export type ParameterCondition = Readonly<Record<string, JsonValue>>

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
  /** A test of the vocabulary, by name, for what words alone cannot say. */
  | { test: string }
  /** A reader of the vocabulary finds its parameter in the clause (a value, not an empty list). */
  | { reads: Use }

export type EntryRecognition =
  | {
      /** Without it the clause is not about this requirement (score 0). */
      when: ClauseTest
      /** The score, or the first of these whose test holds (the last without a test is the default). */
      score: number | ReadonlyArray<{ when?: ClauseTest; score: number }>
      /** How each parameter is read, in order; a required parameter that is not read is missing. */
      parameters?: Readonly<Record<string, ParameterReading>>
    }
  /** A recognizer of the vocabulary, by name, for a requirement whose words decide its parameters as they go. */
  | Use

/** How a clause gives one parameter. */
export type ParameterReading =
  /**
   * A reader of the vocabulary (undefined when the clause does not give the parameter), only when
   * `when` holds. With `emptyIsMissing`, an empty list it reads is kept but the parameter counts
   * as missing: the clause asks for the rule without saying what it is about ("resources must be
   * tagged").
   */
  | (Use & { when?: ClauseTest; emptyIsMissing?: boolean })
  /** This value, when the test holds ("kms" asks for KMS keys). */
  | { value: JsonValue; when: ClauseTest }
  /**
   * A list: the values of every case whose test holds and the lists readers find, in order,
   * without repeats; `otherwise` when none gives anything (else the parameter is not given).
   */
  | { collect: ReadonlyArray<{ when: ClauseTest; values: readonly JsonValue[] } | Use>; otherwise?: readonly JsonValue[] }

/** A piece of the vocabulary by name, with the options this entry gives it. */
export interface Use {
  use: string
  with?: Readonly<Record<string, JsonValue>>
}

export type EntrySamples =
  | {
      /** Edits after which the document complies (often none: the base complies); with `if`, only for those parameters. */
      good?: ReadonlyArray<SampleEditData | { if: ParameterCondition; edit: SampleEditData }>
      /** Each alone makes the document fail the rule; with `if`, a sample only for those parameters. */
      bad: ReadonlyArray<{ description: string; edit: SampleEditData; if?: ParameterCondition }>
    }
  /** Samples the vocabulary makes from the parameters (one bad sample per listed value, say). */
  | Use

/**
 * A change to a sample document as data: at a place of the document (a vocabulary name such as
 * `first-container` or `pod-spec`, or a place taking options, such as the first resource of a
 * type), set these dotted paths, merge keys into an object, append an item to a list, or remove
 * paths, in that order; a place may be several (every resource of a type): the change is made at
 * each. Or a named edit of the vocabulary, or several changes made as one edit.
 */
export type SampleEditData =
  | {
      at: string | Use
      set?: Readonly<Record<string, JsonValue>>
      /** The keys of an object added to the object at each path (created when missing), replacing those it had. */
      merge?: Readonly<Record<string, JsonValue>>
      append?: { to: string; item: JsonValue }
      remove?: readonly string[]
    }
  | Use
  | readonly SampleEditData[]

/** A JSON value: what an entry is made of. */
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue }
