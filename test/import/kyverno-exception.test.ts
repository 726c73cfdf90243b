import { describe, expect, it } from 'vitest'
import { matchesGlob } from '../../src/engine/match/glob.js'
import { importExceptionDocuments, ImportError, type ExceptionImportOptions } from '../../src/import/index.js'
import { derivative } from '../../src/import/kyverno-exception-rules.js'
import { docs } from './helpers.js'

const REASON: ExceptionImportOptions = { reason: 'the tool needs the host IPC namespace' }

function imported(yaml: string, options = REASON) {
  const [first] = importExceptionDocuments(docs(yaml), options)
  return first
}

function refusal(yaml: string, options = REASON): string {
  try {
    importExceptionDocuments(docs(yaml), options)
  } catch (error) {
    if (error instanceof ImportError) return `${error.field}: ${error.problem}`
    throw error
  }
  return 'translated'
}

const deltaException = `
apiVersion: kyverno.io/v2
kind: PolicyException
metadata:
  name: delta-exception
  namespace: delta
spec:
  exceptions:
  - policyName: disallow-host-namespaces
    ruleNames:
    - host-namespaces
    - autogen-host-namespaces
  match:
    any:
    - resources:
        kinds:
        - Pod
        - Deployment
        namespaces:
        - delta
        names:
        - important-tool*
`

describe('Kyverno kyverno.io/v2 PolicyException', () => {
  it('becomes an exception of the rule in the forms it names, matched on the object itself', () => {
    expect(imported(deltaException)).toEqual({
      sourceKind: 'PolicyException',
      sourceName: 'delta/delta-exception',
      exception: {
        name: 'delta-exception',
        rules: [
          { ruleset: 'disallow-host-namespaces', rule: 'host-namespaces', appliesTo: ['object', 'controllers'] },
          { ruleset: 'disallow-host-namespaces-enforce', rule: 'host-namespaces', appliesTo: ['object', 'controllers'] },
          { ruleset: 'disallow-host-namespaces-audit', rule: 'host-namespaces', appliesTo: ['object', 'controllers'] },
        ],
        match: { any: [{ kinds: ['Pod', 'Deployment'], names: ['important-tool*'], namespaces: ['delta'] }] },
        matchPodTemplates: false,
        reason: 'the tool needs the host IPC namespace',
      },
    })
  })

  it('reads v2beta1 alike, autogen-cronjob- names, wildcards (over every name Kyverno gives a rule) and namespaced policies', () => {
    const exception = imported(
      deltaException
        .replace('kyverno.io/v2', 'kyverno.io/v2beta1')
        .replace('policyName: disallow-host-namespaces', 'policyName: team-a/require-labels')
        .replace('- host-namespaces\n    - autogen-host-namespaces', '- autogen-cronjob-check-*\n    - "*-team"'),
    )?.exception
    expect(exception?.rules?.filter((entry) => entry.ruleset === 'require-labels')).toEqual([
      // autogen-cronjob-check-* is also the autogen- name of a rule named cronjob-check-...
      { ruleset: 'require-labels', rule: 'cronjob-check-*', appliesTo: ['controllers'] },
      { ruleset: 'require-labels', rule: 'check-*', appliesTo: ['cronJobs'] },
      { ruleset: 'require-labels', rule: '*-team' },
      // autogen-team and autogen-cronjob-team end in -team too.
      { ruleset: 'require-labels', rule: 'team', appliesTo: ['controllers', 'cronJobs'] },
    ])
  })

  it('takes reason, ticket, owner and end from verdict.dev annotations before the caller default', () => {
    const annotated = deltaException.replace(
      '  namespace: delta\n',
      `  namespace: delta
  annotations:
    verdict.dev/reason: vendor tool, replaced in Q3
    verdict.dev/ticket: OPS-7
    verdict.dev/owner: platform@example.com
    verdict.dev/expires-at: "2026-09-30T00:00:00Z"
`,
    )
    expect(imported(annotated)?.exception).toMatchObject({ reason: 'vendor tool, replaced in Q3', ticket: 'OPS-7', owner: 'platform@example.com', expiresAt: '2026-09-30T00:00:00Z' })
  })

  it('refuses without a reason, naming the annotation', () => {
    expect(refusal(deltaException, { reason: '' })).toBe(
      'metadata.annotations.verdict.dev/reason: is required: a Verdict exception says why it exists and a Kyverno PolicyException has no field for it; write the reason in this annotation',
    )
    expect(refusal(deltaException, { reasonHint: 'or pass --exception-reason' })).toMatch(/write the reason in this annotation or pass --exception-reason$/)
  })

  it('carries podSecurity over as the same Pod Security controls, empty fields left out', () => {
    const podSecurity = `  podSecurity:
  - controlName: Capabilities
    images: [nginx*, redis*]
  - controlName: HostPath Volumes
    restrictedField: spec.volumes[*].hostPath
    values: [/var/lib1]
  - {controlName: Host Namespaces, images: [], restrictedField: ''}
`
    expect(imported(`${deltaException}${podSecurity}`)?.exception.podSecurity).toEqual([
      { controlName: 'Capabilities', images: ['nginx*', 'redis*'] },
      { controlName: 'HostPath Volumes', restrictedField: 'spec.volumes[*].hostPath', values: ['/var/lib1'] },
      { controlName: 'Host Namespaces' },
    ])
  })

  it.each([
    ['podSecurity: [{controlName: Capabilities}]', /^spec\.podSecurity\[0\]\.controlName: Capabilities is a container-level control: exclude\.images must be specified$/],
    ['podSecurity: [{controlName: Sysctl}]', /^spec\.podSecurity\[0\]\.controlName: must be one of HostProcess, Host Namespaces, /],
    ['background: false', /^spec\.background: is false \(Kyverno does not apply the exception in background scans\) and its match does not name the requesting subjects/],
    ['preconditions: {}', /^spec\.preconditions: is not a field of this PolicyException/],
  ])('refuses %s, naming the field', (extra, message) => {
    expect(refusal(`${deltaException}  ${extra}\n`)).toMatch(message)
  })

  it.each([
    ['match: {}', 'spec.match: has neither any nor all: Kyverno matches nothing with it'],
    ['match: {any: [{resources: {}}]}', 'spec.match.any[0]: is empty: Kyverno matches nothing with it'],
    [
      'match: {any: [{resources: {operations: [CREATE]}}]}',
      'spec.match.any[0].resources.operations: is all this filter names, and Kyverno does not read operations in exceptions: it would match every resource',
    ],
    [
      'match: {any: [{resources: {kinds: [Pod]}, roles: [admin]}]}',
      'spec.match.any[0].roles: matching on the requesting user\'s roles is not supported (Verdict does not read RBAC bindings); subjects are',
    ],
  ])('refuses the match %s', (match, message) => {
    const yaml = deltaException.slice(0, deltaException.indexOf('  match:')) + `  ${match}\n`
    expect(refusal(yaml)).toBe(message)
  })

  it('takes background: false when the match names the requesting subjects (background scans judge no request)', () => {
    const bySubject = `
apiVersion: kyverno.io/v2beta1
kind: PolicyException
metadata:
  name: admin-debug
  namespace: policy-exceptions
spec:
  background: false
  exceptions:
  - policyName: restrict-debug
    ruleNames: [no-ephemeral-containers]
  match:
    all:
    - resources:
        names: [debug-*]
        namespaces: [payments]
      subjects:
      - kind: ServiceAccount
        namespace: ops
        name: break-glass
`
    expect(imported(bySubject)?.exception.match).toEqual({
      all: [{ names: ['debug-*'], namespaces: ['payments'], subjects: [{ kind: 'ServiceAccount', name: 'break-glass', namespace: 'ops' }] }],
    })
  })

  it('leaves out operations, which Kyverno does not read in exceptions', () => {
    const yaml = deltaException.replace('        namespaces:', '        operations: [CREATE]\n        namespaces:')
    expect(imported(yaml)?.exception.match).toEqual({ any: [{ kinds: ['Pod', 'Deployment'], names: ['important-tool*'], namespaces: ['delta'] }] })
  })

  it('translates conditions, and refuses a policy name with wildcards or no rule names', () => {
    const withConditions = `${deltaException}  conditions:\n    any:\n    - {key: "{{ request.object.metadata.labels.color || '' }}", operator: Equals, value: blue}\n`
    expect(imported(withConditions)?.exception.conditions).toHaveLength(1)
    expect(refusal(deltaException.replace('policyName: disallow-host-namespaces', 'policyName: "disallow-*"'))).toBe(
      'spec.exceptions[0].policyName: "disallow-*" names no policy: Kyverno compares it literally with "name" or "namespace/name" (no wildcards)',
    )
    expect(refusal(deltaException.replace('ruleNames:\n    - host-namespaces\n    - autogen-host-namespaces', 'ruleNames: []'))).toBe(
      'spec.exceptions[0].ruleNames: is empty: Kyverno lets no rule through for this policy; name the rules (or * for all)',
    )
  })
})

describe('Kyverno policies.kyverno.io PolicyException', () => {
  const cel = `
apiVersion: policies.kyverno.io/v1
kind: PolicyException
metadata:
  name: check-name
  namespace: apps
spec:
  policyRefs:
  - name: check-deployment-name
    kind: ValidatingPolicy
  matchConditions:
  - name: check-name
    expression: "object.metadata.name == 'skipped-deployment'"
  expiresAt: "2026-07-01T00:00:00Z"
  properties:
    reason: the deployment predates the naming rule
    ticket: OPS-12
`

  it('becomes an exception of the policies it references, with its conditions, end and properties', () => {
    expect(imported(cel, {})).toEqual({
      sourceKind: 'PolicyException',
      sourceName: 'apps/check-name',
      exception: {
        name: 'check-name',
        policies: ['check-deployment-name'],
        match: {},
        conditions: [{ name: 'check-name', expression: "object.metadata.name == 'skipped-deployment'" }],
        matchPodTemplates: false,
        reason: 'the deployment predates the naming rule',
        ticket: 'OPS-12',
        expiresAt: '2026-07-01T00:00:00Z',
      },
    })
  })

  it.each([
    ['images: [ghcr.io/acme/*]', /^spec\.images: does not exempt by itself/],
    ['allowedValues: [x]', /^spec\.allowedValues: does not exempt by itself/],
    ['reportResult: pass', 'spec.reportResult: is "pass"; Verdict reports every exempted rule as a skip naming the exception'],
    ['evaluationMode: JSON', 'spec.evaluationMode: is "JSON"; only Kubernetes (admission requests) is imported'],
  ])('refuses %s', (extra, message) => {
    expect(refusal(`${cel}  ${extra}\n`)).toMatch(message)
  })

  it('refuses references to policy kinds Verdict does not import', () => {
    expect(refusal(cel.replace('kind: ValidatingPolicy', 'kind: ImageValidatingPolicy'))).toBe(
      'spec.policyRefs[0].kind: is ImageValidatingPolicy; Verdict imports ValidatingPolicy and NamespacedValidatingPolicy only',
    )
  })

  it('refuses an annotated end that differs from spec.expiresAt', () => {
    const both = cel.replace('  namespace: apps\n', '  namespace: apps\n  annotations: {verdict.dev/expires-at: "2026-08-01T00:00:00Z"}\n')
    expect(refusal(both)).toBe('metadata.annotations.verdict.dev/expires-at: says 2026-08-01T00:00:00Z but spec.expiresAt says 2026-07-01T00:00:00Z; keep one')
  })
})

describe('derivative: rule name patterns once an autogen prefix is read off', () => {
  it.each([
    ['autogen-host-namespaces', 'autogen-', ['host-namespaces']],
    ['host-namespaces', 'autogen-', []],
    ['*', 'autogen-', ['*']],
    ['autogen-*', 'autogen-cronjob-', ['*']],
    ['a*', 'autogen-', ['*']],
    ['*-team', 'autogen-', ['*-team', 'team']],
    ['au?ogen-x*', 'autogen-', ['x*']],
    ['autogen-', 'autogen-', []],
  ])('%s by %s -> %j', (pattern, prefix, expected) => {
    expect(derivative(pattern, prefix).sort()).toEqual([...expected].sort())
  })

  it('matches a name exactly when the pattern matches the prefixed name', () => {
    const names = ['team', 'x-team', 'cronjob-team', 'check-labels', 'teams', 'a', 'autogen-x']
    for (const pattern of ['*-team', '*team*', 'autogen-*', 'autogen-c*', '?utogen-*-team', '*n*', 'autogen-cronjob-*']) {
      for (const prefix of ['autogen-', 'autogen-cronjob-']) {
        const derived = derivative(pattern, prefix)
        for (const name of names) {
          expect(derived.some((rest) => matchesGlob(name, rest)), `${pattern} ${prefix}${name}`).toBe(matchesGlob(`${prefix}${name}`, pattern))
        }
      }
    }
  })
})
