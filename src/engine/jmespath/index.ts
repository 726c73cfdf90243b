/**
 * Kyverno's JMESPath for classic policies: expressions, `{{ }}` substitution, and the variables a
 * rule sees. Pure and synchronous: no I/O; the only clock is time_now() (fixable per call).
 *
 * How the engine uses it, per resource and rule (what Kyverno's engine does):
 *
 *   const base = buildKyvernoContext({ object, oldObject, operation, userInfo }, { mode })
 *   const rule = withContextEntries(base.withVariables(valuesForRule), rule.context, { configMaps })
 *   substituteVariables(rule.preconditions / deny.conditions key and value, rule)   // then compare
 *   substituteVariables(rule.validate.pattern, rule)                                 // then match
 *   for (const [i, element] of rule.queryList(foreach.list).entries()) {
 *     const each = withContextEntries(rule.withElement(element, i, nesting), foreach.context)
 *     ...
 *   }
 *   substituteVariables(rule.validate.message, rule)  // on error Kyverno keeps the raw message
 *
 * - evaluateJmespath(expression, data, { now? }): JsonValue — one expression over a JSON value.
 *   Kyverno's dialect (go-jmespath as Kyverno forks it): a field missing along the main path
 *   throws JmespathNotFoundError ("Unknown key \"x\" in path"); `x || default` and functions
 *   read it as null. Kyverno's custom functions are registered (KYVERNO_FUNCTIONS).
 * - substituteVariables(value, context, { path?, references? }): JsonValue — Kyverno's
 *   SubstituteAll: `$(...)` references, then `{{ }}` variables in every string and key. Throws
 *   SubstitutionError with Kyverno's "failed to resolve <expr> at path <path>: ..." message and
 *   a `notFound` flag.
 * - buildKyvernoContext(input, { mode?, images?, variables? }): KyvernoContext — request.*,
 *   serviceAccountName/Namespace, images. KyvernoContext.query(expression) is Kyverno's
 *   ctx.Query (loads context entries the expression names; "JMESPath query failed: ..." errors);
 *   withElement / withVariables / withContextEntries return new layered contexts.
 * - withContextEntries(context, entries, { configMaps?, policyNamespace? }) — a rule's
 *   `context`: variable and configMap entries load lazily; apiCall, imageRegistry and
 *   globalReference fail with UnsupportedContextEntryError when used, unless already given.
 *
 * Work is bounded (budget.ts): every operation has a cost and time budget, strings a size limit,
 * values and substitutions a depth limit; exceeding one throws JmespathBudgetError.
 */

export { defaultJmespathLimits, getJmespathLimits, JmespathBudgetError, setJmespathLimits, type JmespathLimits } from './budget.js'
export {
  buildKyvernoContext,
  type BuildContextOptions,
  type KyvernoRequestInput,
  type KyvernoUserInfo,
} from './context/build-context.js'
export {
  UnsupportedContextEntryError,
  withContextEntries,
  type ConfigMapLookup,
  type ContextEntryOptions,
  type KyvernoContextEntry,
} from './context/context-entries.js'
export { extractImages } from './context/images.js'
export { KyvernoContext, type DeferredEntry } from './context/kyverno-context.js'
export { isNotFound, JmespathError, JmespathNotFoundError, JmespathSyntaxError } from './errors.js'
export { evaluateJmespath, type EvaluateOptions } from './evaluate.js'
export { KYVERNO_FUNCTIONS } from './functions/index.js'
export { parseImageReference, type ImageInfo, type ImageOptions } from './image-reference.js'
export type { JsonObject, JsonPrimitive, JsonValue } from './json.js'
export { prepareWholeVariable, substituteVariables, substituteWholeVariable, type SubstituteOptions, type VariableContext, type WholeVariable } from './substitution/substitute.js'
export { SubstitutionError } from './substitution/substitution-error.js'
