import { describe, expect, it } from 'vitest'
import { compileInstruction, InstructionNotUnderstoodError } from '../../../src/authoring/compile-instruction.js'
import { proseParametersIn } from '../../../src/authoring/understand/named-parameters-grounded.js'
import { qualifiesAbsence } from '../../../src/authoring/understand/absence-qualifier.js'
import { resolveKubernetesField } from '../../../src/authoring/fields/resolve-kubernetes-field.js'
import { dropsComparison } from '../../../src/authoring/understand/named-comparison.js'
import { notCompiled, verdictsOf } from './reading.js'
import { unusedLiterals } from '../../../src/authoring/understand/coverage.js'
import { enumWordsOf } from '../../../src/authoring/understand/enum-words.js'

/** The sentences of a refused instruction that were not compiled, with why. */
const refusalWith = (instruction: string, labels: Record<string, string>): string[] => notCompiled(instruction, labels).map((sentence) => `${sentence.text} => ${sentence.became}`)

const refusal = (instruction: string): string[] => refusalWith(instruction, {})

/** The verdict of an instruction's ruleset on a document. */
const judgedWith = (instruction: string, labels: Record<string, string>, document: unknown): boolean => verdictsOf(instruction, labels, [document])[0] ?? false

describe('safety checks: what a reading leaves unused refuses the request', () => {
  it('a sentence read as a restatement that writes a bound no rule uses refuses', () => {
    expect(refusal('Every container must declare a memory limit, and cannot be more than 3Gi.')).toEqual([
      'cannot be more than 3Gi. => not compiled: it writes "3Gi", which no rule read from the instruction uses; which field must it be checked against, and how?',
    ])
  })

  it('a named rule whose message gives an example does not cover a bound the author wrote', () => {
    expect(refusal('Every container must declare a cpu request; be at least 100m.')).toHaveLength(1)
  })

  it('a named rule never takes an English word as its field', () => {
    expect(proseParametersIn({ platform: 'generic' }, { field: 'be', minimum: 100 }, 'be at least 100')).toEqual(['be'])
    expect(proseParametersIn({ platform: 'generic' }, { fields: ['server.port', 'use'] }, 'server.port and use')).toEqual(['use'])
    expect(proseParametersIn({ platform: 'generic' }, { field: 'replicas', whenField: 'environment' }, '')).toEqual([])
    // A platform template's own field choice ("limits" of a container's resources) is not a key taken from the text.
    expect(proseParametersIn({ platform: 'kubernetes' }, { resources: ['memory'], fields: ['limits'] }, 'memory limits')).toEqual([])
  })

  it('a named rule never takes an English word as a key or value, unless the author quoted it', () => {
    expect(proseParametersIn({ platform: 'kubernetes' }, { allowed: ['defines'] }, 'A Pod defines the priorityClassName field with some value')).toEqual(['defines'])
    expect(proseParametersIn({ platform: 'kubernetes' }, { keys: ['list'] }, 'Rather than creating a deny list of annotations')).toEqual(['list'])
    expect(proseParametersIn({ platform: 'generic' }, { field: 'protected-mode', value: 'no' }, 'protected-mode must not be "no"')).toEqual([])
    // Read from a description, "with some value" asks for the field to be set, never for the class `defines`.
    expect(compileInstruction('Require Pod priorityClassName. This policy requires that a Pod defines the priorityClassName field with some value.', { platform: 'kubernetes', resource: 'Pod' }).spec.rules.map((rule) => rule.description)).toEqual([
      'For Pod objects, `spec.priorityClassName` must be set.',
    ])
  })

  it('a named rule never checks a constant the text does not write, unless the text names the standard that says it', () => {
    // The restricted control also limits what may be added back (NET_BIND_SERVICE): the sentence asks only for drop ALL.
    const dropAll = compileInstructionOrRefusal('All containers must explicitly specify the `drop: ["ALL"]` ability.')
    expect(dropAll).not.toContain('NET_BIND_SERVICE')
    expect(compileInstructionOrRefusal('Containers must drop ALL capabilities, as Pod Security restricted requires.')).toContain('NET_BIND_SERVICE')
    // The baseline sysctl control allows only the safe set; the sentence is about the values' characters.
    expect(compileInstructionOrRefusal('Disallow sysctl settings with + or = in their value.')).not.toContain('kernel.shm_rmid_forced')
  })
})

describe('safety checks: a published description', () => {
  const labels = { platform: 'kubernetes', resource: 'Pod' }
  const refusedParts = (instruction: string, given: Record<string, string> = labels): string[] => {
    try {
      compileInstruction(instruction, given)
    } catch (error) {
      if (!(error instanceof InstructionNotUnderstoodError)) throw error
      return error.clauses.map((clause) => clause.text)
    }
    throw new Error(`compiled: ${instruction}`)
  }

  it('a part of the operative sentence read as stating nothing refuses, naming it', () => {
    expect(refusedParts('Version Label. This policy illustrates how to ensure a label with key `corp.org/version` is present, in this case ensuring semver is met.')).toEqual(['in this case ensuring semver is met.'])
  })

  it('a condition that cannot be read refuses; it is never dropped, by the structural reader or the catalog', () => {
    const sentence = 'For any Pod wearing the blue hat, it must have the label `allow-docker` set to `true`.'
    expect(refusedParts(`Socket Label. This policy requires that, ${sentence.charAt(0).toLowerCase()}${sentence.slice(1)}`)).toEqual([sentence])
    expect(() => compileInstruction('When a Deployment feels important, it must have the label `tier` set to `gold`.', { platform: 'kubernetes' })).toThrow(/applies only "a Deployment feels important"/)
  })

  it('a kind the requirement names as its subject and no rule judges refuses', () => {
    expect(() => compileInstruction('Require a class. This policy requires that Services and Ingresses define the externalTrafficPolicy field with some value.', { platform: 'kubernetes', resource: 'Service' })).toThrow(/Ingress/)
  })

  it('a named rule that never reads a field the clause names refuses', () => {
    // A condition of two alternatives is not negated as one statement (flagged-when.ts): the sentence goes to the catalog, whose rule ignores externalName.
    expect(() => compileInstruction('Localhost Services. This policy audits Services of type ExternalName if the externalName field refers to localhost or to a loopback address.', { platform: 'kubernetes', resource: 'Service' })).toThrow(InstructionNotUnderstoodError)
  })

  it('forbidding a field outright, when the sentence forbids it only with a narrowing, refuses', () => {
    // The characters named in words, not written: the narrowing cannot be read (written ones are, see list-element-readings.test.ts).
    expect(() => compileInstruction('Disallow sysctl settings with odd symbols in their value.', labels)).toThrow(/forbids only what is "with odd symbols in their value"/)
  })

  it('a negation inside a "when" clause does not invert the named rule', () => {
    expect(compileInstruction('This policy validates the imagePullPolicy is set to `Always` when the `latest` tag is specified explicitly or where a tag is not defined at all.', labels).spec.rules.map((rule) => rule.name)).toEqual(['image-pull-policy-always-for-latest'])
  })

  it('forbidding one way a pod uses a Secret, when the sentence forbids them all, refuses naming the others; "the use of all Secrets" forbids every way', () => {
    expect(() => compileInstruction('Pods must not use secret volumes.', labels)).toThrow(/env\[\]\.valueFrom\.secretKeyRef/)
    expect(compileInstruction('Disallow the use of all Secrets in Pods.', labels).spec.rules.map((rule) => rule.description)).toEqual([
      'In every container (init and ephemeral included) of a Pod, `env[].valueFrom.secretKeyRef`, `envFrom[].secretRef`, `spec.volumes[].projected.sources[].secret` and `spec.volumes[].secret` must not be set.',
    ])
  })

  it('"X requests and limits" asks for X in both maps, not for any limit', () => {
    expect(compileInstruction('Containers must have ephemeral-storage requests and limits set.', labels).spec.rules.map((rule) => rule.description)).toEqual([
      'In every container and init container of a Pod, `resources.requests.ephemeral-storage` and `resources.limits.ephemeral-storage` must be set.',
    ])
  })

  it('bounds on both of two fields Kubernetes never sets together each hold when their field is set', () => {
    const descriptions = compileInstruction('PodDisruptionBudget minAvailable should be no higher than 50% and maxUnavailable should be no lower than 50%.', { platform: 'kubernetes' }).spec.rules.map((rule) => rule.description)
    expect(descriptions).toEqual([
      'For PodDisruptionBudget objects, `spec.minAvailable` must be at most 50% (unset is accepted).',
      'For PodDisruptionBudget objects, `spec.maxUnavailable` must be at least 50% (unset is accepted).',
    ])
  })

  it('a condition comparing an object field with a single value can never hold, and refuses', () => {
    expect(() => compileInstruction('Docker. This policy requires that, for any Pod with a hostPath volume whose path is `/var/run/docker.sock`, it must have the label `allow-docker` set to `true`.', { platform: 'kubernetes' })).toThrow(/which field inside it is meant/)
  })

  it('a requirement that the kind be the kind judged checks nothing and refuses', () => {
    expect(() => compileInstruction('Require QoS Guaranteed. This policy requires that all containers within a Pod run with this definition resulting in a guaranteed QoS.', labels)).toThrow(InstructionNotUnderstoodError)
  })
})

/** The CEL of the rules an instruction compiles to, or "refused". */
function compileInstructionOrRefusal(instruction: string): string {
  try {
    return compileInstruction(instruction, { platform: 'kubernetes', resource: 'Pod' }).spec.rules.map((rule) => JSON.stringify(rule.validate)).join('\n')
  } catch (error) {
    if (error instanceof InstructionNotUnderstoodError) return 'refused'
    throw error
  }
}

describe('what an absent field means, as the author says it', () => {
  const statements = (instruction: string): string[] => compileInstruction(instruction).spec.rules.map((rule) => rule.description ?? rule.name)

  it('a named rule that rejects the absent field never reads a clause that lets it pass', () => {
    expect(qualifiesAbsence('seccomp is unset or set to `RuntimeDefault`')).toBe(true)
    expect(qualifiesAbsence('the field, if present, must be false')).toBe(true)
    expect(qualifiesAbsence('seccomp must be set to `RuntimeDefault`')).toBe(false)
    // Read by the restricted seccomp control, an unset profile would fail; the structural reading lets it pass, as the clause says.
    expect(statements('Make sure seccomp is unset or set to `RuntimeDefault`.')).toEqual(['In every container (init and ephemeral included), `securityContext.seccompProfile.type` must be "RuntimeDefault" (unset is accepted).'])
  })

  it('"if a kind specifies the field it must ..." lets an absent field pass', () => {
    expect(statements('If a Deployment specifies the progressDeadlineSeconds field it must be at least 60.')).toEqual(['For Deployment objects, `spec.progressDeadlineSeconds` must be at least 60 (unset is accepted).'])
  })

  it('"either unset or set to a number greater than zero" is a bound that absence passes', () => {
    expect(statements('`runAsGroup` is either unset or set to a number greater than zero.')).toEqual(['In every container (init and ephemeral included), `securityContext.runAsGroup` must be greater than zero (unset is accepted).'])
  })

  it('"no lower than" is a lower bound', () => {
    expect(statements('Deployment replicas must not be lower than 2.')).toEqual(['For Deployment objects, `spec.replicas` must be at least 2 (unset fails).'])
    expect(statements('PodDisruptionBudget maxUnavailable must be no lower than 1.')).toEqual(['For PodDisruptionBudget objects, `spec.maxUnavailable` must be at least 1 (unset fails).'])
  })
})

describe('namesakes: the field the words name, not one that shares a word', () => {
  const statements = (instruction: string): string[] => compileInstruction(instruction).spec.rules.map((rule) => rule.description ?? rule.name)

  it('"ephemeral containers" is spec.ephemeralContainers, whose name covers both words, not a volume\'s ephemeral', () => {
    expect(statements('Ephemeral containers must not be used.')).toEqual(['`spec.ephemeralContainers` must not be set.'])
  })

  it('a capitalized word is a value, never a field it matches case-insensitively', () => {
    expect(resolveKubernetesField('Service', '`NodePort`')).toEqual([])
    expect(resolveKubernetesField('Pod', '`Localhost`')).toEqual([])
    expect(resolveKubernetesField('Service', 'nodePort').map((field) => field.path)).toEqual(['spec.ports[].nodePort'])
  })
})

describe('a comparison is never dropped', () => {
  it('a named rule that only asks for fields to be set does not read a clause that compares them', () => {
    const setOnly = { name: 'set', validate: { cel: [{ expression: "object.spec.containers.all(c, c.?resources.?limits[?'memory'].hasValue())" }] } }
    const compares = { name: 'bound', validate: { cel: [{ expression: 'object.spec.replicas >= 2' }] } }
    expect(dropsComparison('memory requests equal to limits', [setOnly])).toBe(true)
    expect(dropsComparison('replicas at least 2', [compares])).toBe(false)
    expect(dropsComparison('memory limits must be set', [setOnly])).toBe(false)
    // "one of" several fields read by a named rule that asks for all of them.
    expect(dropsComparison('each container defines one of livenessProbe or readinessProbe', [setOnly])).toBe(true)
  })

  it('a map or list compared with another field refuses, asking which single value is meant', () => {
    expect(refusal('Every container must have memory requests equal to its resources.')).toEqual([
      'Every container must have memory requests equal to its resources. => not compiled: it compares `resources`, a map of values, with another field; which single value of it must be compared, and with which?',
    ])
    expect(refusal('Every container must have a memory request greater than its ports.')).toEqual([
      'Every container must have a memory request greater than its ports. => not compiled: it compares `ports`, a list, with another field; which single value of it must be compared, and with which?',
    ])
  })
})

describe('a rule that would reject every object', () => {
  it('forbidding a field every object of the kind has refuses, asking what inside it is meant', () => {
    expect(refusal('Pods must not set `spec.containers`.')).toEqual([
      'Pods must not set `spec.containers`. => not compiled: it forbids `spec.containers`, which every Pod has, so it would reject everything; what inside `spec.containers` is forbidden?',
    ])
  })

  it('forbidding the very kind a rule judges refuses', () => {
    expect(refusal('Containers in a Pod are forbidden from defining CPU limits.')).toEqual([
      'Containers in a Pod are forbidden from defining CPU limits. => not compiled: it forbids the kind Pod itself, so it would reject everything it judges; what of a Pod is forbidden?',
    ])
  })
})

describe('safety checks: Terraform attributes come from the providers\' schemas', () => {
  const refusalFor = (instruction: string, resource: string): string[] => refusalWith(instruction, { platform: 'terraform', resource })

  it('a name made from the words of a sentence that no attribute of the type has refuses, naming it', () => {
    expect(refusalFor('Lambda functions need memory_size of at least 256. Separately, duration allowed must be at most 60.', 'aws_lambda_function')).toEqual([
      "Separately, duration allowed must be at most 60. => not compiled: `duration_allowed` is not an attribute of aws_lambda_function in the providers' schemas; which attribute is meant? write its name, e.g. `architectures`",
    ])
  })

  it('attributes a sentence names are never dropped as saying nothing', () => {
    expect(refusalFor('RDS instances must have storage_encrypted = true. Also multi_az and deletion_protection both on.', 'aws_db_instance')).toEqual([
      'Also multi_az and deletion_protection both on. => not compiled: it names `multi_az`, `deletion_protection`, fields of aws_db_instance, and no rule read from the instruction reads them; what must each be?',
    ])
  })

  it('"no exceptions" insists on the requirements and adds no rule', () => {
    const ruleset = compileInstruction('EBS volumes need encrypted = true. No exceptions, not even for test volumes.', { platform: 'terraform', resource: 'aws_ebs_volume' })
    expect(ruleset.spec.rules.map((rule) => rule.description)).toEqual(['For every aws_ebs_volume resource, `encrypted` must be true (unset fails).'])
  })
})

describe('safety checks: a restatement names no field of its own', () => {
  it('a sentence read as restating the others that writes a field name no rule reads refuses', () => {
    expect(refusal('Every Pod must set spec.priorityClassName. Remember spec.preemptionPolicy as well.')).toHaveLength(1)
  })
})

describe('entries a list of strings must not hold', () => {
  const role = (kind: string, rules: unknown[]): unknown => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind, metadata: { name: 'r', namespace: 'apps' }, rules })
  const judges = judgedWith

  it('"these resources" are the entries the one other sentence naming resources lists, in every kind the sentence names', () => {
    const instruction = 'The resources `pods/exec` and `pods/attach` let a user run commands in containers. This policy blocks any Role or ClusterRole that grants these resources.'
    const labels = { platform: 'kubernetes', resource: 'Role' }
    expect(compileInstruction(instruction, labels).spec.rules.map((rule) => rule.description)).toEqual(['For Role, ClusterRole objects, `rules[].resources` must not include "pods/exec" or "pods/attach" (unset is accepted).'])
    expect(judges(instruction, labels, role('ClusterRole', [{ apiGroups: [''], resources: ['pods', 'pods/exec'], verbs: ['create'] }]))).toBe(false)
    expect(judges(instruction, labels, role('Role', [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]))).toBe(true)
  })

  it('a wildcard entry is an entry holding *', () => {
    const instruction = 'No Role may list a wildcard among its apiGroups.'
    const labels = { platform: 'kubernetes', resource: 'Role' }
    expect(judges(instruction, labels, role('Role', [{ apiGroups: ['*'], resources: ['pods'], verbs: ['get'] }]))).toBe(false)
    expect(judges(instruction, labels, role('Role', [{ apiGroups: ['apps'], resources: ['*'], verbs: ['get'] }]))).toBe(true)
  })

  it('a command named in an exec probe is a word inside one of its command lines', () => {
    const instruction = 'This policy blocks the commands `curl` or `wget` in a readiness exec probe.'
    const labels = { platform: 'kubernetes', resource: 'Pod' }
    const pod = (command: string[]): unknown => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx', readinessProbe: { exec: { command } } }] } })
    expect(judges(instruction, labels, pod(['/bin/sh', '-c', 'curl -f localhost:8080']))).toBe(false)
    expect(judges(instruction, labels, pod(['/bin/sh', '-c', 'test -f /tmp/curly-ready']))).toBe(true)
  })
})

describe('what a ban is about', () => {
  const judges = judgedWith

  it('"keeps X from defining Y" bans Y in X, not X', () => {
    const instruction = 'This policy forbids every container in a Pod from defining memory limits.'
    expect(compileInstruction(instruction, { platform: 'kubernetes', resource: 'Pod' }).spec.rules.map((rule) => rule.description)).toEqual(['In every container and init container of a Pod, `resources.limits.memory` must not be set.'])
  })

  it('a key prefix banned holds for every key of the map, on any kind when the sentence names none', () => {
    const instruction = 'This policy blocks any label beginning with `legacy.acme.io/`.'
    const labels = { platform: 'kubernetes', resource: 'Deployment' }
    const object = (kind: string, keys: string[]): unknown => ({ apiVersion: 'v1', kind, metadata: { name: 'x', labels: Object.fromEntries(keys.map((key) => [key, 'v'])) } })
    expect(judges(instruction, labels, object('ConfigMap', ['app', 'legacy.acme.io/team']))).toBe(false)
    expect(judges(instruction, labels, object('Deployment', ['app', 'acme.io/legacy']))).toBe(true)
  })
})

describe('what alone is permitted, and lists of objects compared with a value', () => {
  const SERVICE = { platform: 'kubernetes', resource: 'Service' }
  const described = (instruction: string): Array<string | undefined> => compileInstruction(instruction, SERVICE).spec.rules.map((rule) => rule.description)

  it('"only X may be used" requires X of the field its words name', () => {
    expect(described('Only the port range 30500 to 30600 may be used for Service resources.')).toEqual(['For Service objects, `spec.ports[].port` must be at least 30500 and must be at most 30600 (unset fails).'])
    expect(described('Only the session affinity `ClientIP` may be used for Service resources.')).toEqual(['For Service objects, `spec.sessionAffinity` must be "ClientIP" (unset fails).'])
  })

  it('a list of objects compared with a number is its elements\' namesake field, never the list', () => {
    expect(described('Service ports must be at least 1024.')).toEqual(['For Service objects, `spec.ports[].port` must be at least 1024 (unset fails).'])
  })

  it('a generic document\'s named rules never read a labelled Kubernetes kind', () => {
    expect(described('The port must be between 30500 and 30600.')).toEqual(['For Service objects, `spec.ports[].port` must be at least 30500 and must be at most 30600 (unset fails).'])
  })
})

describe('values the schema rules out', () => {
  const refused = (instruction: string, resource: string): string[] => refusalWith(instruction, { platform: 'kubernetes', resource })

  it('a field whose schema lists its values is compared only with one of them, by the structural reader and by a named rule', () => {
    expect(refused('imagePullPolicy has to be spelled out on every container.', 'Pod')).toEqual([
      'imagePullPolicy has to be spelled out on every container. => not compiled: "spelled" is not a value `imagePullPolicy` can take (Always, IfNotPresent, Never); which of `Always`, `IfNotPresent`, `Never` is meant?',
    ])
  })

  it('a text field is never compared with a number', () => {
    expect(refused('Deployments must have a namespace of at least 2.', 'Deployment')).toEqual([
      'Deployments must have a namespace of at least 2. => not compiled: it compares `metadata.namespace`, which holds text, with a number; which numeric field is meant?',
    ])
  })

  it('a field is never its own value, and a named rule never drops a field the clause names', () => {
    expect(refused('Any Service of type LoadBalancer has to list loadBalancerSourceRanges.', 'Service')).toHaveLength(1)
  })
})

describe('keys and fields a document without a schema has only where written', () => {
  const refused = (instruction: string): string[] => refusalWith(instruction, { platform: 'generic', resource: 'config' })

  it('a ban of a word never written as a key refuses', () => {
    expect(refused('`version` must be semver. No wildcards.')).toEqual([
      'No wildcards. => not compiled: it bans `wildcards`, a word of the sentence, not a key written as one; which key must not be set? write it in backticks, e.g. `wildcards`',
    ])
  })

  it('a word between two code spans is prose, not code', () => {
    expect(refused('`uses` must be set, e.g. `actions/checkout@v4`. Plain `branch` refs are not enough, see `docs/pins.md`.').join('\n')).toMatch(/"enough" is a word of the sentence/)
  })

  it('a URL scheme written before // is not a key written as one', () => {
    expect(refused('`image` must be set. Docker images are not allowed (`docker://...`).').join('\n')).toMatch(/a word of the sentence, not a key written as one/)
  })

  it('a field a requirement sentence names and no rule reads refuses', () => {
    expect(refused('cache.ttl must be at most 600 and at least as long as cache.refresh_interval allows.').join('\n')).toMatch(/refresh_interval/)
  })

  it('the pieces of a URL are neither keys nor values', () => {
    expect(refused('endpoint has to be an s3:// URL.').join('\n')).toMatch(/"\/\/"|endpoint/)
  })
})

describe('a comparison keeps its direction', () => {
  it('"must not be greater than" another field is at most it', () => {
    expect(compileInstruction('pool.min must not be greater than pool.max.', { platform: 'generic', resource: 'config' }).spec.rules.map((rule) => rule.description)).toEqual(['`pool.min` must be at most `pool.max` (unset fails).'])
  })
})

describe('two fields compared', () => {
  const judges = (instruction: string, document: unknown): boolean => judgedWith(instruction, { platform: 'kubernetes', resource: 'Pod' }, document)
  const pod = (container: Record<string, unknown>): unknown => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx', ...container }] } })

  it('the other side naming a map takes the key the first side gave ("cpu requests equal to limits")', () => {
    const instruction = 'All containers in a Pod must have cpu requests equal to limits.'
    expect(judges(instruction, pod({ resources: { requests: { cpu: '500m' }, limits: { cpu: '0.5' } } }))).toBe(true)
    expect(judges(instruction, pod({ resources: { requests: { cpu: '250m' }, limits: { cpu: '1' } } }))).toBe(false)
  })

  it('two objects named together "must not be equal" are compared whole', () => {
    const instruction = 'Startup and liveness probes must not be equal.'
    const probe = (period: number): unknown => ({ httpGet: { path: '/healthz', port: 8080 }, periodSeconds: period })
    expect(judges(instruction, pod({ startupProbe: probe(5), livenessProbe: probe(10) }))).toBe(true)
    expect(judges(instruction, pod({ startupProbe: probe(10), livenessProbe: probe(10) }))).toBe(false)
  })
})

describe('several kinds named as the subject', () => {
  it('the requirement holds for each kind on its own namesake field, or the sentence is refused', () => {
    const ruleset = compileInstruction('PVCs and StatefulSets must define the storageClassName field with some value.', { platform: 'kubernetes', resource: 'PersistentVolumeClaim' })
    expect(ruleset.spec.rules.map((rule) => rule.description)).toEqual(['For PersistentVolumeClaim objects, `spec.storageClassName` must be set.', 'For StatefulSet objects, `spec.volumeClaimTemplates[].spec.storageClassName` must be set.'])
    expect(refusal('Services and Deployments must define the externalTrafficPolicy field.')).toEqual([
      'Services, Deployments must define the externalTrafficPolicy field. => not compiled: it judges Deployment too, which has no `spec.externalTrafficPolicy`, so every Deployment would fail; which field of a Deployment is meant?',
    ])
  })
})

describe('a narrowing keeps what it writes', () => {
  it('a scope that drops its number refuses instead of narrowing by something else', () => {
    const refusedWith = (instruction: string): string[] => refusalWith(instruction, { platform: 'kubernetes', resource: 'Deployment' }).map((line) => line.slice(0, line.indexOf(' => ')))
    // "ready replicas" names no field: the number would be dropped (with "replicas" alone it is read, see spread-and-skips.test.ts).
    expect(refusedWith('topologySpreadConstraints must be defined. Deployments with fewer than 3 ready replicas are exempt.')).toEqual(['Deployments with fewer than 3 ready replicas are exempt.'])
  })

  it('what the platform defaults a field to is not a bound', () => {
    const ruleset = compileInstruction('Every Job needs backoffLimit at most 4. Kubernetes defaults backoffLimit to 6, so leaving it unset fails.', { platform: 'kubernetes', resource: 'Job' })
    expect(ruleset.spec.rules.map((rule) => rule.description)).toEqual(['For Job objects, `spec.backoffLimit` must be at most 4 (unset fails).'])
  })
})

describe('a value only a field can take counts, written unquoted', () => {
  const podWords = enumWordsOf({ platform: 'kubernetes', kinds: ['Pod'] })

  it('a reading that drops such a word leaves it unused', () => {
    expect(unusedLiterals('No container may set its procMount to Unmasked.', [], podWords)).toEqual(['Unmasked'])
    expect(unusedLiterals('Pods must never use a toleration with operator Exists.', ['tolerations', 'operator'], podWords)).toEqual(['Exists'])
  })

  it('the same word opening a sentence, or stating the default, is no value', () => {
    expect(unusedLiterals('Always set a pull policy.', [], podWords)).toEqual([])
    expect(unusedLiterals('Set the pull policy explicitly, the default is Always.', [], podWords)).toEqual([])
  })
})

describe('an element described by what it has and lacks', () => {
  const pod = { platform: 'kubernetes', resource: 'Pod' }
  const withTolerations = (tolerations: unknown[]): unknown => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'apps' }, spec: { tolerations, containers: [{ name: 'c', image: 'nginx:1.27' }] } })

  it('a forbidden element is forbidden with every field the text gives it, including the one it lacks', () => {
    const instruction = 'No pod may carry a toleration with operator Exists and without a key.'
    expect(judgedWith(instruction, pod, withTolerations([{ operator: 'Exists' }]))).toBe(false)
    expect(judgedWith(instruction, pod, withTolerations([{ key: 'gpu', operator: 'Exists' }]))).toBe(true)
    expect(judgedWith(instruction, pod, withTolerations([]))).toBe(true)
  })

  it('a part of the description that is not a field and value refuses instead of being dropped', () => {
    expect(refusalWith('Pods must have a toleration with key `gpu` and something sensible.', pod)).toHaveLength(1)
  })

  it('a remark in parentheses that lists fields says which elements the words before it mean', () => {
    const instruction = 'Pods must not use a wildcard toleration (operator: Exists without a key).'
    expect(judgedWith(instruction, pod, withTolerations([{ operator: 'Exists' }]))).toBe(false)
    expect(judgedWith(instruction, pod, withTolerations([{ key: 'a', operator: 'Exists' }]))).toBe(true)
  })
})

describe('only some may: everything else must not', () => {
  const pod = { platform: 'kubernetes', resource: 'Pod' }
  const inNamespace = (namespace: string): unknown => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace }, spec: { hostNetwork: true, containers: [{ name: 'c', image: 'nginx:1.27' }] } })

  it('the scope the sentence names exempts from the ban it implies', () => {
    const instruction = 'Only pods in the infra-net namespace may use hostNetwork.'
    expect(judgedWith(instruction, pod, inNamespace('infra-net'))).toBe(true)
    expect(judgedWith(instruction, pod, inNamespace('shop'))).toBe(false)
  })

  it('a scope whose words were not read refuses, rather than banning everyone', () => {
    expect(refusalWith('Only pods run by the platform team may use hostNetwork.', pod)).toEqual([
      'Only pods run by the platform team may use hostNetwork. => not compiled: it permits only what is "run by platform team", and which documents those are was not read, so everything else cannot be told apart; which field and value (a namespace written as one, a label) decide it?',
    ])
  })
})

describe('what absence means, and what is not needed, asks for nothing', () => {
  const secret = { platform: 'kubernetes', resource: 'Secret' }
  const withLabels = (type: string, labels: Record<string, string>): unknown => ({ apiVersion: 'v1', kind: 'Secret', type, metadata: { name: 's', namespace: 'prod', labels } })

  it('a definition of an absent value is no ban of the field', () => {
    const instruction = 'Every alert rule needs `for` of at least 5m; no `for` means it fires at once.'
    expect(judgedWith(instruction, { platform: 'generic', resource: 'alert-rule' }, { alert: 'x', for: '10m' })).toBe(true)
    expect(judgedWith(instruction, { platform: 'generic', resource: 'alert-rule' }, { alert: 'x' })).toBe(false)
  })

  it('"does not need the label" never becomes a requirement of the label', () => {
    expect(() => compileInstruction('Secrets of type `kubernetes.io/tls` do not need the label `owner`.', secret)).toThrow(InstructionNotUnderstoodError)
  })

  it('a namespace named before its clause scopes it', () => {
    const instruction = 'In the prod namespace, secrets must carry the label `owner`.'
    expect(judgedWith(instruction, secret, withLabels('Opaque', {}))).toBe(false)
    expect(judgedWith(instruction, secret, { ...(withLabels('Opaque', {}) as object), metadata: { name: 's', namespace: 'dev' } })).toBe(true)
  })

  it('a compound number ("a 40-character SHA") is a bound coverage counts', () => {
    expect(unusedLiterals('must reference a full 40-character commit SHA', [])).toEqual(['40'])
  })
})

describe('a custom resource Verdict has no schema for', () => {
  const application = { platform: 'kubernetes', resource: 'Application' }

  it('is judged on the paths the text writes', () => {
    const instruction = 'Every Application must set spec.project, and spec.project must not be `default`.'
    expect(judgedWith(instruction, application, { apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', metadata: { name: 'a' }, spec: { project: 'team-a' } })).toBe(true)
    expect(judgedWith(instruction, application, { apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', metadata: { name: 'a' }, spec: { project: 'default' } })).toBe(false)
    expect(judgedWith(instruction, application, { apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', metadata: { name: 'a' }, spec: {} })).toBe(false)
  })

  it('is never read against a Pod schema from words', () => {
    expect(() => compileInstruction('Applications must not have privileged containers.', application)).toThrow(InstructionNotUnderstoodError)
    expect(() => compileInstruction('Every Application must use a project other than `default`.', application)).toThrow(InstructionNotUnderstoodError)
  })
})

describe('label and annotation values', () => {
  const withAnnotations = (kind: string, annotations: Record<string, string> | undefined, spec: Record<string, unknown> = {}): unknown => ({ apiVersion: 'v1', kind, metadata: { name: 'x', ...(annotations ? { annotations } : {}) }, spec })

  it('are the text written, never a switch or another key', () => {
    const deployment = { platform: 'kubernetes', resource: 'Deployment' }
    const instruction = 'Deployments must set the annotation `mesh.example.com/inject` to `enabled`.'
    expect(judgedWith(instruction, deployment, withAnnotations('Deployment', { 'mesh.example.com/inject': 'enabled' }))).toBe(true)
    expect(judgedWith(instruction, deployment, withAnnotations('Deployment', { 'mesh.example.com/inject': 'disabled' }))).toBe(false)
    const service = { platform: 'kubernetes', resource: 'Service' }
    const withValue = 'Services must carry the annotation `lb.example.com/internal` with the value `true`.'
    expect(judgedWith(withValue, service, withAnnotations('Service', { 'lb.example.com/internal': 'true' }))).toBe(true)
    expect(judgedWith(withValue, service, withAnnotations('Service', undefined))).toBe(false)
  })

  it('forbidden when the sentence forbids setting them to it', () => {
    const pod = { platform: 'kubernetes', resource: 'Pod' }
    const instruction = 'Pods must not set the annotation `mesh.example.com/inject` to `false`.'
    expect(judgedWith(instruction, pod, withAnnotations('Pod', { 'mesh.example.com/inject': 'false' }))).toBe(false)
    expect(judgedWith(instruction, pod, withAnnotations('Pod', { 'mesh.example.com/inject': 'true' }))).toBe(true)
    expect(judgedWith(instruction, pod, withAnnotations('Pod', undefined))).toBe(true)
    expect(judgedWith('Namespaces must not turn it off by setting the label `mesh-injection` to `disabled`.', { platform: 'kubernetes', resource: 'Namespace' }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n', labels: { 'mesh-injection': 'enabled' } } })).toBe(true)
  })

  it('judged only where set, when the subject is what sets them', () => {
    const instruction = 'This policy ensures that Pods which set the annotation `autoscaler.example.com/evict` set it to `true`.'
    const pod = { platform: 'kubernetes', resource: 'Pod' }
    expect(judgedWith(instruction, pod, withAnnotations('Pod', undefined))).toBe(true)
    expect(judgedWith(instruction, pod, withAnnotations('Pod', { 'autoscaler.example.com/evict': 'false' }))).toBe(false)
  })
})

describe('what a named rule or a bound covers', () => {
  const pod = { platform: 'kubernetes', resource: 'Pod' }

  it('a sentence about init containers only is never read as a named rule over every container', () => {
    expect(() => compileInstruction('This policy ensures that init containers do not run as root.', pod)).toThrow(InstructionNotUnderstoodError)
  })

  it('an upper bound on how many entries a list holds lets an absent list through', () => {
    const instruction = 'This policy requires that Pods mount no more than 3 volumes.'
    expect(judgedWith(instruction, pod, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [] } })).toBe(true)
    expect(judgedWith(instruction, pod, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [], volumes: [{ name: 'a' }, { name: 'b' }, { name: 'c' }, { name: 'd' }] } })).toBe(false)
  })
})

describe('namespaces said in words', () => {
  it('a scope of namespaces no name was read from refuses, never dropped', () => {
    expect(refusalWith('Deployments in production namespaces must have at least 2 replicas.', { platform: 'kubernetes', resource: 'Deployment' })).toHaveLength(1)
  })

  it('a remark that says which namespaces they are lets the scope be read', () => {
    const instruction = 'In regulated namespaces (any namespace whose name starts with `pci-`), every container must set resources.limits.memory.'
    const pod = (namespace: string): unknown => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace }, spec: { containers: [{ name: 'c', image: 'x:1' }] } })
    expect(judgedWith(instruction, { platform: 'kubernetes', resource: 'Pod' }, pod('pci-cards'))).toBe(false)
    expect(judgedWith(instruction, { platform: 'kubernetes', resource: 'Pod' }, pod('shop'))).toBe(true)
  })
})

describe('scopes no field was read for', () => {
  it('a stage of delivery said in words refuses rather than holding everywhere', () => {
    expect(refusalWith('Verbose tracing must be off in production.', { platform: 'generic', resource: 'app-config' })).toEqual([
      'Verbose tracing must be off in production. => not compiled: it applies only "in production", and no field and value for that scope can be found; which field and value decide it (a namespace written as one, a label, `environment: production`)?',
    ])
  })

  it('a condition after a comma belongs to its clause, never a sentence of its own to drop', () => {
    expect(refusalWith('The `timeout` must be at most 60s, unless the workload is slow.', { platform: 'generic', resource: 'service-config' })).toHaveLength(1)
  })
})

describe('named rules that judge something else', () => {
  it('a named rule for other resource types than the labels name is not taken', () => {
    expect(() => compileInstruction('Buckets must block public access.', { platform: 'terraform', resource: 'google_storage_bucket' })).toThrow(InstructionNotUnderstoodError)
  })

  it('a bound is never read by a named rule that only tests one value', () => {
    const instruction = 'This policy requires that containers expose no more than 2 ports.'
    const pod = (ports: number[]): unknown => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'x:1', ports: ports.map((containerPort) => ({ containerPort })) }] } })
    expect(judgedWith(instruction, { platform: 'kubernetes', resource: 'Pod' }, pod([2, 80]))).toBe(true)
    expect(judgedWith(instruction, { platform: 'kubernetes', resource: 'Pod' }, pod([80, 81, 82]))).toBe(false)
  })
})

describe('values written inside words', () => {
  it('a name carrying a version or size ("python3.8", "t2.micro") is a value coverage counts', () => {
    expect(unusedLiterals('Functions must not use the python3.8 runtime.', ['runtime'])).toEqual(['python3.8'])
    expect(unusedLiterals('Images need a semver tag like v1.4.2.', [])).toEqual([])
  })

  it('"`x` as a version" is a value of what the noun names, never a key', () => {
    expect(refusalWith('Dependencies must not use `latest` as a version.', { platform: 'generic', resource: 'package-manifest' })).toEqual([
      'Dependencies must not use `latest` as a version. => not compiled: it writes `latest` as a version, a value, and no key holding the version was read; which key holds it?',
    ])
  })
})

describe('a value before the kind names which objects', () => {
  it('"LoadBalancer Services must ..." judges the Services of that type only', () => {
    const instruction = 'This policy requires that LoadBalancer Services set `loadBalancerSourceRanges`.'
    const service = (type: string, spec: Record<string, unknown> = {}): unknown => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { type, ...spec } })
    expect(judgedWith(instruction, { platform: 'kubernetes', resource: 'Service' }, service('ClusterIP'))).toBe(true)
    expect(judgedWith(instruction, { platform: 'kubernetes', resource: 'Service' }, service('LoadBalancer'))).toBe(false)
    expect(judgedWith(instruction, { platform: 'kubernetes', resource: 'Service' }, service('LoadBalancer', { loadBalancerSourceRanges: ['10.0.0.0/8'] }))).toBe(true)
  })
})

describe('a narrowing nothing took', () => {
  it('is an unread condition for the whole instruction too: no named rule drops it', () => {
    expect(refusalWith('ExternalName Services must not point to localhost.', { platform: 'kubernetes', resource: 'Service' })).toEqual([
      'ExternalName Services must not point to localhost. => not compiled: it narrows the requirements with "ExternalName", which the narrowing read from it does not use; which field and value decide it?',
    ])
  })
})
