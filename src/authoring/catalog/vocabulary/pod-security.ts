import type { Severity } from '../../../engine/index.js'
import { hostPathCheck, privilegedCheck, type PodSecurityCheck } from '../../../engine/pod-security/index.js'
import { ALL_CONTAINERS, APP_AND_INIT_CONTAINERS, podRule } from '../pod-rule.js'
import type { Options, Vocabulary } from '../vocabulary.js'

/** The Pod Security Standards checks entries name (`with.check`), as engine/pod-security runs them. */
const CHECKS: Record<string, () => PodSecurityCheck> = {
  privileged: () => privilegedCheck,
  'host-path': () => hostPathCheck(),
}

const CONTAINER_SETS = { all: ALL_CONTAINERS, 'app-and-init': APP_AND_INIT_CONTAINERS }

function text(options: Options, name: string): string {
  const value = options[name]
  if (typeof value !== 'string') throw new Error(`a catalog entry's rule needs the text "${name}"`)
  return value
}

export const POD_SECURITY_VOCABULARY: Vocabulary = {
  rules: {
    /** One control of the standard: `check` names it; `containers` the containers bound for it, if any. */
    'pod-security-check': (_parameters, options) => {
      const check = CHECKS[text(options, 'check')]
      if (!check) throw new Error(`no Pod Security check "${text(options, 'check')}"`)
      const containers = typeof options.containers === 'string' ? CONTAINER_SETS[options.containers as keyof typeof CONTAINER_SETS] : undefined
      return podRule({
        name: text(options, 'name'),
        description: text(options, 'description'),
        severity: text(options, 'severity') as Severity,
        ...(containers ? { containers } : {}),
        ...check(),
        remediation: text(options, 'remediation'),
      })
    },
  },
}
