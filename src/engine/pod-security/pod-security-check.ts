/**
 * One check of a Pod Security Standards control: a CEL expression over the Pod (`object`) that is
 * true when the pod complies, and the message of a failure. Expressions that judge containers read
 * `variables.containers`, which the rule binds (see CONTAINERS_VARIABLE); profiles combine several
 * checks in one rule.
 */
export interface PodSecurityCheck {
  expression: string
  message: string
}
