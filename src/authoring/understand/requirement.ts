import type { Platform } from '../catalog/rule-template.js'
import type { RuleGrounds } from './rule-grounds.js'
import type { KeyHow } from './grounding.js'

/**
 * A requirement as the compiler understands it: what it is about, which value, with which
 * quantifier, which predicate, under which conditions, and what a missing value means. It is
 * read from one sentence (plus the modifiers around it) and compiles to one CEL rule.
 */
export interface Requirement {
  /** The sentence it was read from, as written. */
  sentence: string
  subject: Subject
  /** The values judged; several when one sentence names several fields with one predicate. */
  values: ValueRef[]
  predicate: Predicate
  /** How the values combine when there are several: each must hold (default), or at least one. */
  combine: 'all' | 'any'
  /** What a value that is not there means. */
  missing: 'pass' | 'fail'
  /** The requirement applies only when every condition holds. */
  conditions: Condition[]
  /** The requirement does not apply when any exemption holds. */
  exemptions: Condition[]
}

export interface Subject {
  platform: Platform
  /** Kubernetes kinds, Terraform resource types, or [] for any document. */
  kinds: string[]
}

/**
 * Where a value lives. `scope` says what the path is relative to: the object (a Kubernetes
 * object, a generic document), each container of a pod, each element of a list in the
 * document, or each Terraform resource's values.
 */
export interface ValueRef {
  scope: ValueScope
  /** Alternative paths of the same value, first found wins (name variants in generic documents). */
  variants: PathVariant[]
  /** For containers: which container lists are judged. */
  containers?: ContainerSet
  /** For list elements: the path of the list (object-relative); a map's values count as its elements. */
  list?: string[]
  /** The value's type when a schema says it. */
  type?: ValueType
  /** The values the schema allows, when it lists them (`imagePullPolicy`: Always, IfNotPresent, Never). */
  enum?: readonly string[]
  /** The schema's default, used when the value is absent and the author did not say what that means. */
  schemaDefault?: string | number | boolean
  /** How the author named it, for messages. */
  label: string
  /** Written in the instruction as a field name, path or key (not found from words). */
  explicit?: boolean
  /** Guessed from words alone (a name variant), not written or found in a schema: a named requirement wins over it. */
  weak?: boolean
  /** The words that named it where the reader found it, and how they name it: shown to the author (rule-grounds.ts), never read by a rule. */
  named?: NamedBy
}

/** The words that named a field, as the reader saw them, and how they name it. */
export interface NamedBy {
  words: string
  how: FieldHow
}

/**
 * How words name a field: written as code (backticks), as a path or a field's own name; words
 * that are a schema field's name ("run as user"); a name made from the words where no schema
 * says (generic documents); the values written, which only that field's enum holds; a field
 * named in an earlier sentence; a label, annotation or tag key, as it is written (grounding.ts).
 */
export type FieldHow = (typeof FIELD_HOWS)[number] | `${MapNoun} key, ${KeyHow}`

export const FIELD_HOWS = ['written as code', 'written as a path', 'written as a field name', 'schema field name', 'name made from the words', 'enum value', 'named in an earlier sentence'] as const

/** The maps whose keys are fields of their own: labels and annotations (Kubernetes), tags (Terraform). */
export const MAP_NOUNS = ['label', 'annotation', 'tag'] as const
export type MapNoun = (typeof MAP_NOUNS)[number]

export type ValueScope = 'object' | 'container' | 'element' | 'resource'

export interface PathVariant {
  segments: string[]
  /** Multiply the stored number by this to get the unit the author's numbers are in (timeoutMs vs seconds: 0.001). */
  scale?: number
}

export interface ContainerSet {
  init: boolean
  ephemeral: boolean
  /** Where the pod spec is in the judged object (`spec.template.spec` in a Deployment); `spec` in a Pod. */
  podSpec?: string[]
  /** The pod-level value counts for containers that do not set their own (runAsNonRoot, seccompProfile). */
  podLevelFallback?: string[]
}

export type ValueType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'map' | 'quantity' | 'int-or-string'

export type Scalar = string | number | boolean

export type Comparison = '>=' | '>' | '<=' | '<'

export type Predicate =
  | { op: 'set' }
  | { op: 'unset' }
  | { op: 'equals'; value: Scalar }
  | { op: 'oneOf'; values: Scalar[] }
  | { op: 'noneOf'; values: Scalar[] }
  /** `seconds`: the bound is a duration in seconds, so a duration string ("1500ms", "2h") in the document compares by what it says. */
  | { op: 'compare'; bounds: Array<{ cmp: Comparison; value: number | string; display?: string; seconds?: true }> }
  | { op: 'format'; format: FormatName; pattern: string }
  | { op: 'notMatching'; pattern: string; description: string }
  | { op: 'startsWith' | 'endsWith' | 'notStartsWith' | 'notEndsWith' | 'contains' | 'notContains'; values: string[] }
  /** `factor`: the other value is multiplied by it first ("at most 4x the request"). */
  | { op: 'compareField'; cmp: Comparison | '==' | '!='; other: ValueRef; factor?: number }
  | { op: 'imageRegistry'; registries: string[] }
  | { op: 'imageRegistryDenied'; registries: string[] }
  | { op: 'imageTag'; requirement: 'tagged-or-digest' | 'digest' | 'not-latest' }
  | { op: 'listNoneOf'; values: Scalar[] }
  /** No key of a map starts with one of the prefixes ("no annotation beginning with `fluxcd.io/`"). */
  | { op: 'keysNoneStartWith'; values: string[] }
  /** No entry of a list of strings matches: a word inside a command line (`values`, as written), a wildcard inside a host. */
  | { op: 'listNoneMatching'; values: string[]; pattern: string; description: string }
  /** `capabilityNames`: entries are Linux capability names, which runtimes read without case and with or without `CAP_`. */
  | { op: 'listAllOf'; values: Scalar[]; capabilityNames?: true }
  | { op: 'listOnly'; values: Scalar[] }
  /** A CIDR's prefix length against a bound: "a /16 or smaller" is a prefix of 16 or more. */
  | { op: 'cidrPrefix'; cmp: Comparison; bits: number }
  /** The list holds at least one element whose fields hold ("a toleration with key nvidia.com/gpu and effect NoSchedule"). */
  /** With `negated`, no element may be so described ("must not have a toleration with operator Exists and no key"). */
  | { op: 'hasElement'; noun: string; where: ElementField[]; negated?: true }
  /**
   * The value names an element of another list of the object (`list`, from the object's root)
   * whose fields hold: a volume mount's `name` names a volume with `hostPath` set.
   */
  | { op: 'namesElement'; list: string[]; noun: string; where: ElementField[] }

/** A field of a list's element and what it must hold, for `hasElement`. */
export interface ElementField {
  segments: string[]
  predicate: Predicate
  /** A word, not a key as written: a key ending in it counts too ("ecosystem" is `package-ecosystem`). */
  loose?: boolean
  /** Set or unset is the key being there, even holding nothing: a volume's `emptyDir: {}` is an emptyDir volume. */
  keyPresent?: true
}

export type FormatName = 'email' | 'https-url' | 'url' | 'semver' | 'dns-label' | 'date' | 'snake-case' | 'kebab-case' | 'lowercase' | 'sha' | 'pattern'

/** A condition on a value of the same subject: "if environment is prod", "in namespaces starting with prod-". */
export interface Condition {
  value: ValueRef
  predicate: Predicate
  missing: 'pass' | 'fail'
  /** As the author put it, for the statement. */
  text: string
  /**
   * Said of "the volume" another condition picks ("skipped if the volume has a sizeLimit set"):
   * the field (`sizeLimit`) of the element of `list` that condition names, joined to it
   * (mounted-volume.ts); never read on its own.
   */
  ofPicked?: { list: string[]; field: string }
}

/** What each sentence of an instruction was taken to be. */
export type SentenceRole = 'requirement' | 'modifier' | 'restatement' | 'rationale' | 'heading' | 'permission'

export interface SentenceReading {
  text: string
  role: SentenceRole
  /** What it became: the rule names (requirement), the requirements it modified (modifier), why ignored otherwise. */
  became: string
  rules?: string[]
  /** Per rule it became, the words of the text that grounded the rule's fields and values (rule-grounds.ts). */
  grounds?: RuleGrounds[]
}

/** The text values a field is compared to, equal or not ("viewer, editor or admin"); numbers and booleans aside. */
export function valuesCompared(predicate: Predicate): string[] {
  switch (predicate.op) {
    case 'equals':
      return typeof predicate.value === 'string' ? [predicate.value] : []
    case 'oneOf':
    case 'noneOf':
    case 'listNoneOf':
    case 'listAllOf':
    case 'listOnly':
      return predicate.values.filter((value): value is string => typeof value === 'string')
    default:
      return []
  }
}
