import type { Rule } from '../engine/index.js'
import { deriveRemediation } from './derive-remediation.js'

export interface RuleRemediation {
  remediation: string
  /** True when the rule has no remediation of its own and this one was derived from its messages. */
  derived: boolean
}

/** The rule's own remediation, else one derived from its message, CEL messages, description or expressions. */
export function remediationOf(rule: Rule): RuleRemediation {
  if (rule.remediation !== undefined && rule.remediation.trim() !== '') return { remediation: rule.remediation, derived: false }
  return { remediation: deriveRemediation(textsOf(rule)), derived: true }
}

/** The rule's message as results show it: its own, else its first static CEL message. */
export function messageOf(rule: Rule): string | undefined {
  return rule.message ?? rule.validate.cel?.find((validation) => validation.message !== undefined)?.message
}

function textsOf(rule: Rule): Parameters<typeof deriveRemediation>[0] {
  const cel = rule.validate.cel ?? []
  return {
    ...(rule.message === undefined ? {} : { message: rule.message }),
    celMessages: cel.map((validation) => validation.message),
    ...(rule.description === undefined ? {} : { description: rule.description }),
    expressions: cel.map((validation) => validation.expression),
  }
}
