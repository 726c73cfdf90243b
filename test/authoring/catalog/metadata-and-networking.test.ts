import { describe, expect, it } from 'vitest'
import { METADATA_AND_NETWORKING_TEMPLATES, VOCABULARY } from '../../../src/authoring/catalog/index.js'
import { compileWithCatalog as compileInstruction, understandInstruction } from '../../../src/authoring/compile-instruction.js'
import { baseKubernetesDocument } from '../../../src/authoring/samples/base-documents.js'
import { prepareClause } from '../../../src/authoring/text/clause.js'
import { compileRuleset, evaluateRuleset, PreparedInput, type EvaluationRequest, type Rule } from '../../../src/engine/index.js'

type Json = Record<string, unknown>

const KUBERNETES = { platform: 'kubernetes' }

function compile(instruction: string, labels: Record<string, string> = KUBERNETES): Rule[] {
  return compileInstruction(instruction, labels).spec.rules
}

/** Compiles the instruction and judges one document by it: the rules that failed, [] when it passes. */
function failures(instruction: string, document: Json, options: { labels?: Record<string, string>; request?: EvaluationRequest } = {}): string[] {
  const { spec } = compileInstruction(instruction, options.labels ?? KUBERNETES)
  const compiled = compileRuleset({ ...spec, name: 'metadata-and-networking' })
  const input = options.request ? { object: document, request: options.request } : { object: document }
  const result = evaluateRuleset(compiled, new PreparedInput(input))
  return result.results.filter((entry) => entry.status === 'fail' || entry.status === 'error').map((entry) => entry.rule)
}

const passes = (instruction: string, document: Json, options: Parameters<typeof failures>[2] = {}): boolean => failures(instruction, document, options).length === 0

/** A fresh base document of the kind, changed by `edit`. */
function doc(kind: string, edit: (document: Json & { metadata: Json; spec: Json }) => void = () => {}): Json {
  const document = baseKubernetesDocument(kind) as Json & { metadata: Json; spec: Json }
  edit(document)
  return document
}

const labelsOf = (document: { metadata: Json }): Json => document.metadata.labels as Json

function templatesFor(instruction: string, labels: Record<string, string> = KUBERNETES): Array<string | undefined> {
  return understandInstruction(instruction, labels).clauses.map((entry) => entry.report.template)
}

describe('metadata, networking and scaling templates', () => {
  describe.each(METADATA_AND_NETWORKING_TEMPLATES.map((template) => [template.id, template] as const))('%s', (_id, template) => {
    it('has varied phrasings and documented parameters', () => {
      expect(template.phrasings.length).toBeGreaterThanOrEqual(3)
      for (const parameter of template.parameters) {
        expect(parameter.question, parameter.name).toMatch(/\?$/)
        expect(parameter.example, parameter.name).toBeDefined()
      }
    })

    it.each(template.phrasings.map((phrasing) => [phrasing]))('"%s" gives a rule with a message, a remediation and a failing sample', (phrasing) => {
      const [rule] = compile(phrasing)
      expect(rule?.template?.id).toBe(template.id)
      expect(rule?.message).toBeTruthy()
      expect(rule?.remediation).toMatch(/\b(spec|metadata)\.|labels|annotations/)
      expect(rule?.severity).toBeTruthy()
      const parameters = understandInstruction(phrasing, KUBERNETES).clauses[0]?.recognition.best?.recognition.parameters ?? {}
      expect(template.samples(parameters).bad.length).toBeGreaterThanOrEqual(1)
    })
  })

  describe('does not take clauses of other templates', () => {
    const foreign = ['no privileged pods', 'run as non-root', 'no host ports', 'images only from registry.acme.io', 'cpu limits required', 'imagePullPolicy Always', 'no hostPath volumes', 'containers need memory limits']
    it.each(foreign.map((text) => [text]))('"%s" scores 0 on every template here', (text) => {
      const clause = prepareClause(text, { platform: 'kubernetes', inheritedKinds: [], vocabulary: VOCABULARY })
      for (const template of METADATA_AND_NETWORKING_TEMPLATES) expect(template.recognize(clause).score, template.id).toBe(0)
    })
  })
})

describe('labels and annotations', () => {
  it('reads keys before and after the noun, with prefixes that look like host names', () => {
    expect(compile('team and cost-center labels')[0]?.template?.parameters).toEqual({ keys: ['team', 'cost-center'] })
    expect(compile('must have labels team, owner')[0]?.template?.parameters).toEqual({ keys: ['team', 'owner'] })
    expect(templatesFor('require the app.kubernetes.io/name label')).toEqual(['required-labels'])
    expect(compile('require the app.kubernetes.io/name label')[0]?.template?.parameters).toEqual({ keys: ['app.kubernetes.io/name'] })
  })

  it('requires a prefixed key exactly', () => {
    const instruction = 'Deployments must have the label app.kubernetes.io/name'
    expect(passes(instruction, doc('Deployment'))).toBe(false)
    expect(passes(instruction, doc('Deployment', (d) => void (labelsOf(d).name = 'web')))).toBe(false)
    expect(passes(instruction, doc('Deployment', (d) => void (labelsOf(d)['app.kubernetes.io/name'] = 'web')))).toBe(true)
  })

  it('reads well-known label keys without the word "label"', () => {
    const instruction = 'namespaces must set pod-security.kubernetes.io/enforce to restricted'
    expect(compile(instruction)[0]?.template?.parameters).toEqual({ keys: ['pod-security.kubernetes.io/enforce'], values: { 'pod-security.kubernetes.io/enforce': ['restricted'] } })
    const enforcing = (level: string): Json => doc('Namespace', (d) => void (labelsOf(d)['pod-security.kubernetes.io/enforce'] = level))
    expect(passes(instruction, enforcing('restricted'))).toBe(true)
    expect(passes(instruction, enforcing('baseline'))).toBe(false)
    expect(passes(instruction, doc('Namespace'))).toBe(false)
  })

  it('"must be X" fails when the label is missing or has another value', () => {
    const instruction = 'label env must be prod or staging'
    expect(compile(instruction)[0]?.template?.parameters).toEqual({ keys: ['env'], values: { env: ['prod', 'staging'] } })
    expect(passes(instruction, doc('Deployment'))).toBe(false)
    expect(passes(instruction, doc('Deployment', (d) => void (labelsOf(d).env = 'qa')))).toBe(false)
    expect(passes(instruction, doc('Deployment', (d) => void (labelsOf(d).env = 'staging')))).toBe(true)
  })

  it('reads values after "set to" and key=value pairs', () => {
    const setTo = 'every Deployment must carry an environment label set to dev, staging or prod'
    expect(compile(setTo)[0]?.template?.parameters).toEqual({ keys: ['environment'], values: { environment: ['dev', 'staging', 'prod'] } })
    expect(compile('every deployment needs an env=prod label')[0]?.template?.parameters).toEqual({ keys: ['env'], values: { env: ['prod'] } })
  })

  it('"must not be X" passes when the label is missing', () => {
    const instruction = 'label env must not be dev or test'
    expect(templatesFor(instruction)).toEqual(['forbidden-labels'])
    expect(passes(instruction, doc('Deployment'))).toBe(true)
    expect(passes(instruction, doc('Deployment', (d) => void (labelsOf(d).env = 'prod')))).toBe(true)
    expect(passes(instruction, doc('Deployment', (d) => void (labelsOf(d).env = 'test')))).toBe(false)
  })

  it('forbids a key whatever its value', () => {
    expect(passes('no debug label', doc('Pod'))).toBe(true)
    expect(passes('no debug label', doc('Pod', (d) => void (labelsOf(d).debug = 'false')))).toBe(false)
  })

  it('reads "without" as a requirement, not a ban', () => {
    expect(templatesFor('no deployment without a team label')).toEqual(['required-labels'])
    expect(passes('no deployment without a team label', doc('Deployment', (d) => void delete labelsOf(d).team))).toBe(false)
  })

  it('checks patterns and described shapes', () => {
    expect(passes('label team matching ^[a-z]+$', doc('Deployment'))).toBe(true)
    expect(passes('label team matching ^[a-z]+$', doc('Deployment', (d) => void (labelsOf(d).team = 'Payments')))).toBe(false)
    const digits = 'cost-center label must be a 4-digit number'
    expect(compile(digits)[0]?.template?.parameters).toEqual({ keys: ['cost-center'], patterns: { 'cost-center': '^[0-9]{4}$' } })
    expect(passes(digits, doc('Deployment', (d) => void (labelsOf(d)['cost-center'] = '1042')))).toBe(true)
    expect(passes(digits, doc('Deployment', (d) => void (labelsOf(d)['cost-center'] = 'cc-1042')))).toBe(false)
  })

  it('asks again for an invalid pattern instead of dropping it', () => {
    const [clause] = understandInstruction('label team matching ^[a-z+$', KUBERNETES).clauses
    expect(clause?.report.status).toBe('missing-parameters')
    expect(clause?.report.missing?.map((missing) => missing.name)).toEqual(['patterns'])
  })

  it('keeps labels and annotations apart', () => {
    const instruction = 'Deployments need an owner annotation'
    expect(passes(instruction, doc('Deployment', (d) => void (labelsOf(d).owner = 'payments')))).toBe(false)
    expect(passes(instruction, doc('Deployment', (d) => void (d.metadata.annotations = { owner: 'payments-oncall@acme.io' })))).toBe(true)
    expect(passes('must have a cost-center label', doc('ConfigMap', (d) => void (d.metadata.annotations = { 'cost-center': 'cc-1042' })))).toBe(false)
  })

  it('judges any kind when none is named, and only the named kinds otherwise', () => {
    expect(compile('team and cost-center labels')[0]?.match?.kinds).toEqual(['*'])
    expect(passes('team and cost-center labels', doc('ConfigMap'))).toBe(false)
    const narrowed = { labels: { platform: 'kubernetes', resource: 'Deployment' } }
    expect(compile('must have a cost-center label', narrowed.labels)[0]?.match?.kinds).toEqual(['Deployment'])
    expect(passes('must have a cost-center label', doc('Deployment'), narrowed)).toBe(false)
    expect(passes('must have a cost-center label', doc('ConfigMap'), narrowed)).toBe(true)
  })

  it('judges the pod template labels when the clause is about pods', () => {
    const deployment = doc('Deployment', (d) => void (labelsOf(d)['cost-center'] = '1042'))
    expect(failures('pods must have a cost-center label', deployment)).toHaveLength(1)
  })
})

describe('several clauses', () => {
  const instruction = 'Deployments need at least 2 replicas and team + cost-center labels'

  it('gives two rules, both limited to Deployments (the second clause inherits the kind)', () => {
    const rules = compile(instruction, {})
    expect(rules.map((rule) => rule.template?.id)).toEqual(['replica-count', 'required-labels'])
    for (const rule of rules) expect(rule.match?.kinds).toEqual(['Deployment'])
  })

  it('judges Deployments only', () => {
    const withCostCenter = (kind: string): Json => doc(kind, (d) => void (labelsOf(d)['cost-center'] = 'cc-1042'))
    expect(failures(instruction, doc('Deployment'), { labels: {} })).toEqual(['require-labels-team-cost-center'])
    expect(passes(instruction, withCostCenter('Deployment'), { labels: {} })).toBe(true)
    expect(failures(instruction, doc('Deployment', (d) => ((labelsOf(d)['cost-center'] = 'cc-1042'), (d.spec.replicas = 1))), { labels: {} })).toEqual(['replicas-at-least-2'])
    expect(passes(instruction, doc('Pod'), { labels: {} })).toBe(true)
    expect(passes(instruction, doc('StatefulSet', (d) => void (d.spec.replicas = 1)), { labels: {} })).toBe(true)
  })
})

describe('replicas', () => {
  it('reads digits, comparators and number words', () => {
    const minimumOf = (text: string): unknown => compile(text)[0]?.template?.parameters.minimum
    expect(minimumOf('at least 2 replicas')).toBe(2)
    expect(minimumOf('replicas >= 3')).toBe(3)
    expect(minimumOf('minimum of three replicas')).toBe(3)
    expect(minimumOf('deployments must run more than one replica')).toBe(2)
    expect(minimumOf('at least ten replicas')).toBe(10)
    expect(compile('replicas must not exceed 10')[0]?.template?.parameters.maximum).toBe(10)
  })

  it('judges a missing spec.replicas as 1', () => {
    expect(passes('at least 2 replicas', doc('Deployment', (d) => void delete d.spec.replicas))).toBe(false)
    expect(passes('at least 1 replica', doc('Deployment', (d) => void delete d.spec.replicas))).toBe(true)
    expect(passes('at least 2 replicas', doc('Deployment', (d) => void (d.spec.replicas = 2)))).toBe(true)
  })

  it('applies to the kinds named or labelled, else to every replicated kind', () => {
    expect(compile('at least 2 replicas')[0]?.match?.kinds).toEqual(['Deployment', 'StatefulSet', 'ReplicaSet'])
    expect(compile('StatefulSets need a minimum of 3 replicas')[0]?.match?.kinds).toEqual(['StatefulSet'])
    const narrowed = { labels: { platform: 'kubernetes', resource: 'Deployment' } }
    expect(passes('at least 2 replicas', doc('Deployment', (d) => void (d.spec.replicas = 1)), narrowed)).toBe(false)
    expect(passes('at least 2 replicas', doc('StatefulSet', (d) => void (d.spec.replicas = 1)), narrowed)).toBe(true)
    expect(passes('at least 2 replicas', doc('DaemonSet'))).toBe(true)
  })

  it('leaves HPA bounds to the HPA templates', () => {
    expect(templatesFor('HPAs need minReplicas of at least 2')).toEqual(['hpa-min-replicas'])
    expect(templatesFor('autoscalers need a minimum of 2 replicas')).toEqual(['hpa-min-replicas'])
    expect(templatesFor('maxReplicas at most 10')).toEqual(['hpa-max-replicas'])
  })
})

describe('default namespace', () => {
  const instruction = 'nothing in the default namespace'

  it('fails an object in default or without a namespace, and says why', () => {
    expect(passes(instruction, doc('Deployment'))).toBe(true)
    expect(passes(instruction, doc('Deployment', (d) => void (d.metadata.namespace = 'default')))).toBe(false)
    expect(passes(instruction, doc('Service', (d) => void delete d.metadata.namespace))).toBe(false)
    expect(passes(instruction, doc('ConfigMap', (d) => void (d.metadata.namespace = '')))).toBe(false)
    expect(compile(instruction)[0]?.remediation).toMatch(/missing metadata\.namespace/)
  })

  it("counts the admission request's namespace when the object has none", () => {
    const bare = doc('ConfigMap', (d) => void delete d.metadata.namespace)
    expect(passes(instruction, bare, { request: { namespace: 'payments' } })).toBe(true)
    expect(passes(instruction, bare, { request: { namespace: 'default' } })).toBe(false)
  })

  it('never judges Namespaces, which are cluster-scoped, even when "namespace" reads as the kind', () => {
    const [rule] = compile('namespace must not be default')
    expect(rule?.match?.kinds).not.toContain('Namespace')
    expect(passes('namespace must not be default', doc('Namespace'))).toBe(true)
    expect(passes('namespace must not be default', doc('Secret', (d) => void (d.metadata.namespace = 'default')))).toBe(false)
  })

  it('keeps to the kinds the clause names', () => {
    expect(compile('deployments may not use the default namespace')[0]?.match?.kinds).toEqual(['Deployment'])
    expect(passes('deployments may not use the default namespace', doc('Service', (d) => void (d.metadata.namespace = 'default')))).toBe(true)
  })
})

describe('Services', () => {
  it('forbids the types named after a negation', () => {
    expect(passes('no NodePort services', doc('Service'))).toBe(true)
    expect(passes('no NodePort services', doc('Service', (d) => void (d.spec.type = 'NodePort')))).toBe(false)
    expect(passes('no NodePort services', doc('Service', (d) => void delete d.spec.type))).toBe(true)
    const both = 'Services must not be NodePort or LoadBalancer'
    expect(passes(both, doc('Service', (d) => void (d.spec.type = 'LoadBalancer')))).toBe(false)
    expect(passes('NodePort services are not allowed', doc('Service', (d) => void (d.spec.type = 'NodePort')))).toBe(false)
  })

  it('allows only the types named otherwise, an unset type being ClusterIP', () => {
    expect(passes('services must be ClusterIP', doc('Service', (d) => void (d.spec.type = 'LoadBalancer')))).toBe(false)
    expect(passes('services must be ClusterIP', doc('Service', (d) => void delete d.spec.type))).toBe(true)
    expect(passes('only LoadBalancer services', doc('Service', (d) => void delete d.spec.type))).toBe(false)
  })

  it('forbids externalIPs', () => {
    expect(passes('services must not set externalIPs', doc('Service'))).toBe(true)
    expect(passes('services must not set externalIPs', doc('Service', (d) => void (d.spec.externalIPs = ['203.0.113.10'])))).toBe(false)
  })
})

describe('Ingresses', () => {
  const rule = (d: { spec: Json }): Json[] => d.spec.rules as Json[]
  const tls = (d: { spec: Json }): Json[] => d.spec.tls as Json[]
  const hosts = (...names: string[]) => (d: { spec: Json }): void => {
    d.spec.rules = names.map((host) => ({ ...rule(d)[0], host }))
    d.spec.tls = [{ hosts: names, secretName: 'web-tls' }]
  }

  it('requires TLS for every rule host', () => {
    expect(passes('ingresses must use TLS', doc('Ingress'))).toBe(true)
    expect(passes('ingresses must use TLS', doc('Ingress', (d) => void delete d.spec.tls))).toBe(false)
    expect(passes('every ingress host must be covered by TLS', doc('Ingress', (d) => void rule(d).push({ ...rule(d)[0], host: 'api.example.com' })))).toBe(false)
  })

  it('lets a wildcard TLS host cover one level of subdomain', () => {
    const wildcard = (host: string): Json => doc('Ingress', (d) => ((rule(d)[0] as Json).host = host, (tls(d)[0] as Json).hosts = ['*.example.com']))
    expect(passes('ingresses must use TLS', wildcard('web.example.com'))).toBe(true)
    expect(passes('ingresses must use TLS', wildcard('a.b.example.com'))).toBe(false)
  })

  it('keeps hosts under the domains on a dot boundary', () => {
    const instruction = 'ingress hosts must be under acme.io'
    expect(compile(instruction)[0]?.template?.parameters).toEqual({ domains: ['acme.io'] })
    expect(passes(instruction, doc('Ingress', hosts('web.acme.io')))).toBe(true)
    expect(passes(instruction, doc('Ingress', hosts('acme.io')))).toBe(true)
    expect(passes(instruction, doc('Ingress', hosts('*.acme.io')))).toBe(true)
    expect(passes(instruction, doc('Ingress', hosts('evilacme.io')))).toBe(false)
    expect(passes(instruction, doc('Ingress', hosts('web.acme.io.evil.com')))).toBe(false)
    expect(passes(instruction, doc('Ingress'))).toBe(false)
  })

  it('reads a domain written with a leading dot, and fails host-less rules and stray TLS hosts', () => {
    const instruction = 'ingress hosts must end with .acme.io'
    expect(compile(instruction)[0]?.template?.parameters).toEqual({ domains: ['acme.io'] })
    expect(passes(instruction, doc('Ingress', (d) => (hosts('web.acme.io')(d), delete (rule(d)[0] as Json).host)))).toBe(false)
    expect(passes(instruction, doc('Ingress', (d) => (hosts('web.acme.io')(d), (tls(d)[0] as Json).hosts = ['web.acme.io', 'web.example.com'])))).toBe(false)
  })

  it('forbids wildcard hosts', () => {
    expect(passes('no wildcard ingress hosts', doc('Ingress'))).toBe(true)
    expect(passes('no wildcard ingress hosts', doc('Ingress', hosts('*.example.com')))).toBe(false)
  })

  it('requires an ingress class, optionally from a list', () => {
    expect(passes('ingresses must set ingressClassName', doc('Ingress'))).toBe(true)
    expect(passes('ingresses must set ingressClassName', doc('Ingress', (d) => void delete d.spec.ingressClassName))).toBe(false)
    expect(passes('ingressClassName must be traefik', doc('Ingress'))).toBe(false)
  })
})

describe('HorizontalPodAutoscalers', () => {
  it('judges a missing minReplicas as 1', () => {
    const instruction = 'HPAs need minReplicas of at least 2'
    expect(passes(instruction, doc('HorizontalPodAutoscaler'))).toBe(true)
    expect(passes(instruction, doc('HorizontalPodAutoscaler', (d) => void (d.spec.minReplicas = 1)))).toBe(false)
    expect(passes(instruction, doc('HorizontalPodAutoscaler', (d) => void delete d.spec.minReplicas))).toBe(false)
  })

  it('bounds maxReplicas', () => {
    const instruction = 'HPA maxReplicas must be 20 or less'
    expect(passes(instruction, doc('HorizontalPodAutoscaler'))).toBe(true)
    expect(passes(instruction, doc('HorizontalPodAutoscaler', (d) => void (d.spec.maxReplicas = 50)))).toBe(false)
  })

  it('requires a CPU utilization target, the default one included', () => {
    const instruction = 'HPAs must target CPU utilization'
    expect(passes(instruction, doc('HorizontalPodAutoscaler'))).toBe(true)
    expect(passes(instruction, doc('HorizontalPodAutoscaler', (d) => void delete d.spec.metrics))).toBe(true)
    expect(passes(instruction, doc('HorizontalPodAutoscaler', (d) => void (d.spec.metrics = [{ type: 'Resource', resource: { name: 'memory', target: { type: 'Utilization', averageUtilization: 80 } } }])))).toBe(false)
    const v1 = { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'web', namespace: 'payments' }, spec: { maxReplicas: 5, targetCPUUtilizationPercentage: 70 } }
    expect(passes(instruction, v1)).toBe(true)
  })
})

describe('PodDisruptionBudgets', () => {
  it('requires the field named, or either', () => {
    const maxInstead = doc('PodDisruptionBudget', (d) => ((d.spec.maxUnavailable = 1), delete d.spec.minAvailable))
    expect(passes('PodDisruptionBudgets must set minAvailable', doc('PodDisruptionBudget'))).toBe(true)
    expect(passes('PodDisruptionBudgets must set minAvailable', maxInstead)).toBe(false)
    expect(passes('PDBs must set minAvailable or maxUnavailable', maxInstead)).toBe(true)
    expect(passes('PDBs must set minAvailable or maxUnavailable', doc('PodDisruptionBudget', (d) => void delete d.spec.minAvailable))).toBe(false)
  })

  it('fails budgets that block every eviction', () => {
    const maxUnavailable = (value: unknown): Json => doc('PodDisruptionBudget', (d) => ((d.spec.maxUnavailable = value), delete d.spec.minAvailable))
    expect(templatesFor('PDB maxUnavailable must not be 0')).toEqual(['pdb-allows-disruption'])
    expect(passes('PDB maxUnavailable must not be 0', maxUnavailable(0))).toBe(false)
    expect(passes('PDB maxUnavailable must not be 0', maxUnavailable('0%'))).toBe(false)
    expect(passes('PDB maxUnavailable must not be 0', maxUnavailable(1))).toBe(true)
    expect(passes('minAvailable must not be 100%', doc('PodDisruptionBudget', (d) => void (d.spec.minAvailable = '100%')))).toBe(false)
    expect(passes('minAvailable must not be 100%', doc('PodDisruptionBudget'))).toBe(true)
  })
})
