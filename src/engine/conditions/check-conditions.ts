import { joinPath } from './join-path.js'
import { CONDITION_OPERATORS, isConditionOperator } from './operators/operators.js'

/** One thing wrong with a block of conditions, located by its field path. */
export interface ConditionProblem {
  readonly path: string
  readonly message: string
}

const BLOCK_FIELDS: ReadonlySet<string> = new Set(['any', 'all'])
const CONDITION_FIELDS: ReadonlySet<string> = new Set(['key', 'operator', 'value', 'message'])
const OPERATIONS: ReadonlySet<string> = new Set(['CREATE', 'UPDATE', 'DELETE', 'CONNECT'])

/**
 * The problems of a block of conditions, for refusing a definition when it is stored rather than
 * failing each evaluation. Besides the shape (a list, or `any`/`all` lists, of objects), it asks
 * what Kyverno's policy validation asks: every condition has a key, a value and an operator
 * spelled exactly as one of Kyverno's (so `equals` or `Contains` are refused, naming them), and a
 * key of `{{request.operation}}` is compared only with CREATE, UPDATE, DELETE or CONNECT. It also
 * refuses fields a condition or block does not have, which Kyverno would silently ignore: a
 * mistyped `al:` or `mesage:` changes what the rule does. `path` locates the block itself.
 */
export function checkConditions(block: unknown, path: string): ConditionProblem[] {
  if (block === null || block === undefined) return []
  if (Array.isArray(block)) return block.flatMap((condition, index) => checkCondition(condition, joinPath(path, `[${index}]`)))
  if (typeof block !== 'object') return [{ path, message: 'conditions must be a list of conditions or an object with any and/or all' }]
  const problems: ConditionProblem[] = []
  for (const [field, list] of Object.entries(block)) {
    const at = joinPath(path, field)
    if (!BLOCK_FIELDS.has(field)) problems.push({ path: at, message: `unknown field "${field}": conditions take only any and all` })
    else if (list === null) continue
    else if (!Array.isArray(list)) problems.push({ path: at, message: `${field} must be a list of conditions` })
    else problems.push(...list.flatMap((condition: unknown, index) => checkCondition(condition, joinPath(at, `[${index}]`))))
  }
  return problems
}

function checkCondition(condition: unknown, path: string): ConditionProblem[] {
  if (typeof condition !== 'object' || condition === null || Array.isArray(condition)) {
    return [{ path, message: 'a condition must be an object with key, operator and value' }]
  }
  const fields = condition as Readonly<Record<string, unknown>>
  const problems: ConditionProblem[] = []
  for (const field of Object.keys(fields)) {
    if (!CONDITION_FIELDS.has(field)) problems.push({ path: joinPath(path, field), message: `unknown field "${field}": a condition takes key, operator, value and message` })
  }
  for (const field of ['key', 'value'] as const) {
    if (fields[field] === undefined || fields[field] === null) problems.push({ path: joinPath(path, field), message: `the condition has no ${field}` })
  }
  problems.push(...checkOperator(fields.operator, joinPath(path, 'operator')))
  if (fields.message !== undefined && typeof fields.message !== 'string') problems.push({ path: joinPath(path, 'message'), message: 'message must be a string' })
  if (typeof fields.key === 'string' && fields.key.replace(/ /g, '') === '{{request.operation}}') {
    problems.push(...checkOperationValues(fields.value, joinPath(path, 'value')))
  }
  return problems
}

function checkOperator(operator: unknown, path: string): ConditionProblem[] {
  if (operator === undefined || operator === null || operator === '') return [{ path, message: 'the condition has no operator' }]
  if (typeof operator !== 'string') return [{ path, message: 'operator must be a string' }]
  if (isConditionOperator(operator)) return []
  const meant = CONDITION_OPERATORS.find((known) => known.toLowerCase() === operator.toLowerCase())
  const hint = meant === undefined ? `; expected one of ${CONDITION_OPERATORS.join(', ')}` : `; operators are case-sensitive: did you mean "${meant}"?`
  return [{ path, message: `unknown condition operator "${operator}"${hint}` }]
}

/** A value compared with the request's operation must name operations as Kubernetes spells them. */
function checkOperationValues(value: unknown, path: string): ConditionProblem[] {
  const unknown = (name: string, at: string): ConditionProblem => ({
    path: at,
    message: `"${name}" is no operation: request.operation is one of CREATE, UPDATE, DELETE or CONNECT`,
  })
  if (typeof value === 'string') {
    // A whole-value variable may well hold a valid operation; it is known only when evaluated.
    if (value.length >= 4 && value.startsWith('{{') && value.endsWith('}}')) return []
    return OPERATIONS.has(value) ? [] : [unknown(value, path)]
  }
  if (Array.isArray(value)) {
    return value.flatMap((item: unknown, index): ConditionProblem[] => {
      const at = joinPath(path, `[${index}]`)
      if (typeof item !== 'string') return [{ path: at, message: 'operations compared with request.operation must be strings' }]
      return OPERATIONS.has(item) ? [] : [unknown(item, at)]
    })
  }
  if (value === undefined || value === null) return []
  return [{ path, message: 'the operations compared with request.operation must be a string or a list of strings' }]
}
