import type { Rule, Severity } from '../../engine/index.js'

/**
 * Every container of the pod, init and ephemeral ones included: Kubernetes runs them with the
 * same privileges, so a rule about containers that skipped them would be easy to get around.
 * Bound as `variables.containers`.
 */
export const ALL_CONTAINERS = {
  name: 'containers',
  expression: 'object.spec.?containers.orValue([]) + object.spec.?initContainers.orValue([]) + object.spec.?ephemeralContainers.orValue([])',
}

/** App and init containers only: the fields Kubernetes forbids on ephemeral containers (probes, ports, resources). */
export const APP_AND_INIT_CONTAINERS = {
  name: 'containers',
  expression: 'object.spec.?containers.orValue([]) + object.spec.?initContainers.orValue([])',
}

export interface PodRuleOptions {
  name: string
  description: string
  severity: Severity
  /** CEL over the Pod (`object`), with `variables.containers` bound to `containers` when given. */
  expression: string
  message: string
  remediation: string
  containers?: typeof ALL_CONTAINERS | typeof APP_AND_INIT_CONTAINERS
}

/**
 * A rule on Pods. The engine's autogen also applies it to the pod template of Deployments,
 * StatefulSets, DaemonSets, ReplicaSets, Jobs and CronJobs, presented as a Pod.
 */
export function podRule(options: PodRuleOptions): Rule {
  const rule: Rule = {
    name: options.name,
    description: options.description,
    severity: options.severity,
    match: { kinds: ['Pod'] },
    validate: { cel: [{ expression: options.expression, message: options.message }] },
    message: options.message,
    remediation: options.remediation,
  }
  if (options.containers) rule.variables = [options.containers]
  return rule
}

/** A CEL string literal (single-quoted, escaped) for a parameter value. */
export function celString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r')}'`
}

/** A CEL list of string literals. */
export function celStringList(values: readonly string[]): string {
  return `[${values.map(celString).join(', ')}]`
}
