import type { RuleTemplate } from './rule-template.js'

/**
 * A named requirement of the catalog as data: what it is called, the words that ask for it, the
 * rule it makes and how sample documents pass and fail it. An entry holds no code: JSON values
 * only, and where it needs more than words (a check, an edit, a reader of parameters) it names a
 * piece of the vocabulary (vocabulary.ts), which is shared by every entry that needs it.
 * `entry-template.ts` turns an entry into the RuleTemplate the reader, hints and samples use.
 */
export interface NamedRequirement extends Pick<RuleTemplate, 'id' | 'title' | 'platform' | 'category' | 'kinds' | 'phrasings' | 'parameters'> {
  /** Words that name the set the rule's constants come from ("safe" sysctls): see RuleTemplate.constantsNamedBy. */
  constantsNamedBy?: Words
  recognize: EntryRecognition
  /**
   * Values made from the parameters by pieces of the vocabulary, in order, each seeing the
   * parameters and the values before it: a CEL test over the listed registries, the first port
   * of a list, words chosen by a parameter (`choose`). A value hides a parameter of its name.
   * The rule's options and the samples name parameters and values in double braces (see Text).
   */
  values?: readonly Use[]
  /**
   * The rule; or the first of several whose `when` holds (the last, without one, is the default):
   * "deny" lists forbid, others allow.
   */
  rule: Use | ReadonlyArray<Use & { when?: ValueTest }>
  samples: EntrySamples
}

/**
 * Texts of rules and samples may name a parameter or value in double braces: `{{registries}}`
 * (a list joined with commas), `{{registries|or}}` and `{{fields|and}}` (joined with "or",
 * "and"), `{{forbidden|cel}}` (a CEL string or list literal, escaped), `{{allowed.0}}` (an item).
 * A string that is one placeholder and nothing else stands for the value itself (a number, a
 * list). A parameter the clause did not give is empty; a name that is neither fails.
 */
export type Text = string

/**
 * A test on the parameters and values, for the choice of a case, a rule or a sample: every part
 * written holds. A name may be an item or key of a value, as in texts: `{ given: 'fields.1' }`
 * holds when the list has a second item.
 */
export interface ValueTest {
  /** Each value named is given: true, a number, a string or list that is not empty. */
  given?: string | readonly string[]
  /**
   * Each value named is this one, or a list holding it; `false` holds for anything but `true`
   * (a flag left out is off).
   */
  is?: Readonly<Record<string, JsonValue>>
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
  /** A test of the vocabulary, by name, for what words alone cannot say; `with` are its options. */
  | { test: string; with?: Readonly<Record<string, JsonValue>> }
  /** A reader of the vocabulary reads a value from the clause (scores can depend on a registry named). */
  | { reads: string; with?: Readonly<Record<string, JsonValue>> }

export type EntryRecognition =
  | {
      /** Without it the clause is not about this requirement (score 0). */
      when: ClauseTest
      /** The score, or the first of these whose test holds (the last without a test is the default). */
      score: number | ReadonlyArray<{ when?: ClauseTest; score: number }>
      /** How each parameter is read, in order; a required parameter that is not read is missing. */
      parameters?: Readonly<Record<string, ParameterReading>>
      /**
       * Parameters asked for again when a test holds, after the required ones not read: a value
       * the clause gives that cannot be used (an invalid pattern, bounds the wrong way round), or
       * an optional parameter that one of several must be read (a minimum or a maximum).
       */
      missing?: ReadonlyArray<{ parameter: string; when: ClauseTest }>
    }
  /** A recognizer of the vocabulary, by name, for a requirement whose words decide its parameters as they go. */
  | Use

/** How a clause gives one parameter. */
export type ParameterReading =
  /**
   * A reader of the vocabulary (undefined when the clause does not give the parameter), read only
   * when `when` holds: the same list of values is the allowed one in "only 80 and 443" and the
   * forbidden one in "no host port 22". With `emptyIsMissing`, an empty list it reads is kept but
   * the parameter counts as missing: the clause asks for the rule without saying what it is about
   * ("resources must be tagged").
   */
  | (Use & { when?: ClauseTest; emptyIsMissing?: boolean })
  /** This value, when the test holds ("kms" asks for KMS keys). */
  | { value: JsonValue; when: ClauseTest }
  /** Whether a test holds: true or false, always given. */
  | { holds: ClauseTest }
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
      /** Edits after which the document complies (often none: the base complies); with `when`, only when it holds. */
      good?: ReadonlyArray<SampleEditData | { when: ValueTest; edit: SampleEditData }>
      /** Each alone makes the document fail the rule. */
      bad: readonly BadSample[]
    }
  /** Samples the vocabulary makes from the parameters (one bad sample per listed value, say). */
  | Use
  /** The samples of the first case whose test holds (the last without one is the default). */
  | ReadonlyArray<{ when?: ValueTest; samples: EntrySamples }>

/** A bad sample: its edit makes a complying document fail. */
export interface BadSample {
  description: Text
  edit: SampleEditData
  /** Only when the test holds (a sample the rule chosen does not reject is left out). */
  when?: ValueTest
  /** One sample per item of this list value, the item named `{{item}}` (none when it is empty). */
  each?: string
}

/**
 * A change to a sample document as data: at a place of the document (a vocabulary name such as
 * `first-container` or `pod-spec`, with options when it takes some: the first resource of a type;
 * a place may be several objects, `every-container`, each of which is changed), make a named
 * change of the vocabulary (parts of an image reference), set these dotted paths, merge keys into
 * an object, append an item to a list, or remove paths, in that order; or a named edit
 * of the vocabulary; or several changes made as one edit, in turn. Paths and values may name
 * parameters and values (see Text).
 */
export type SampleEditData =
  | {
      at: string | Use
      change?: Use
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
