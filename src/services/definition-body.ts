import {
  compileProblemLocation,
  compileRuleset,
  loadDefinition,
  RulesetCompileError,
  type DefinitionProblem,
  type PolicySpec,
  type RulesetSpec,
} from '../engine/index.js'
import { InvalidRequestError } from './service-errors.js'

/** What a create or replace request body holds, once checked: the spec and where its fields sit. */
export interface ParsedBody<Spec> {
  spec: Spec
  /** `body.spec.` for the manifest form, `body.` for the plain form: the prefix of field paths. */
  fieldPrefix: string
}

/**
 * A ruleset body in the plain form (`{rules, labels, description}`) or the manifest form
 * (`apiVersion: verdict.dev/v1alpha1, kind: Ruleset`), checked against the schema and compiled,
 * so a ruleset that is stored always evaluates.
 */
export function parseRulesetBody(name: string, body: unknown): ParsedBody<RulesetSpec> {
  const record = asObject(body)
  const parsed = parseDefinition(name, record, 'Ruleset')
  const spec = parsed.spec as RulesetSpec
  try {
    compileRuleset({ name, ...spec })
  } catch (error) {
    if (!(error instanceof RulesetCompileError)) throw error
    throw new InvalidRequestError(
      error.problems.map((problem) => `${compileProblemLocation(problem, parsed.fieldPrefix)}: ${problem.message}`).join('; '),
      'ruleset does not compile',
    )
  }
  return { spec, fieldPrefix: parsed.fieldPrefix }
}

export function parsePolicyBody(name: string, body: unknown): ParsedBody<PolicySpec> {
  const parsed = parseDefinition(name, asObject(body), 'Policy')
  return { spec: parsed.spec as PolicySpec, fieldPrefix: parsed.fieldPrefix }
}

function parseDefinition(name: string, record: Record<string, unknown>, kind: 'Ruleset' | 'Policy'): ParsedBody<RulesetSpec | PolicySpec> {
  const manifest = isManifest(record)
  const fieldPrefix = manifest ? 'body.spec.' : 'body.'
  const namedInBody = manifest ? (record.metadata as { name?: unknown } | undefined)?.name : record.name
  if (namedInBody !== undefined && namedInBody !== name) {
    throw new InvalidRequestError(`${manifest ? 'body.metadata.name' : 'body.name'}: ${JSON.stringify(namedInBody)} differs from the name in the path, "${name}"`)
  }
  const loaded = loadDefinition(record, { name, expect: kind })
  if ('problems' in loaded) throw new InvalidRequestError(describeProblems(loaded.problems))
  const { name: _name, version: _version, ...spec } = loaded.kind === 'Ruleset' ? loaded.ruleset : loaded.policy
  return { spec: spec as RulesetSpec | PolicySpec, fieldPrefix }
}

function describeProblems(problems: DefinitionProblem[]): string {
  return problems.map((problem) => `${problem.path === '' ? 'body' : `body.${problem.path}`}: ${problem.message}`).join('; ')
}

function isManifest(record: Record<string, unknown>): boolean {
  return 'apiVersion' in record || 'kind' in record
}

function asObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new InvalidRequestError('body: must be an object')
  return body as Record<string, unknown>
}
