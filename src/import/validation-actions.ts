import type { FailurePolicy, PolicyAction } from '../engine/model/policy.js'
import { ImportError } from './import-error.js'
import { optionalList, optionalText } from './read.js'

const ACTIONS: readonly PolicyAction[] = ['Deny', 'Warn', 'Audit']

/**
 * admissionregistration validationActions -> one Verdict action. Kubernetes allows Warn and
 * Audit together (both happen); Verdict has one action per policy, so the strongest wins.
 */
export function validationActions(value: unknown, field: string): PolicyAction | undefined {
  const items = optionalList(value, field)
  if (!items || items.length === 0) return undefined
  const actions = items.map((item, i) => {
    if (typeof item !== 'string' || !ACTIONS.includes(item as PolicyAction)) {
      throw new ImportError(`${field}[${i}]`, `must be one of ${ACTIONS.join(', ')}`)
    }
    return item as PolicyAction
  })
  return ACTIONS.find((action) => actions.includes(action))
}

export function failurePolicy(value: unknown, field: string): FailurePolicy | undefined {
  const policy = optionalText(value, field)
  if (policy === undefined || policy === 'Fail' || policy === 'Ignore') return policy
  throw new ImportError(field, `must be Fail or Ignore, not "${policy}"`)
}
