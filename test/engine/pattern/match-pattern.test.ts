import { describe, expect, it } from 'vitest'
import { failurePath, match, pod, status } from './pattern-helpers.js'

describe('pattern structure (Kyverno pkg/engine/validate)', () => {
  it('fails when a field of the pattern is missing from the resource, and treats fields it does not name as wildcards', () => {
    const pattern = { spec: { containers: [{ resources: { limits: { memory: '?*' } } }] } }
    expect(status(pattern, pod({ containers: [{ name: 'a', image: 'x', resources: { limits: { memory: '1Gi' } } }] }))).toBe('pass')
    expect(failurePath(pattern, pod({ containers: [{ name: 'a', image: 'x' }] }))).toBe('/spec/containers/0/resources/')
    expect(failurePath(pattern, pod({ containers: [{ name: 'a', resources: { limits: {} } }] }))).toBe('/spec/containers/0/resources/limits/memory/')
  })

  it('reports the first failing item of a list', () => {
    const pattern = { spec: { containers: [{ securityContext: { privileged: false } }] } }
    const resource = pod({ containers: [{ securityContext: { privileged: false } }, { securityContext: { privileged: true } }] })
    expect(failurePath(pattern, resource)).toBe('/spec/containers/1/securityContext/privileged/')
  })

  it('"*" asks only that the field be set, and names its parent when it is not', () => {
    expect(status({ metadata: { labels: { app: '*' } } }, pod({}, { labels: { app: '' } }))).toBe('pass')
    expect(failurePath({ metadata: { labels: { app: '*' } } }, pod({}, { labels: {} }))).toBe('/metadata/labels/')
    expect(failurePath({ spec: { hostNetwork: '*' } }, pod({ hostNetwork: null }))).toBe('/spec/')
  })

  it('a map pattern needs a map, a list pattern a list', () => {
    expect(failurePath({ spec: { securityContext: { runAsNonRoot: true } } }, pod({ securityContext: 'x' }))).toBe('/spec/securityContext/')
    expect(failurePath({ spec: { containers: [{ name: '*' }] } }, pod({ containers: { name: 'a' } }))).toBe('/spec/containers/')
  })

  it('a list of scalars is matched item by item against the first pattern item, naming the list', () => {
    const pattern = { spec: { externalIPs: ['10.*'] } }
    expect(status(pattern, { spec: { externalIPs: ['10.0.0.1', '10.0.0.2'] } })).toBe('pass')
    expect(failurePath(pattern, { spec: { externalIPs: ['10.0.0.1', '192.168.0.1'] } })).toBe('/spec/externalIPs/')
    // A scalar pattern under a list field applies to every item as well; an empty list has none to fail.
    expect(status({ spec: { externalIPs: '10.*' } }, { spec: { externalIPs: ['10.0.0.1'] } })).toBe('pass')
    expect(status({ spec: { externalIPs: '10.*' } }, { spec: { externalIPs: [] } })).toBe('pass')
  })

  it('lists of lists match item by item, and a shorter resource list is an error with no path', () => {
    const pattern = { data: [['a*'], ['b*']] }
    expect(status(pattern, { data: [['a1'], ['b1']] })).toBe('pass')
    expect(failurePath(pattern, { data: [['a1'], ['c1']] })).toBe('/data/1/')
    expect(match(pattern, { data: [['a1']] })).toEqual({
      status: 'error',
      reason: 'validate Array failed, array length mismatch, resource Array len is 1 and pattern Array len is 2',
    })
  })

  describe('conditional anchor (key): if the key is there and matches, its siblings must match', () => {
    // The Kyverno documentation: if the image has tag latest, imagePullPolicy cannot be IfNotPresent.
    const pattern = { spec: { containers: [{ '(image)': '*:latest', imagePullPolicy: '!IfNotPresent' }] } }

    it('checks the siblings of items whose anchor matched', () => {
      expect(failurePath(pattern, pod({ containers: [{ image: 'nginx:latest', imagePullPolicy: 'IfNotPresent' }] }))).toBe('/spec/containers/0/imagePullPolicy/')
      expect(status(pattern, pod({ containers: [{ image: 'nginx:latest', imagePullPolicy: 'Always' }] }))).toBe('pass')
    })

    it('leaves out items whose anchor did not match, and skips the rule when no item is left', () => {
      expect(status(pattern, pod({ containers: [{ image: 'nginx:1.27', imagePullPolicy: 'IfNotPresent' }, { image: 'redis:latest', imagePullPolicy: 'Always' }] }))).toBe('pass')
      expect(match(pattern, pod({ containers: [{ image: 'nginx:1.27', imagePullPolicy: 'IfNotPresent' }] }))).toEqual({
        status: 'skip',
        reason: "conditional anchor mismatch: resource value 'nginx:1.27' does not match '*:latest' at path /spec/containers/0/image/",
      })
    })

    it('skips when the anchored key is absent', () => {
      expect(match({ spec: { '(hostNetwork)': true, hostPID: false } }, pod({ hostPID: true }))).toEqual({
        status: 'skip',
        reason: "conditional anchor mismatch: conditional anchor key doesn't exist in the resource",
      })
    })

    it('treats a conditional anchor with children as part of the "if" (the documentation\'s docker socket example)', () => {
      const dockerSock = {
        metadata: { labels: { 'allow-docker': 'true' } },
        '(spec)': { '(volumes)': [{ '(hostPath)': { path: '/var/run/docker.sock' } }] },
      }
      const socket = { name: 'sock', hostPath: { path: '/var/run/docker.sock' } }
      expect(failurePath(dockerSock, pod({ volumes: [socket] }))).toBe('/metadata/labels/')
      expect(failurePath(dockerSock, pod({ volumes: [socket] }, { labels: { 'allow-docker': 'false' } }))).toBe('/metadata/labels/allow-docker/')
      expect(status(dockerSock, pod({ volumes: [socket] }, { labels: { 'allow-docker': 'true' } }))).toBe('pass')
      expect(status(dockerSock, pod({ volumes: [{ name: 'data', hostPath: { path: '/data' } }] }))).toBe('skip')
      expect(status(dockerSock, pod({ containers: [] }))).toBe('skip')
    })

    it('is an error, not a failure, when the pattern fails while an anchor key was missing everywhere it was looked for', () => {
      // Kyverno reports "rule execution error" when a failing pattern had a conditional or existence
      // anchor whose key the resource never held; once any map held it, failures are failures again.
      const pattern = { spec: { '^(initContainers)': [{ name: '*' }], hostNetwork: false } }
      expect(match(pattern, pod({ hostNetwork: true }))).toEqual({
        status: 'error',
        reason: "resource value 'true' does not match 'false' at path /spec/hostNetwork/",
      })
      expect(status(pattern, pod({ hostNetwork: true, initContainers: [{ name: 'init' }] }))).toBe('fail')
      expect(status(pattern, pod({ hostNetwork: false }))).toBe('pass')
      const conditional = { spec: { containers: [{ '(name)': 'web', image: 'nginx:*' }] } }
      expect(status(conditional, pod({ containers: [{ image: 'x' }, { name: 'web', image: 'redis' }] }))).toBe('fail')
    })
  })

  describe('equality anchor =(key): if the key is there, it must match', () => {
    // The Kyverno documentation: if hostPath is defined, its path cannot be /var/lib.
    const pattern = { spec: { '=(volumes)': [{ '=(hostPath)': { path: '!/var/lib' } }] } }

    it('passes when the key is absent', () => {
      expect(status(pattern, pod({ containers: [] }))).toBe('pass')
      expect(status(pattern, pod({ volumes: [{ name: 'cfg', configMap: { name: 'c' } }] }))).toBe('pass')
    })

    it('checks the children when it is present (they are the "then")', () => {
      expect(status(pattern, pod({ volumes: [{ name: 'd', hostPath: { path: '/data' } }] }))).toBe('pass')
      expect(failurePath(pattern, pod({ volumes: [{ name: 'cfg', configMap: {} }, { name: 'd', hostPath: { path: '/var/lib' } }] }))).toBe('/spec/volumes/1/hostPath/path/')
    })

    it('compares scalars directly', () => {
      const ports = { spec: { containers: [{ '=(ports)': [{ '=(hostPort)': 0 }] }] } }
      expect(status(ports, pod({ containers: [{ ports: [{ containerPort: 80 }] }] }))).toBe('pass')
      expect(failurePath(ports, pod({ containers: [{ ports: [{ containerPort: 80, hostPort: 8080 }] }] }))).toBe('/spec/containers/0/ports/0/hostPort/')
    })
  })

  describe('existence anchor ^(key): at least one item of the list must match', () => {
    // The Kyverno documentation: at least one container must use nginx:latest.
    const pattern = { spec: { '^(containers)': [{ image: 'nginx:latest' }] } }

    it('passes when one item matches, fails naming the list when none does', () => {
      expect(status(pattern, pod({ containers: [{ image: 'redis' }, { image: 'nginx:latest' }] }))).toBe('pass')
      expect(match(pattern, pod({ containers: [{ image: 'redis' }] }))).toMatchObject({
        status: 'fail',
        path: ['spec', 'containers'],
        reason: 'existence anchor validation failed at path /spec/containers/',
      })
    })

    it('needs each pattern of its list matched by some item', () => {
      const both = { spec: { '^(containers)': [{ image: 'nginx:*' }, { image: 'redis:*' }] } }
      expect(status(both, pod({ containers: [{ image: 'redis:7' }, { image: 'nginx:1' }] }))).toBe('pass')
      expect(status(both, pod({ containers: [{ image: 'nginx:1' }] }))).toBe('fail')
    })

    it('passes when the key is absent, and refuses a value that is not a list', () => {
      expect(status(pattern, pod({}))).toBe('pass')
      expect(match(pattern, pod({ containers: { image: 'nginx:latest' } }))).toMatchObject({
        reason: 'invalid resource type map[string]interface {}: Existence ^ () anchor can be used only on list/array type resource',
      })
    })
  })

  describe('negation anchor X(key): the key must not be there, whatever its value', () => {
    const pattern = { spec: { 'X(hostPath)': 'null' } }

    it('fails at the key when it is present, even as null', () => {
      expect(match(pattern, { spec: { hostPath: { path: '/' } } })).toMatchObject({
        status: 'fail',
        path: ['spec', 'hostPath'],
        reason: 'negation anchor matched in resource: /spec/hostPath/ is not allowed',
      })
      expect(status(pattern, { spec: { hostPath: null } })).toBe('fail')
      expect(status(pattern, { spec: {} })).toBe('pass')
    })

    it('fails even when a conditional anchor key elsewhere was missing (negations are failures, never errors)', () => {
      const mixed = { spec: { containers: [{ '(name)': 'x', image: '*' }], 'X(hostNetwork)': 'null' } }
      expect(status(mixed, pod({ hostNetwork: true, containers: [{ image: 'a' }] }))).toBe('fail')
    })
  })

  describe('global anchor <(key): when it does not hold, the whole rule is skipped', () => {
    // The Kyverno documentation: images from corp.reg.com need the imagePullSecret my-registry-secret.
    const pattern = {
      spec: { containers: [{ name: '*', '<(image)': 'corp.reg.com/*' }], imagePullSecrets: [{ name: 'my-registry-secret' }] },
    }

    it('applies the rest of the pattern when the condition holds', () => {
      const resource = pod({ containers: [{ name: 'web', image: 'corp.reg.com/nginx' }], imagePullSecrets: [{ name: 'other-secret' }] })
      expect(failurePath(pattern, resource)).toBe('/spec/imagePullSecrets/0/name/')
      expect(status(pattern, pod({ containers: [{ name: 'web', image: 'corp.reg.com/nginx' }], imagePullSecrets: [{ name: 'my-registry-secret' }] }))).toBe('pass')
    })

    it('skips the rule when it does not hold, however deep it sits', () => {
      expect(match(pattern, pod({ containers: [{ name: 'web', image: 'docker.io/nginx' }] }))).toEqual({
        status: 'skip',
        reason: "global anchor mismatch: resource value 'docker.io/nginx' does not match 'corp.reg.com/*' at path /spec/containers/0/image/",
      })
    })

    it('holds when the key is absent', () => {
      expect(failurePath(pattern, pod({ containers: [{ name: 'web' }] }))).toBe('/spec/imagePullSecrets/')
    })
  })

  describe('wildcards in label and annotation keys', () => {
    it('a negated wildcard key forbids every matching annotation (the documentation\'s Flux example)', () => {
      const pattern = { metadata: { '=(annotations)': { 'X(fluxcd.io/*)': '*?' } } }
      expect(failurePath(pattern, pod({}, { annotations: { 'fluxcd.io/sync': 'true' } }))).toBe('/metadata/annotations/fluxcd.io/sync/')
      expect(status(pattern, pod({}, { annotations: { other: 'x' } }))).toBe('pass')
      expect(status(pattern, pod({}))).toBe('pass')
    })

    it('a wildcard label key reads the first label it matches', () => {
      const pattern = { metadata: { labels: { 'app.kubernetes.io/*': '?*' } } }
      expect(status(pattern, pod({}, { labels: { 'app.kubernetes.io/name': 'web' } }))).toBe('pass')
      expect(failurePath(pattern, pod({}, { labels: { 'app.kubernetes.io/name': '' } }))).toBe('/metadata/labels/app.kubernetes.io/name/')
      // No label matches: the key stays as written, and no resource has a field of that name.
      expect(failurePath(pattern, pod({}, { labels: { team: 'a' } }))).toBe('/metadata/labels/app.kubernetes.io/*/')
    })

    it('keys elsewhere are literal: a * in them is not a wildcard', () => {
      expect(failurePath({ spec: { 'node*': 'a' } }, pod({ nodeName: 'a' }))).toBe('/spec/node*/')
    })
  })
})
