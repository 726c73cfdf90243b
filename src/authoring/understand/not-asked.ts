/**
 * Clauses that look like bans or demands and ask for nothing: what an absent value means ("no
 * `for` means the alert fires straight away", "missing counts as no MFA", "no type means
 * ClusterIP") defines absence, it does not forbid the field; and "TLS secrets don't need the label"
 * exempts, it does not require the label. Read as a requirement, each turns into its opposite.
 */
const ABSENCE_DEFINED = /^\W*(?:and\s+|but\s+|so\s+|also\s+)?(?:no|missing|a missing|an? (?:unset|absent|empty)|unset|absent|leaving (?:it|\S+) (?:out|unset)|without)\b[^,;:]{0,60}?\b(?:means?|counts? as|is (?:treated|read|taken) as|is the same as|equals|implies|defaults? to|is considered)\b/i

const NOT_NEEDED = /\b(?:do(?:es)?n'?t|do(?:es)? not|needn'?t|need not|never)\s+(?:even\s+|really\s+|actually\s+)?(?:need|needs|have to|has to|require)\b|\b(?:is|are)\s+not\s+(?:required|needed|necessary)\b|\b(?:isn'?t|aren'?t)\s+(?:required|needed|necessary)\b/i

/** Whether the clause states what absence means, or that something is not needed, rather than asking. */
export function asksNothing(clause: string): boolean {
  return ABSENCE_DEFINED.test(clause) || (NOT_NEEDED.test(clause) && !/\b(?:must|has to|have to|shall|should)\b(?!\s+not\b)/i.test(clause.replace(NOT_NEEDED, ' ')))
}
