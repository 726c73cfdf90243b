/**
 * Whether a clause says what an absent field means for its requirement ("`hostProcess`, if
 * present, must be false", "seccomp is unset or set to RuntimeDefault", "maxUnavailable, if
 * specified, ..."). A named (catalog) rule has its own fixed answer to that and cannot take the
 * author's: read by it, the qualifier would be dropped and an absent field judged as the template
 * decides. Such a clause is read structurally, where the qualifier is a modifier, or refused.
 */
const ABSENCE = /\b(?:(?:either )?(?:unset|not set|absent|omitted|undefined) or\b|or (?:just )?(?:left )?(?:unset|not set|absent|omitted|out|missing|not there|not present)\b|(?:if|when|where) (?:it is |it's |they are |one is )?(?:set|present|specified|defined|given|provided|declared)\b|(?:is|are) optional\b)/i

export function qualifiesAbsence(text: string): boolean {
  return ABSENCE.test(text)
}
