import { afterEach, describe, expect, it } from 'vitest'
import { compileCel, setCelFastPath, toCelValue, type CelActivation } from '../../../src/engine/cel/index.js'

afterEach(() => setCelFastPath(true))

type Outcome = { value: unknown } | { error: string }

function outcome(expression: string, activation: CelActivation, fast: boolean): Outcome {
  setCelFastPath(fast)
  try {
    return { value: compileCel(expression).evaluate(activation) }
  } catch (error) {
    return { error: (error as Error).message }
  } finally {
    setCelFastPath(true)
  }
}

const inputs: Record<string, unknown>[] = [
  {},
  { spec: null },
  { spec: {} },
  { spec: { containers: [] } },
  {
    metadata: { name: 'p', labels: { app: 'web', 'app.kubernetes.io/name': 'x' }, annotations: {} },
    spec: {
      hostNetwork: false,
      securityContext: { runAsNonRoot: true, runAsUser: 1000, seccompProfile: { type: 'RuntimeDefault' } },
      containers: [
        { name: 'a', image: 'nginx:1.27', ports: [{ containerPort: 80, hostPort: 0 }], securityContext: { capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] } } },
        { name: 'b', image: 'registry.example.com/😀/app:latest', securityContext: { privileged: true, runAsUser: 0, allowPrivilegeEscalation: 'yes' } },
      ],
      initContainers: [{ name: 'init', image: 'busybox', securityContext: null }],
      volumes: [{ name: 'v', hostPath: { path: '/var/run/docker.sock' } }, { name: 'c', configMap: { name: 'x' } }],
    },
  },
  { spec: { containers: [{ name: 1, image: 2.5, ports: 'none', securityContext: [] }], replicas: 2.5, constructor: 'x' } },
  { spec: { containers: 'not a list', volumes: {} } },
]

const expressions = [
  'object.spec.containers.all(c, has(c.securityContext))',
  "object.spec.containers.exists(c, c.image.endsWith(':latest'))",
  "object.spec.containers.exists_one(c, c.name == 'a')",
  'object.spec.containers.filter(c, has(c.ports)).map(c, c.name)',
  "object.spec.?containers.orValue([]).all(c, !has(c.securityContext) || !has(c.securityContext.privileged) || c.securityContext.privileged == false)",
  "object.spec.?securityContext.?seccompProfile.?type.orValue('') == 'RuntimeDefault'",
  'object.spec.?securityContext.?runAsUser.hasValue()',
  'object.spec.securityContext.runAsUser > 0',
  'object.spec.?replicas.orValue(1) >= 2',
  '(has(object.spec.containers) ? object.spec.containers : []) + (has(object.spec.initContainers) ? object.spec.initContainers : [])',
  "object.spec.containers.all(c, c.?securityContext.allowPrivilegeEscalation.orValue(true) == false)",
  "object.spec.containers.all(c, c.?securityContext.?capabilities.?add.orValue([]).all(x, x in ['NET_BIND_SERVICE']))",
  "'app' in object.metadata.labels && object.metadata.labels['app'] == 'web'",
  'size(object.spec.containers[1].image) == 34 && object.spec.containers[1].image.size() > 0',
  "object.spec.volumes.exists(v, has(v.hostPath) && v.hostPath.path.startsWith('/var/run'))",
  'object.spec.containers[0].ports[0].containerPort == 80 && object.spec.containers[0].ports[0].hostPort != 80',
  'object.spec.containers.size() + 1 == 3',
  'object.spec.containers.map(c, c.name)[0] == "a"',
  'object.spec.replicas == 2',
  "object.spec.containers.all(c, c.image.contains('@sha256:') || c.name == 'a')",
  'object.spec == null',
  'object.spec.hostNetwork || object.spec.containers.size() > 5',
  'object.metadata.?annotations.orValue({}).size() == 0',
  "object.spec.containers.all(c, c.securityContext.runAsUser > 0)",
  'variables.images.all(i, i != "")',
]

describe('the fast path agrees with cel-js', () => {
  it.each(expressions)('%s', (expression) => {
    for (const object of inputs) {
      const images = Array.isArray((object.spec as { containers?: unknown } | null)?.containers)
        ? ((object.spec as { containers: { image?: unknown }[] }).containers.map((c) => c.image ?? '') as unknown[])
        : []
      const activation: CelActivation = { object: toCelValue(object), variables: { images: toCelValue(images) } }
      expect(outcome(expression, activation, true), JSON.stringify(object)).toEqual(outcome(expression, activation, false))
    }
  })

  it('accelerates the expressions admission policies are made of and leaves others to cel-js', () => {
    expect(expressions.filter((e) => !compileCel(e).accelerated)).toEqual([])
    expect(compileCel("object.metadata.name.matches('^a')").accelerated).toBe(false)
    expect(compileCel('quantity(object.x).isInteger()').accelerated).toBe(false)
    expect(compileCel('has(object.?a.b)').accelerated).toBe(false)
  })

  it('still bounds a runaway expression', () => {
    const items = toCelValue(Array.from({ length: 2000 }, (_, i) => i))
    const runaway = compileCel('object.all(a, object.all(b, object.all(c, a + b + c >= 0)))')
    expect(runaway.accelerated).toBe(true)
    expect(() => runaway.evaluate({ object: items })).toThrow(/cost budget exceeded/)
  })
})
