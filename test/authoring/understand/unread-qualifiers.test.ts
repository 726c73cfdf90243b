import { describe, expect, it } from 'vitest'
import { compileInstruction, InstructionNotUnderstoodError } from '../../../src/authoring/compile-instruction.js'
import { notCompiled, verdictsOf } from './reading.js'

/** The sentences of a refused instruction that were not compiled, with why. */
const refusalWith = (instruction: string, labels: Record<string, string>): string[] => notCompiled(instruction, labels).map((sentence) => `${sentence.text} => ${sentence.became}`)

/** The verdict of an instruction's ruleset on a document. */
const judgedWith = (instruction: string, labels: Record<string, string>, document: unknown): boolean => verdictsOf(instruction, labels, [document])[0] ?? false

const generic = { platform: 'generic', resource: 'config' }

describe('an exception said after a requirement stays with it', () => {
  it('an exception nothing reads refuses, naming its words, instead of becoming a requirement of its own', () => {
    const refused = refusalWith('Every service needs an owner as an email address, except when the service is flagged legacy: true', generic)
    expect(refused).toHaveLength(1)
    expect(refused[0]).toContain('it takes out what is "except when the service is flagged legacy: true"')
  })

  it('a list entry that writes its exception after the requirement refuses rather than demanding the exempt value', () => {
    const refused = refusalWith('Listener rules:\n- tls.enabled must be true, unless the listener is bound to localhost only', generic)
    expect(refused[0]).toContain('unless the listener is bound to localhost only')
  })

  it('"except" naming a list field is no exception', () => {
    expect(judgedWith('blocks.cidr must not be 0.0.0.0/0, even with except entries', generic, { blocks: { cidr: '10.0.0.0/8' } })).toBe(true)
  })

  it('an exception read as an exemption compiles and exempts', () => {
    const instruction = 'Pods must set spec.priorityClassName, except in the kube-system namespace'
    const labels = { platform: 'kubernetes', resource: 'Pod' }
    expect(judgedWith(instruction, labels, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a', namespace: 'kube-system' }, spec: { containers: [{ name: 'a', image: 'a:1' }] } })).toBe(true)
    expect(judgedWith(instruction, labels, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a', namespace: 'web' }, spec: { containers: [{ name: 'a', image: 'a:1' }] } })).toBe(false)
  })
})

describe('a sentence that exempts is read as an exemption or refuses', () => {
  it('an exemption nothing reads refuses, naming it', () => {
    const refused = refusalWith('Every job entry needs `timeout_minutes` of at most 60. Nightly jobs are exempt from this.', generic)
    expect(refused).toEqual([
      'Nightly jobs are exempt from this. => not compiled: it says what is "are exempt", and no exemption was read from it: the rules would judge those too; which field and value (or name, namespace, label) mark them?',
    ])
  })

  it('"X don\'t need it" beside a requirement on everything refuses', () => {
    const refused = refusalWith('Every ConfigMap must carry the label `owner`. Generated ConfigMaps don\'t need it.', { platform: 'kubernetes', resource: 'ConfigMap' })
    expect(refused[0]).toContain("don't need")
  })

  it('an exemption that restates a condition read beside it compiles', () => {
    const instruction = 'Any StatefulSet running more than one replica must define spec.template.spec.affinity.podAntiAffinity. Single-replica StatefulSets are skipped.'
    const labels = { platform: 'kubernetes', resource: 'StatefulSet' }
    const statefulSet = (replicas: number): unknown => ({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db' }, spec: { replicas, serviceName: 'db', selector: {}, template: { spec: { containers: [{ name: 'db', image: 'db:1' }] } } } })
    expect(judgedWith(instruction, labels, statefulSet(1))).toBe(true)
    expect(judgedWith(instruction, labels, statefulSet(3))).toBe(false)
  })

  it('other types than the ones judged are never selected, so saying they are ignored is no exemption', () => {
    expect(judgedWith('For aws_s3_bucket: force_destroy must be false. Other resource types are ignored.', { platform: 'terraform', resource: 'aws_s3_bucket' }, { type: 'aws_s3_bucket', values: { force_destroy: false } })).toBe(true)
  })
})

describe('a value narrowing the subject is read or refuses', () => {
  it('a subject narrowed by a value another requirement lists refuses when the requirement drops it', () => {
    const instruction = 'Queue settings: tier must be gold, silver or bronze, and gold queues need `replicas` of at least 3.'
    expect(refusalWith(instruction, generic)[0]).toContain('it is about what is "gold" only, and that was not read')
  })

  it('a capitalised value before the kind narrows it too', () => {
    const refused = refusalWith('In the payments namespace, Headless services must set `spec.publishNotReadyAddresses` to false.', { platform: 'kubernetes', resource: 'Service' })
    expect(refused.join('\n')).toContain('"Headless"')
  })

  it('a subject without such a value compiles and judges every entry', () => {
    const instruction = 'Queue settings: tier must be gold, silver or bronze, and `replicas` must be at least 3.'
    expect(judgedWith(instruction, generic, { tier: 'gold', replicas: 3 })).toBe(true)
    expect(judgedWith(instruction, generic, { tier: 'bronze', replicas: 1 })).toBe(false)
  })
})

describe('conditions and values said around the predicate are kept', () => {
  it('"set explicitly to A, B or C" is a list of values, not only "set"', () => {
    const instruction = '`cache.mode` has to be set explicitly to lru, lfu or fifo.'
    expect(judgedWith(instruction, generic, { cache: { mode: 'lfu' } })).toBe(true)
    expect(judgedWith(instruction, generic, { cache: { mode: 'random' } })).toBe(false)
  })

  it('a list entry led by a condition and a colon keeps the condition for every requirement after the colon', () => {
    const instruction = 'worker.yaml rules:\n- in staging (stage: staging): queue.retries must be at most 3, and queue.dlq must be true'
    expect(judgedWith(instruction, generic, { stage: 'prod', queue: { retries: 9 } })).toBe(true)
    expect(judgedWith(instruction, generic, { stage: 'staging', queue: { retries: 2, dlq: true } })).toBe(true)
    expect(judgedWith(instruction, generic, { stage: 'staging', queue: { retries: 9, dlq: true } })).toBe(false)
  })

  it('a lead-in condition that cannot be read refuses instead of being dropped', () => {
    expect(refusalWith('Rules:\n- when running in the EU region: `tls.enabled` must be true', generic)).toEqual([
      'when running in the EU region: => not compiled: it applies what follows only "running in the EU region", and no field and value for that condition can be found; which field and value decide it?',
    ])
  })
})

describe('a narrowing the reading drops refuses', () => {
  it('a requirement said "for any X that ..." with no condition read refuses', () => {
    expect(refusalWith('`compression` must be true for any topic that actually stores payloads.', generic)[0]).toContain('"for any topic that actually stores payloads"')
  })

  it('a subject narrowed by a relative clause before the verb refuses when nothing reads it', () => {
    expect(refusalWith('Any Ingress that serves the public site must set spec.ingressClassName.', { platform: 'kubernetes', resource: 'Ingress' })[0]).toContain('"that serves the public site"')
  })

  it('the same requirement on every object compiles', () => {
    expect(judgedWith('`compression` must be true.', generic, { compression: true })).toBe(true)
  })

  it('"must be an EU region" is not read as merely "must be set"', () => {
    expect(() => compileInstruction('`zone` must be an EU zone.', generic)).toThrow(InstructionNotUnderstoodError)
    expect(judgedWith('`zone` must be a string.', generic, { zone: 'anything' })).toBe(true)
  })

  it('a namespace read as the scope of a kind that has none refuses', () => {
    const refused = refusalWith('PriorityClasses must set `description`. PriorityClasses in the batch namespace are exempt.', { platform: 'kubernetes', resource: 'PriorityClass' })
    expect(refused.join('\n')).toContain('a PriorityClass has none')
  })
})

describe('a sentence taken as a restatement writes nothing new', () => {
  it('an unquoted path-like value no rule uses makes it a requirement that was not read', () => {
    const refused = refusalWith('Every Deployment must set `spec.revisionHistoryLimit`. Deployments of the acme.io/legacy tier must be replaced.', { platform: 'kubernetes', resource: 'Deployment' })
    expect(refused).toEqual([
      'Deployments of the acme.io/legacy tier must be replaced. => not compiled: it writes "acme.io/legacy", which no rule read from the instruction uses; which field must it be checked against, and how?',
    ])
  })

  it('an unquoted value the rules use is a restatement', () => {
    const instruction = 'For aws_instance: instance_type must be one of t3.micro or t3.small. So only t3.micro and t3.small are allowed.'
    expect(judgedWith(instruction, { platform: 'terraform', resource: 'aws_instance' }, { type: 'aws_instance', values: { instance_type: 't3.small' } })).toBe(true)
  })
})

describe('the subject of a sentence is no value', () => {
  it('a kind word read as the value a field must not take refuses', () => {
    const refused = refusalWith('Secrets must carry the label `owner`. Secrets of type acme.io/legacy-token are banned everywhere, use projected tokens instead.', { platform: 'kubernetes', resource: 'Secret' })
    expect(refused.join('\n')).toContain('"Secrets" names a kind')
  })
})

describe('"no X may V" bans X only when it does V', () => {
  it('read as a ban of X outright, it refuses naming what X may not do', () => {
    const refused = refusalWith('No toleration may match the dedicated=db taint.', { platform: 'kubernetes', resource: 'Pod' })
    expect(refused).toEqual([
      'No toleration may match the dedicated=db taint. => not compiled: it forbids only what "toleration may match the dedicated=db taint", and that was not read: the rule would forbid every one; which field and value narrow it?',
    ])
  })
})

describe('"no X may V" where V names the field', () => {
  it('is a ban of that field, read and compiled', () => {
    const pod = (hostNetwork: boolean): unknown => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a' }, spec: { hostNetwork, containers: [{ name: 'a', image: 'a:1' }] } })
    expect(judgedWith('No pod may set spec.hostNetwork to true.', { platform: 'kubernetes', resource: 'Pod' }, pod(true))).toBe(false)
    expect(judgedWith('No pod may set spec.hostNetwork to true.', { platform: 'kubernetes', resource: 'Pod' }, pod(false))).toBe(true)
  })
})

describe('a clause that permits is no requirement', () => {
  it('an opt-out read as a requirement on everyone refuses', () => {
    const refused = refusalWith('Every container must set `securityContext.runAsNonRoot` to true. A team can opt out by adding the label `acme.io/root-ok: "yes"` to its pods.', { platform: 'kubernetes', resource: 'Pod' })
    expect(refused.join('\n')).toContain('it says what may be done ("can opt out")')
  })

  it('"can be N at most" limits, and compiles', () => {
    expect(judgedWith('`pool.size` can be 20 at most.', generic, { pool: { size: 30 } })).toBe(false)
  })
})

describe('a sentence that names an exemption and became a requirement', () => {
  it('refuses when what it became exempts nothing', () => {
    const refused = refusalWith('Pods must not use hostPID. The one exception is the tracing agents, they need hostPID.', { platform: 'kubernetes', resource: 'Pod' })
    expect(refused.join('\n')).toContain('The one exception is the tracing agents')
  })
})

describe('two requirements on one field that no value satisfies together', () => {
  it('refuse, naming the sentence contradicted', () => {
    expect(refusalWith('`sync.mode` must be strict. Batch importers are fine, `sync.mode` must be relaxed.', generic)).toEqual([
      '`sync.mode` must be relaxed. => not compiled: what it was read as contradicts "`sync.mode` must be strict." on the same field, so no object that sets it could pass both; which objects does each apply to?',
    ])
  })

  it('a condition on one of them keeps both', () => {
    const instruction = '`sync.mode` must be strict. If `tier` is batch, `sync.mode` must be relaxed.'
    expect(() => compileInstruction(instruction, generic)).not.toThrow()
  })
})

describe('a count of a noun is a count of that noun', () => {
  it('read as the size of another list, it refuses', () => {
    const refused = refusalWith('Deployment rules:\n- spec.template.spec.tolerations must have at most 3 entries\n- no more than 2 replicas', { platform: 'kubernetes', resource: 'Deployment' })
    expect(refused).toEqual(['no more than 2 replicas => not compiled: it counts replicas, and was read as the size of `spec.template.spec.tolerations`; which field holds the replicas?'])
  })

  it('a count of the list\'s own elements compiles', () => {
    const job = (count: number): unknown => ({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' }, spec: { template: { spec: { tolerations: Array.from({ length: count }, (_, index) => ({ key: `k${index}`, operator: 'Exists' })), containers: [{ name: 'a', image: 'a:1' }] } } } })
    expect(judgedWith('spec.template.spec.tolerations must have at most 3 tolerations.', { platform: 'kubernetes', resource: 'Job' }, job(2))).toBe(true)
    expect(judgedWith('spec.template.spec.tolerations must have at most 3 tolerations.', { platform: 'kubernetes', resource: 'Job' }, job(5))).toBe(false)
  })
})

describe('a bound taken for a heading', () => {
  it('refuses when no rule uses its number', () => {
    expect(refusalWith('Job rules:\n- spec.template.spec.tolerations must have at most 3 entries\n- at most 4 retries', { platform: 'kubernetes', resource: 'Job' })).toEqual([
      'at most 4 retries => not compiled: it bounds something by "4", and nothing was read from it; which field must be within that bound?',
    ])
  })
})

describe('the remarks in parentheses of a list head', () => {
  const labels = { platform: 'kubernetes', resource: 'Pod' }
  const pod = (initHasLimit: boolean): unknown => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p' },
    spec: {
      initContainers: [{ name: 'setup', image: 'setup:1', ...(initHasLimit ? { resources: { limits: { memory: '64Mi' } } } : {}) }],
      containers: [{ name: 'app', image: 'app:1', resources: { limits: { memory: '128Mi' } } }],
    },
  })

  it('qualify the items under it', () => {
    const instruction = 'Sizing rules (init containers are exempt, they finish first):\n- every container must set resources.limits.memory'
    expect(judgedWith(instruction, labels, pod(false))).toBe(true)
  })

  it('refuse when what they take out cannot be taken from the named rule read', () => {
    const instruction = 'Sizing rules (init containers are exempt, they finish first):\n- a memory limit must be specified'
    expect(refusalWith(instruction, labels).join('\n')).toContain('it takes some containers out')
  })

  it('refuse when they exempt what nothing reads', () => {
    const instruction = 'Sizing rules (batch workloads are not covered by this rule):\n- a memory limit must be specified'
    expect(refusalWith(instruction, labels).join('\n')).toContain('"are not covered"')
  })
})

describe('a ban of a kind of value, and exceptions said to be fine', () => {
  it('"an integer X is not allowed" read as a ban of X refuses', () => {
    expect(refusalWith('For HorizontalPodAutoscalers, an integer spec.minReplicas is not allowed.', { platform: 'kubernetes', resource: 'HorizontalPodAutoscaler' }).join('\n')).toContain('it forbids only "integer spec.minReplicas"')
  })

  it('a sentence naming exceptions, read as a permission, refuses', () => {
    const refused = refusalWith('Every `image` must be pinned by a sha256 digest. One exception where a tag is fine: images of our own registry.', generic)
    expect(refused.join('\n')).toContain('One exception where')
  })

  it('a permission without the word exception stays a permission', () => {
    expect(judgedWith('`replicas` must be at least 2. Three or more replicas are fine.', generic, { replicas: 3 })).toBe(true)
  })
})

describe('a domain a requirement sentence writes is used', () => {
  it('"an email address at example.org" read as any email refuses', () => {
    expect(refusalWith('`contact` is an email address at example.org.', generic)).toEqual([
      '`contact` is an email address at example.org. => not compiled: it writes "example.org" but no rule read from it uses it; which field must it be checked against, and how?',
    ])
  })

  it('a file name or a path beside the field is no value', () => {
    expect(judgedWith('every repo needs compilerOptions.strict: true in tsconfig.json.', generic, { compilerOptions: { strict: true } })).toBe(true)
  })
})

describe('"or not there at all" says absence passes', () => {
  it('a field that must be false or not there passes when absent', () => {
    expect(judgedWith('the `verbose` switch has to be false or not there at all.', generic, {})).toBe(true)
    expect(judgedWith('the `verbose` switch has to be false or not there at all.', generic, { verbose: true })).toBe(false)
  })

  it('without it, absence fails as before', () => {
    expect(judgedWith('the `verbose` switch has to be false.', generic, {})).toBe(false)
  })
})
