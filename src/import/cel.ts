import type { MatchCondition } from '../engine/model/match.js'
import type { CelValidation, Variable } from '../engine/model/rule.js'
import { ImportError } from './import-error.js'
import { list, object, optionalList, optionalText, text } from './read.js'

/**
 * The CEL building blocks shared by Kubernetes ValidatingAdmissionPolicy, Kyverno
 * ValidatingPolicy and Kyverno `validate.cel`: they all use the admissionregistration shapes.
 */

/** `validations` / `validate.cel.expressions`: at least one, each an expression with optional messages. */
export function celValidations(value: unknown, field: string): CelValidation[] {
  const items = list(value, field)
  if (items.length === 0) throw new ImportError(field, 'must list at least one expression')
  return items.map((raw, i) => {
    const path = `${field}[${i}]`
    const item = object(raw, path)
    const validation: CelValidation = { expression: text(item.expression, `${path}.expression`) }
    const message = optionalMessage(item.message, `${path}.message`)
    if (message !== undefined) validation.message = message
    const messageExpression = optionalText(item.messageExpression, `${path}.messageExpression`)
    if (messageExpression !== undefined) validation.messageExpression = messageExpression
    return validation
  })
}

/** A message may be blank in the source; blank says nothing, so it is left out. */
export function optionalMessage(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string') throw new ImportError(field, 'must be a string')
  const trimmed = value.trim()
  return trimmed === '' ? undefined : trimmed
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/

/** Named CEL expressions, bound as `variables.NAME`; the name must be a CEL identifier. */
export function celVariables(value: unknown, field: string): Variable[] | undefined {
  const items = optionalList(value, field)
  if (!items || items.length === 0) return undefined
  return items.map((raw, i) => {
    const path = `${field}[${i}]`
    const item = object(raw, path)
    const name = text(item.name, `${path}.name`)
    if (!IDENTIFIER.test(name)) throw new ImportError(`${path}.name`, `"${name}" is not a CEL identifier`)
    return { name, expression: text(item.expression, `${path}.expression`) }
  })
}

/** matchConditions / celPreconditions: the rule is skipped when one of them is false. */
export function celMatchConditions(value: unknown, field: string): MatchCondition[] | undefined {
  const items = optionalList(value, field)
  if (!items || items.length === 0) return undefined
  return items.map((raw, i) => {
    const path = `${field}[${i}]`
    const item = object(raw, path)
    const condition: MatchCondition = { expression: text(item.expression, `${path}.expression`) }
    const name = optionalText(item.name, `${path}.name`)
    return name === undefined ? condition : { name, ...condition }
  })
}
