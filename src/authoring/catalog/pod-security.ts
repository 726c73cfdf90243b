import { mentions } from '../text/clause.js'
import { containersOf, firstContainerOf, mapIn } from '../samples/document-parts.js'
import { ALL_CONTAINERS, podRule } from './pod-rule.js'
import type { RuleTemplate } from './rule-template.js'

/**
 * The Pod Security Standards controls (https://kubernetes.io/docs/concepts/security/pod-security-standards/),
 * baseline and restricted, each as a template. Field semantics follow the standard: where a
 * pod-level securityContext field is inherited by containers, the pod level satisfies the rule.
 */

const privileged: RuleTemplate = {
  id: 'pss-privileged',
  title: 'No privileged containers',
  platform: 'kubernetes',
  category: 'pod-security-baseline',
  kinds: ['Pod'],
  phrasings: ['no privileged pods', 'containers must not run in privileged mode', 'disallow privileged containers'],
  parameters: [],
  recognize(clause) {
    if (!mentions(clause, 'privileged', 'privileged mode', /\bpriv(ileged)? containers?\b/)) return { score: 0, parameters: {}, missing: [] }
    // "privilege escalation" is its own control.
    if (mentions(clause, /escalat/)) return { score: 0, parameters: {}, missing: [] }
    return { score: 2, parameters: {}, missing: [] }
  },
  rule: () =>
    podRule({
      name: 'no-privileged-containers',
      description: 'Privileged containers have all the host\'s capabilities and devices: Pod Security baseline forbids them.',
      severity: 'high',
      containers: ALL_CONTAINERS,
      expression: 'variables.containers.all(c, !c.?securityContext.?privileged.orValue(false))',
      message: 'privileged containers are not allowed',
      remediation: 'Remove securityContext.privileged or set it to false on every container, init container and ephemeral container.',
    }),
  samples: () => ({
    good: [],
    bad: [
      { description: 'an app container with securityContext.privileged: true', edit: (document) => void (mapIn(firstContainerOf(document), 'securityContext').privileged = true) },
      {
        description: 'an init container with securityContext.privileged: true',
        edit: (document) => {
          const [init] = containersOf(document, ['initContainers'])
          if (init) mapIn(init, 'securityContext').privileged = true
        },
      },
    ],
  }),
}

export const POD_SECURITY_TEMPLATES: readonly RuleTemplate[] = [privileged]
