import type { Platform } from '../catalog/rule-template.js'
import type { Condition } from './requirement.js'

/**
 * "Exceptions: anything in kube-system, and Secrets of type kubernetes.io/service-account-token":
 * a sentence labelled as a list of exceptions. Each item names what is exempt, as a namespace
 * ("anything in kube-system") or a condition on the subject ("Secrets of type X").
 */
const LABEL = /^\s*(?:the\s+)?(?:exceptions?|exemptions?|exempt(?:ed)?|excluded|exclusions?|not covered|skip(?:ped)?|allowed exceptions?)\s*(?::|-|–)\s*(\S.*)$/i

export interface ExceptionContext {
  platform: Platform
  /** Reads "type X" or "field = value" as a condition on the subject. */
  readCondition: (text: string) => Condition | undefined
}

const NAMESPACE_PATH = ['metadata', 'namespace']

/** The exempt items of an exception list, or undefined when the text is not one or an item cannot be read. */
export function readExceptionList(text: string, context: ExceptionContext): Condition[] | undefined {
  const match = LABEL.exec(text)
  if (!match?.[1]) return undefined
  const items = match[1]
    .replace(/[.;]\s*$/, '')
    .split(/\s*(?:;|,\s*(?:and|or)\s+|,\s+|\s+and\s+(?=(?:anything|everything|all|any|the|[A-Z])))\s*/)
    .map((item) => item.trim())
    .filter((item) => item !== '')
  const conditions: Condition[] = []
  for (const item of items) {
    const condition = exemptItem(item, context)
    if (!condition) return undefined
    conditions.push(condition)
  }
  return conditions.length > 0 ? conditions : undefined
}

function exemptItem(item: string, context: ExceptionContext): Condition | undefined {
  // "anything in kube-system", "workloads in the monitoring namespace", "kube-system".
  const inNamespace = /^(?:(?:anything|everything|all|any(?:thing)?|[\w-]+)\s+)?(?:in|inside|within)\s+(?:the\s+)?[`"']?([a-z0-9][a-z0-9-]*[a-z0-9*])[`"']?(?:\s+namespaces?)?$/i.exec(item)
  if (inNamespace?.[1] && context.platform === 'kubernetes') return namespaceExempt(inNamespace[1], item)
  const namespaceNamed = /^(?:the\s+)?[`"']?([a-z0-9][a-z0-9-]*[a-z0-9*])[`"']?\s+namespaces?$/i.exec(item)
  if (namespaceNamed?.[1] && context.platform === 'kubernetes') return namespaceExempt(namespaceNamed[1], item)
  // "Secrets of type X", "buckets whose name starts with logs-", "resources where env = dev".
  const narrowed = /^(?:any\s+|all\s+)?[\w-]+?\s+(?:of|with|whose|where|having)\s+(.+)$/i.exec(item)
  return context.readCondition(narrowed?.[1] ?? item)
}

function namespaceExempt(name: string, text: string): Condition {
  const value = { scope: 'object' as const, variants: [{ segments: NAMESPACE_PATH }], label: 'namespace', type: 'string' as const }
  if (name.endsWith('*') || name.endsWith('-')) return { value, predicate: { op: 'startsWith', values: [name.replace(/\*$/, '')] }, missing: 'fail', text }
  return { value, predicate: { op: 'oneOf', values: [name] }, missing: 'fail', text }
}
