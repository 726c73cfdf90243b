export type { AnyAllConditions, Condition, ConditionBlock, ConditionResolver, ConditionsError, ConditionsResult } from './condition.js'
export { checkConditions, type ConditionProblem } from './check-conditions.js'
export { evaluateConditions } from './evaluate-conditions.js'
export { CONDITION_OPERATORS, isConditionOperator, type ConditionOperator } from './operators/operators.js'
