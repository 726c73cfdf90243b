import { celString } from '../index.js'
import type { PodSecuritySpec } from './pod-security-spec.js'
import type { PsaCheck } from './psa-checks.js'

/**
 * Failure messages as Kyverno words them (validate_pss.go, pss.FormatChecksPrint), for one check:
 *
 *   It violates PodSecurity "restricted:latest": Privilege Escalation (Forbidden reason:
 *   allowPrivilegeEscalation != false, field error list: [spec.containers[0].securityContext.
 *   allowPrivilegeEscalation is forbidden, forbidden values found: true])
 *
 * Kyverno lists every failing check in one message and names none of the controls; a Verdict rule
 * reports its first failing check, so each message names its control.
 */

function lead(spec: PodSecuritySpec, check: PsaCheck): string {
  return `It violates PodSecurity "${spec.label}": ${check.control}`
}

/** The message without field errors: for the check the library gives none, and should the list fail to build. */
export function failureMessage(spec: PodSecuritySpec, check: PsaCheck): string {
  return `${lead(spec, check)} (Forbidden reason: ${check.reason}${check.fieldErrors ? '' : ', field error list: []'})`
}

/** The message listing `errors` (CEL, field-errors.ts records); `all` are the check's errors before any exclude. */
export function failureMessageExpression(spec: PodSecuritySpec, check: PsaCheck, errors: string, all: string): string {
  const text =
    "r.required ? r.field + ': Required value' : r.value == '' ? r.field + ': Forbidden' : r.field + ' is forbidden, forbidden values found: ' + r.value"
  return `${celString(`${lead(spec, check)} (Forbidden reason: `)} + ${reason(check, all)} + ', field error list: [' + ${errors}.map(r, ${text}).join(', ') + '])'`
}

/** The library says "profile" or "profiles" by the number of bad AppArmor types and annotations. */
function reason(check: PsaCheck, all: string): string {
  if (check.id !== 'appArmorProfile') return celString(check.reason)
  const count = `${all}.filter(r, !r.key.startsWith('metadata')).map(r, r.value).distinct().size() + ${all}.filter(r, r.key.startsWith('metadata')).size()`
  return `(${count} == 1 ? 'forbidden AppArmor profile' : 'forbidden AppArmor profiles')`
}
