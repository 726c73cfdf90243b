import type { Rule } from '../../engine/index.js'
import type { Clause } from '../text/clause.js'

/** What a rule judges: Kubernetes objects, any JSON document, or a Terraform plan (`terraform show -json`). */
export type Platform = 'kubernetes' | 'generic' | 'terraform'

export type TemplateCategory =
  | 'pod-security-baseline'
  | 'pod-security-restricted'
  | 'workload'
  | 'metadata'
  | 'networking'
  | 'scaling'
  | 'generic'
  | 'terraform'

/** A parameter value as extracted from a clause: always JSON, so it can be recorded in the rule. */
export type ParameterValue = string | number | boolean | string[] | number[] | { [key: string]: ParameterValue }

export type Parameters = Record<string, ParameterValue>

export interface TemplateParameter {
  name: string
  /** What to ask the author for when it is missing ("which registries are allowed?"). */
  question: string
  /** Without it the template cannot produce a rule. */
  required: boolean
  /** A value for examples and samples. */
  example: ParameterValue
}

/** How well a clause asks for a template, and what it said about the parameters. */
export interface Recognition {
  /**
   * 0 when the clause is not about this template at all. A clause goes to its best-scoring
   * template; a score below RECOGNITION_THRESHOLD is not enough on its own. Scale: 1 per
   * distinctive concept the clause names (see scoring in recognize-clause.ts).
   */
  score: number
  parameters: Parameters
  /** Names of required parameters the clause did not give. */
  missing: string[]
}

/**
 * A change to a sample document. Samples start from a base document of the kind (compliant
 * with every template's defaults, see samples/base-documents.ts); edits from several clauses are
 * applied in turn, so an edit must change only what its template is about (the registry part
 * of an image, not the whole image).
 */
export type SampleEdit = (document: Record<string, unknown>) => void

export interface TemplateSamples {
  /** Edits after which the document complies (often none: the base complies). */
  good: SampleEdit[]
  /** Each edit alone, applied after the good edits, makes the document fail this template's rule. */
  bad: { description: string; edit: SampleEdit }[]
}

/**
 * One kind of rule the instruction compiler can produce. Templates are data plus small pure
 * functions: `recognize` reads a prepared clause, `rule` builds the rule from parameters,
 * `samples` says how to make documents that pass and fail it.
 */
export interface RuleTemplate {
  /** Stable, recorded in generated rules: never rename one that shipped. */
  id: string
  title: string
  platform: Platform
  category: TemplateCategory
  /** Kinds the rule judges (Kubernetes kinds; for Terraform, resource types; ['*'] for generic). */
  kinds: readonly string[]
  /** Instructions that map to this template alone, as an author would type them; used for hints and tests. */
  phrasings: readonly string[]
  parameters: readonly TemplateParameter[]
  /**
   * Words that name the set the rule's constants come from ("safe" sysctls, capabilities "beyond the
   * default set"): with them the text grounds constants it does not spell out (unwritten-constants.ts).
   */
  constantsNamedBy?: RegExp
  recognize(clause: Clause): Recognition
  /** The rule, given every required parameter. `name` is a DNS-label-like id derived from the parameters. */
  rule(parameters: Parameters): Rule
  /**
   * Edits that make a sample document pass and fail the rule. The compiler picks the document:
   * the base document of the kind the instruction or labels name when the template judges it,
   * else of `kinds[0]` (for Terraform: a plan holding a resource of that type; for generic: `{}`).
   */
  samples(parameters: Parameters): TemplateSamples
}
