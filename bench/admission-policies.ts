// The admission benchmark's definitions: 50 CEL rules on Pods in five rulesets, one policy each,
// with the actions a platform team mixes (Deny for security and supply chain, Warn for
// resources and probes, Audit for ownership). The benchmark Pod passes the Deny policies and
// misses a few Warn rules, as most requests in a cluster do: allowed, with warnings.

interface BenchRule {
  name: string
  expression: string
}

const containers = (check: string): string => `object.spec.containers.all(c, ${check})`
const allContainers = (check: string): string =>
  `object.spec.containers.all(c, ${check}) && object.spec.?initContainers.orValue([]).all(c, ${check})`

const security: BenchRule[] = [
  { name: 'no-privileged', expression: allContainers('!c.?securityContext.?privileged.orValue(false)') },
  { name: 'no-privilege-escalation', expression: containers('c.?securityContext.?allowPrivilegeEscalation.orValue(true) == false') },
  { name: 'run-as-non-root', expression: 'object.spec.?securityContext.?runAsNonRoot.orValue(false) || ' + containers('c.?securityContext.?runAsNonRoot.orValue(false)') },
  { name: 'drop-all-capabilities', expression: containers("c.?securityContext.?capabilities.?drop.orValue([]).exists(d, d == 'ALL')") },
  { name: 'allowed-capabilities', expression: containers("c.?securityContext.?capabilities.?add.orValue([]).all(a, a in ['NET_BIND_SERVICE'])") },
  { name: 'seccomp', expression: "object.spec.?securityContext.?seccompProfile.?type.orValue('') in ['RuntimeDefault', 'Localhost']" },
  { name: 'no-host-namespaces', expression: '!object.spec.?hostNetwork.orValue(false) && !object.spec.?hostPID.orValue(false) && !object.spec.?hostIPC.orValue(false)' },
  { name: 'no-host-path', expression: 'object.spec.?volumes.orValue([]).all(v, !has(v.hostPath))' },
  { name: 'no-host-ports', expression: containers('c.?ports.orValue([]).all(p, p.?hostPort.orValue(0) == 0)') },
  { name: 'non-root-user', expression: 'object.spec.?securityContext.?runAsUser.orValue(1) != 0 && ' + containers('c.?securityContext.?runAsUser.orValue(1) != 0') },
]

const supplyChain: BenchRule[] = [
  { name: 'no-latest-tag', expression: allContainers("!c.image.endsWith(':latest')") },
  { name: 'tagged-images', expression: allContainers("c.image.contains(':') || c.image.contains('@sha256:')") },
  { name: 'trusted-registry', expression: allContainers("c.image.startsWith('registry.example.com/')") },
  { name: 'no-docker-hub', expression: allContainers("!c.image.startsWith('docker.io/')") },
  { name: 'image-pull-policy', expression: containers("c.?imagePullPolicy.orValue('IfNotPresent') != 'Never'") },
  { name: 'service-account', expression: "object.spec.?serviceAccountName.orValue('default') != 'default'" },
  { name: 'no-automount-default-token', expression: "object.spec.?serviceAccountName.orValue('default') != 'default' || object.spec.?automountServiceAccountToken.orValue(true) == false" },
  { name: 'allowed-volume-types', expression: "object.spec.?volumes.orValue([]).all(v, has(v.emptyDir) || has(v.configMap) || has(v.secret) || has(v.projected) || has(v.persistentVolumeClaim))" },
  { name: 'no-proc-mount', expression: containers("c.?securityContext.?procMount.orValue('Default') == 'Default'") },
  { name: 'sysctls', expression: "object.spec.?securityContext.?sysctls.orValue([]).all(s, s.name.startsWith('net.ipv4.ip_local_port_range'))" },
]

const resources: BenchRule[] = [
  { name: 'memory-limits', expression: containers('has(c.resources) && has(c.resources.limits) && has(c.resources.limits.memory)') },
  { name: 'memory-requests', expression: containers('has(c.resources) && has(c.resources.requests) && has(c.resources.requests.memory)') },
  { name: 'cpu-requests', expression: containers('has(c.resources) && has(c.resources.requests) && has(c.resources.requests.cpu)') },
  { name: 'cpu-limits', expression: containers('has(c.resources) && has(c.resources.limits) && has(c.resources.limits.cpu)') },
  { name: 'memory-at-most-2gi', expression: containers("quantity(c.?resources.?limits.?memory.orValue('0')).compareTo(quantity('2Gi')) <= 0") },
  { name: 'requests-within-limits', expression: containers("!has(c.resources.limits) || !has(c.resources.limits.memory) || quantity(c.?resources.?requests.?memory.orValue('0')).compareTo(quantity(c.resources.limits.memory)) <= 0") },
  { name: 'ephemeral-storage', expression: containers("has(c.resources.limits) && 'ephemeral-storage' in c.resources.limits") },
  { name: 'init-memory-limits', expression: "object.spec.?initContainers.orValue([]).all(c, has(c.resources.limits) && has(c.resources.limits.memory))" },
  { name: 'memory-tmpfs-size', expression: "object.spec.?volumes.orValue([]).all(v, !has(v.emptyDir) || v.emptyDir.?medium.orValue('') != 'Memory' || has(v.emptyDir.sizeLimit))" },
  { name: 'at-most-4-containers', expression: 'size(object.spec.containers) <= 4' },
]

const probes: BenchRule[] = [
  { name: 'readiness-probe', expression: containers('has(c.readinessProbe)') },
  { name: 'liveness-probe', expression: containers('has(c.livenessProbe)') },
  { name: 'startup-probe', expression: containers('has(c.startupProbe) || has(c.livenessProbe)') },
  { name: 'probe-period', expression: containers('c.?readinessProbe.?periodSeconds.orValue(10) >= 5') },
  { name: 'named-ports', expression: containers("c.?ports.orValue([]).all(p, p.?name.orValue('') != '')") },
  { name: 'read-only-root', expression: containers('c.?securityContext.?readOnlyRootFilesystem.orValue(false)') },
  { name: 'no-env-secrets-inline', expression: containers("c.?env.orValue([]).all(e, !e.name.contains('PASSWORD') || has(e.valueFrom))") },
  { name: 'termination-grace', expression: 'object.spec.?terminationGracePeriodSeconds.orValue(30) <= 120' },
  { name: 'dns-policy', expression: "object.spec.?dnsPolicy.orValue('ClusterFirst') in ['ClusterFirst', 'Default']" },
  { name: 'restart-policy', expression: "object.spec.?restartPolicy.orValue('Always') == 'Always'" },
]

const ownership: BenchRule[] = [
  { name: 'part-of-label', expression: "'app.kubernetes.io/part-of' in object.metadata.?labels.orValue({})" },
  { name: 'name-label', expression: "'app.kubernetes.io/name' in object.metadata.?labels.orValue({})" },
  { name: 'team-label', expression: "'team' in object.metadata.?labels.orValue({})" },
  { name: 'cost-center', expression: "'cost-center' in object.metadata.?annotations.orValue({})" },
  { name: 'label-values', expression: "object.metadata.?labels.orValue({}).all(k, size(object.metadata.labels[k]) <= 63)" },
  { name: 'lowercase-name', expression: "object.metadata.name.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')" },
  { name: 'namespace-not-default', expression: "object.metadata.?namespace.orValue('default') != 'default'" },
  { name: 'scrape-annotation', expression: "object.metadata.?annotations.orValue({})[?'prometheus.io/scrape'].orValue('false') in ['true', 'false']" },
  { name: 'container-names', expression: containers("c.name.matches('^[a-z][-a-z0-9]*$')") },
  { name: 'no-owner-tampering', expression: "!('ownerReferences' in object.metadata) || object.metadata.ownerReferences.all(o, o.kind != 'Node')" },
]

export interface BenchDefinitions {
  rulesets: Record<string, { rules: unknown[] }>
  policies: Record<string, { rulesets: string[]; action: 'Deny' | 'Warn' | 'Audit' }>
}

function ruleset(rules: BenchRule[]): { rules: unknown[] } {
  return { rules: rules.map((rule) => ({ name: rule.name, match: { kinds: ['Pod'] }, validate: { cel: [{ expression: rule.expression, message: `${rule.name} failed` }] } })) }
}

export const BENCH_DEFINITIONS: BenchDefinitions = {
  rulesets: {
    'pod-security': ruleset(security),
    'supply-chain': ruleset(supplyChain),
    'pod-resources': ruleset(resources),
    'pod-probes': ruleset(probes),
    'pod-ownership': ruleset(ownership),
  },
  policies: {
    'pod-security': { rulesets: ['pod-security'], action: 'Deny' },
    'supply-chain': { rulesets: ['supply-chain'], action: 'Deny' },
    'pod-resources': { rulesets: ['pod-resources'], action: 'Warn' },
    'pod-probes': { rulesets: ['pod-probes'], action: 'Warn' },
    'pod-ownership': { rulesets: ['pod-ownership'], action: 'Audit' },
  },
}

/** Thirty variables, each made from the one before by `step` (which names it `v`), read by `validation`. */
function doublingRule(name: string, first: string, step: (v: string) => string): unknown {
  const variables = [{ name: 'v0', expression: first }]
  for (let i = 1; i <= 30; i++) variables.push({ name: `v${i}`, expression: step(`variables.v${i - 1}`) })
  return { name, match: { kinds: ['Pod'] }, variables, validate: { cel: [{ expression: 'size(variables.v30) > 0', message: `${name} failed` }] } }
}

/**
 * Rules a careless or hostile author could store, for the benchmark's hostile run: each compiles,
 * and would run for seconds and take a gigabyte without the CEL cost budget; with it, each ends
 * as an error result in the review's audit.
 */
export const HOSTILE_RULES: Readonly<Record<string, { description: string; rule: unknown }>> = {
  doubling: { description: 'a string doubled through 30 variables', rule: doublingRule('hostile-doubling', "'abcdefgh'", (v) => `${v} + ${v}`) },
  'list-doubling': { description: 'a list doubled through 30 variables', rule: doublingRule('hostile-list-doubling', '[1, 2, 3, 4]', (v) => `${v} + ${v}`) },
  nested: {
    description: 'three nested comprehensions of 400 elements',
    rule: {
      name: 'hostile-nested',
      match: { kinds: ['Pod'] },
      validate: { cel: [{ expression: 'lists.range(400).all(a, lists.range(400).all(b, lists.range(400).all(c, a + b + c >= 0)))', message: 'hostile-nested failed' }] },
    },
  },
}

/** The benchmark's definitions with the last ownership rule replaced by a hostile one: still 50 rules. */
export function withHostileRule(kind: string): BenchDefinitions {
  const hostile = HOSTILE_RULES[kind]
  if (!hostile) throw new Error(`unknown hostile rule "${kind}"; one of ${Object.keys(HOSTILE_RULES).join(', ')}`)
  const ownershipRules = (BENCH_DEFINITIONS.rulesets['pod-ownership'] as { rules: unknown[] }).rules
  return {
    rulesets: { ...BENCH_DEFINITIONS.rulesets, 'pod-ownership': { rules: [...ownershipRules.slice(0, -1), hostile.rule] } },
    policies: BENCH_DEFINITIONS.policies,
  }
}
