import { describe, expect, it } from 'vitest'
import {
  buildKyvernoContext,
  JmespathError,
  substituteVariables,
  UnsupportedContextEntryError,
  withContextEntries,
  type JsonObject,
} from '../../../src/engine/jmespath/index.js'
import { prepareQuery } from '../../../src/engine/jmespath/prepared-query.js'

const pod: JsonObject = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', namespace: 'shop', labels: { app: 'web' } },
  spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] },
}

function errorOf(run: () => unknown): Error {
  try {
    run()
  } catch (error) {
    return error as Error
  }
  throw new Error('expected an error')
}

describe('buildKyvernoContext in admission mode', () => {
  it('holds the admission request, user and service account', () => {
    const context = buildKyvernoContext({
      object: pod,
      operation: 'CREATE',
      userInfo: { username: 'system:serviceaccount:ci:deployer', groups: ['system:serviceaccounts'] },
      admission: { uid: '42', kind: { group: '', version: 'v1', kind: 'Pod' } },
    })
    expect(context.query('request.object.metadata.name')).toBe('web')
    expect(context.query('request.operation')).toBe('CREATE')
    expect(context.query('request.namespace')).toBe('shop')
    expect(context.query('request.name')).toBe('web')
    expect(context.query('request.oldObject')).toBe(null)
    expect(context.query('request.uid')).toBe('42')
    expect(context.query('request.kind.kind')).toBe('Pod')
    expect(context.query('request.userInfo')).toEqual({ username: 'system:serviceaccount:ci:deployer', groups: ['system:serviceaccounts'] })
    expect(context.query('request.roles')).toEqual([])
    expect(context.query('request.clusterRoles')).toEqual([])
    expect(context.query('serviceAccountName')).toBe('deployer')
    expect(context.query('serviceAccountNamespace')).toBe('ci')
    expect(context.operation()).toBe('CREATE')
  })

  it('leaves out an empty name and namespace, as the AdmissionRequest JSON does', () => {
    const namespace = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } }
    const context = buildKyvernoContext({ object: namespace })
    expect(context.query('request.name')).toBe('team-a')
    expect(errorOf(() => context.query('request.namespace')).message).toBe('JMESPath query failed: Unknown key "namespace" in path')
    expect(context.query('request.userInfo')).toEqual({})
    expect(context.query('serviceAccountName')).toBe('')
  })

  it('keeps the old object on UPDATE and DELETE', () => {
    const old = { ...pod, metadata: { ...(pod.metadata as JsonObject), labels: { app: 'old' } } }
    const update = buildKyvernoContext({ object: pod, oldObject: old, operation: 'UPDATE' })
    expect(update.query('request.oldObject.metadata.labels.app')).toBe('old')
    const deletion = buildKyvernoContext({ oldObject: old, operation: 'DELETE' })
    expect(deletion.query('request.object')).toBe(null)
    expect(deletion.query('request.namespace')).toBe('shop')
    expect(substituteVariables('{{ request.object.metadata.labels.app }}', deletion)).toBe('old')
  })
})

describe('the clock', () => {
  it('reads a fixed time in queries and substitutions when one is given', () => {
    const context = buildKyvernoContext({ object: pod }, { now: new Date('2024-01-02T03:04:05Z') })
    expect(context.query('time_now_utc()')).toBe('2024-01-02T03:04:05Z')
    expect(substituteVariables('at {{ time_now_utc() }}', context.withElement(1, 0))).toBe('at 2024-01-02T03:04:05Z')
  })
})

describe('buildKyvernoContext in CLI mode', () => {
  it('has what kyverno test gives: no request.name, no user unless given', () => {
    const context = buildKyvernoContext({ object: pod }, { mode: 'cli' })
    expect(context.query('request.namespace')).toBe('shop')
    expect(context.query('request.operation')).toBe('CREATE')
    expect(errorOf(() => context.query('request.name')).message).toContain('Unknown key "name"')
    expect(errorOf(() => context.query('request.oldObject')).message).toContain('Unknown key "oldObject"')
    expect(errorOf(() => context.query('request.userInfo.username')).message).toContain('Unknown key "userInfo"')
    expect(errorOf(() => context.query('serviceAccountName')).message).toContain('Unknown key "serviceAccountName"')
    expect(context.query('request.roles')).toEqual([])
  })

  it('applies values-file variables last, with dotted and quoted keys', () => {
    const context = buildKyvernoContext(
      { object: pod },
      { mode: 'cli', variables: { 'request.operation': 'UPDATE', 'request.object.metadata.labels."app.kubernetes.io/name"': 'x', nsregistries: 'docker.io/*' } },
    )
    expect(context.operation()).toBe('UPDATE')
    expect(context.query('request.object.metadata.labels')).toEqual({ app: 'web', 'app.kubernetes.io/name': 'x' })
    expect(context.query('request.object.metadata.name')).toBe('web')
    expect(context.query('nsregistries')).toBe('docker.io/*')
  })
})

describe('images', () => {
  it('parses every container image by container kind and name', () => {
    const deployment: JsonObject = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd' },
      spec: {
        template: {
          spec: {
            initContainers: [{ name: 'init', image: 'ghcr.io/org/init:v1' }],
            containers: [
              { name: 'app', image: 'nginx' },
              { name: 'pinned', image: `registry.k8s.io/pause@sha256:${'a'.repeat(64)}` },
              { name: 'no-image' },
            ],
          },
        },
      },
    }
    const context = buildKyvernoContext({ object: deployment })
    expect(context.query('images')).toEqual({
      initContainers: {
        init: {
          registry: 'ghcr.io',
          name: 'init',
          path: 'org/init',
          tag: 'v1',
          reference: 'ghcr.io/org/init:v1',
          referenceWithTag: 'ghcr.io/org/init:v1',
          jsonPointer: '/spec/template/spec/initContainers/0/image',
        },
      },
      containers: {
        app: {
          registry: 'docker.io',
          name: 'nginx',
          path: 'nginx',
          tag: 'latest',
          reference: 'docker.io/nginx:latest',
          referenceWithTag: 'docker.io/nginx:latest',
          jsonPointer: '/spec/template/spec/containers/0/image',
        },
        pinned: {
          registry: 'registry.k8s.io',
          name: 'pause',
          path: 'pause',
          digest: `sha256:${'a'.repeat(64)}`,
          reference: `registry.k8s.io/pause@sha256:${'a'.repeat(64)}`,
          referenceWithTag: 'registry.k8s.io/pause:',
          jsonPointer: '/spec/template/spec/containers/1/image',
        },
      },
    })
    expect(context.query('images.containers.app.tag')).toBe('latest')
    expect(context.query('images.containers.*.registry')).toEqual(['docker.io', 'registry.k8s.io'])
  })

  it('reads CronJob templates, has no images for other kinds, and fails only queries naming images on a bad one', () => {
    const cronJob = { kind: 'CronJob', spec: { jobTemplate: { spec: { template: { spec: { containers: [{ name: 'c', image: 'busybox:1.36' }] } } } } } }
    expect(buildKyvernoContext({ object: cronJob }).query('images.containers.c.path')).toBe('busybox')
    const configMap = buildKyvernoContext({ object: { kind: 'ConfigMap', metadata: { name: 'x' } } })
    expect(errorOf(() => configMap.query('images')).message).toContain('Unknown key "images"')
    const bad = buildKyvernoContext({ object: { kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'Bad:Image' }] } } })
    expect(bad.query('request.object.metadata.name')).toBe('p')
    expect(errorOf(() => bad.query('images.containers.c')).message).toContain("invalid image 'Bad:Image'")
  })
})

describe('foreach elements', () => {
  it('sets element and elementIndex, numbered by nesting, and leaves the parent unchanged', () => {
    const rule = buildKyvernoContext({ object: pod })
    const elements = rule.queryList('request.object.spec.containers')
    expect(elements).toHaveLength(1)
    const outer = rule.withElement(elements[0] ?? null, 0)
    expect(outer.query('element.name')).toBe('nginx')
    expect(outer.query('element0.image')).toBe('nginx:1.25')
    expect(outer.query('elementIndex')).toBe(0)
    const inner = outer.withElement('x', 3, 1)
    expect(inner.query('[element, elementIndex, element0.name, element1, elementIndex1]')).toEqual(['x', 3, 'nginx', 'x', 3])
    expect(errorOf(() => rule.query('element')).message).toContain('Unknown key "element"')
    expect(rule.queryList('request.object.metadata.name')).toEqual(['web'])
  })
})

describe('context entries', () => {
  const base = (): ReturnType<typeof buildKyvernoContext> => buildKyvernoContext({ object: pod })

  it('variable: value with variables substituted, jmesPath over the context or over the value, default', () => {
    const context = withContextEntries(base(), [
      { name: 'appName', variable: { value: '{{ request.object.metadata.labels.app }}-svc' } },
      { name: 'images', variable: { jmesPath: 'request.object.spec.containers[].image' } },
      { name: 'first', variable: { value: ['a', 'b'], jmesPath: '[0]' } },
      { name: 'team', variable: { jmesPath: 'request.object.metadata.labels.team', default: 'none' } },
      { name: 'chained', variable: { jmesPath: 'appName' } },
    ])
    expect(context.query('appName')).toBe('web-svc')
    expect(context.query('images')).toEqual(['nginx:1.25'])
    expect(context.query('first')).toBe('a')
    expect(context.query('team')).toBe('none')
    expect(context.query('chained')).toBe('web-svc')
  })

  it('variable: fails when it ends up null, only for queries that name it', () => {
    const context = withContextEntries(base(), [{ name: 'missing', variable: { jmesPath: 'request.object.metadata.labels.team' } }])
    expect(context.query('request.object.metadata.name')).toBe('web')
    const error = errorOf(() => context.query('missing'))
    expect(error.message).toMatch(/^failed to apply jmespath request\.object\.metadata\.labels\.team to variable <nil>: JMESPath query failed: Unknown key "team"/)
    expect(errorOf(() => context.query('missing')).message).toBe(error.message)
    const nullValue = withContextEntries(base(), [{ name: 'n', variable: { jmesPath: 'request.object.metadata.labels.tier || `null`' } }])
    expect(errorOf(() => nullValue.query('n')).message).toBe('failed to add context entry for variable n since it evaluated to nil')
  })

  it('variable: sees only earlier entries while it loads', () => {
    const context = withContextEntries(base(), [
      { name: 'a', variable: { jmesPath: 'b' } },
      { name: 'b', variable: { value: 'B' } },
    ])
    expect(errorOf(() => context.query('a')).message).toContain('Unknown key "b"')
    expect(context.query('b')).toBe('B')
  })

  it('configMap: reads {data, metadata} of a provided ConfigMap, names substituted, default namespace', () => {
    const configMaps: JsonObject[] = [
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'registries', namespace: 'default' }, data: { allowed: 'ghcr.io' } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web-settings', namespace: 'shop' }, data: { replicas: '3' } },
    ]
    const context = withContextEntries(
      base(),
      [
        { name: 'registries', configMap: { name: 'registries' } },
        { name: 'settings', configMap: { name: '{{ request.object.metadata.name }}-settings', namespace: '{{ request.namespace }}' } },
        { name: 'absent', configMap: { name: 'nope', namespace: 'shop' } },
      ],
      { configMaps },
    )
    expect(context.query('registries.data.allowed')).toBe('ghcr.io')
    expect(context.query('registries.metadata')).toEqual({ name: 'registries', namespace: 'default', creationTimestamp: null })
    expect(context.query('settings.data.replicas')).toBe('3')
    expect(errorOf(() => context.query('absent.data')).message).toBe(
      'failed to retrieve config map for context entry absent: failed to get configmap shop/nope : configmaps "nope" not found',
    )
  })

  it('configMap: a namespaced policy reads only its own namespace', () => {
    const context = withContextEntries(base(), [{ name: 'cm', configMap: { name: 'x', namespace: 'other' } }], {
      configMaps: () => ({ data: {} }),
      policyNamespace: 'shop',
    })
    expect(errorOf(() => context.query('cm')).message).toContain('configMap namespace "other" is different from policy namespace "shop"')
  })

  it('apiCall and imageRegistry fail with an error naming the entry, unless a value was given', () => {
    const context = withContextEntries(base(), [
      { name: 'nsLabels', apiCall: { urlPath: '/api/v1/namespaces/{{request.namespace}}' } },
      { name: 'imageData', imageRegistry: { reference: '{{ element.image }}' } },
    ])
    const error = errorOf(() => context.query('nsLabels.metadata'))
    expect(error).toBeInstanceOf(UnsupportedContextEntryError)
    expect(error.message).toContain('context entry "nsLabels": apiCall is not supported by Verdict')
    expect(errorOf(() => context.query('imageData')).message).toContain('context entry "imageData": imageRegistry')
    expect(context.query('request.object.metadata.name')).toBe('web')

    const mocked = withContextEntries(base().withVariables({ 'imageData.configData.created': '2020-05-01T03:15:12-07:00' }), [
      { name: 'imageData', imageRegistry: { reference: 'x' } },
    ])
    expect(mocked.query('imageData.configData.created')).toBe('2020-05-01T03:15:12-07:00')
  })

  it('refuses an entry of no known kind', () => {
    expect(errorOf(() => withContextEntries(base(), [{ name: 'x' }])).message).toBe('missing ConfigMap|APICall|ImageRegistry|Variable in context entry x')
  })

  it('scopes entries to the context that declared them', () => {
    const rule = withContextEntries(base(), [{ name: 'x', variable: { value: 1 } }])
    expect(rule.query('x')).toBe(1)
    expect(errorOf(() => base().query('x')).message).toContain('Unknown key "x"')
    const element = withContextEntries(rule.withElement({ n: 2 }, 0), [{ name: 'y', variable: { jmesPath: 'add(x, element.n)' } }])
    expect(element.query('y')).toBe(3)
    expect(errorOf(() => rule.query('y')).message).toContain('Unknown key "y"')
  })

  it('wraps substitution failures in an entry with Kyverno\'s message', () => {
    const context = withContextEntries(base(), [{ name: 'v', variable: { value: '{{ request.object.nothing }}' } }])
    const error = errorOf(() => context.query('v'))
    expect(error).toBeInstanceOf(JmespathError)
    expect(error.message).toBe(
      'failed to substitute variables in context entry v {{ request.object.nothing }}: failed to resolve request.object.nothing at path : JMESPath query failed: Unknown key "nothing" in path',
    )
  })
})

describe('a context that remembers its queries', () => {
  it('answers a pure query from memory, and computes any other each time', () => {
    const images = 'request.object.spec.containers[].image'
    const remembering = buildKyvernoContext({ object: pod }).rememberQueries()
    expect(remembering.query(images)).toEqual(['nginx:1.25'])
    expect(remembering.query(images)).toBe(remembering.query(images))
    const plain = buildKyvernoContext({ object: pod })
    expect(plain.query(images)).not.toBe(plain.query(images))
    // A function call may read the clock or chance: never remembered.
    expect(remembering.query('to_array(request.object.metadata.name)')).not.toBe(remembering.query('to_array(request.object.metadata.name)'))
    expect(prepareQuery('time_now()').pure).toBe(false)
    expect(prepareQuery("request.operation || 'BACKGROUND'").pure).toBe(true)
  })

  it('forgets what it remembered once any variable changes, as when an entry loads', () => {
    const context = withContextEntries(buildKyvernoContext({ object: pod }), [{ name: 'extra', variable: { value: 'E' } }]).rememberQueries()
    expect(Object.keys(context.query('@') as JsonObject)).not.toContain('extra')
    expect(context.query('extra')).toBe('E')
    expect(Object.keys(context.query('@') as JsonObject)).toContain('extra')
  })

  it('does not remember errors', () => {
    const context = withContextEntries(buildKyvernoContext({ object: pod }), [{ name: 'missing', variable: { jmesPath: 'request.object.metadata.labels.team' } }]).rememberQueries()
    const first = errorOf(() => context.query('request.object.metadata.labels.team'))
    const second = errorOf(() => context.query('request.object.metadata.labels.team'))
    expect(second.message).toBe(first.message)
    expect(second).not.toBe(first)
    expect(errorOf(() => context.query('')).message).toBe('invalid query (nil)')
    expect(errorOf(() => context.query('a[')).message).toMatch(/^incorrect query a\[: /)
  })
})
