/**
 * Kyverno's JMESPath: expressions, `{{ }}` variable substitution and the variable context, for
 * Kyverno classic policies. Pure: no I/O, no clock except time_now().
 */

export { defaultJmespathLimits, getJmespathLimits, JmespathBudgetError, setJmespathLimits, type JmespathLimits } from './budget.js'
export { JmespathError, JmespathNotFoundError, JmespathSyntaxError, isNotFound } from './errors.js'
export { evaluateJmespath, type EvaluateOptions } from './evaluate.js'
export { KYVERNO_FUNCTIONS } from './functions/index.js'
export type { JsonObject, JsonPrimitive, JsonValue } from './json.js'
