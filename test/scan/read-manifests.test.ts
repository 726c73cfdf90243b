import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ManifestError } from '../../src/scan/manifests/manifest-error.js'
import { objectRef, type ManifestObject } from '../../src/scan/manifests/manifest-object.js'
import { readManifests } from '../../src/scan/manifests/read-manifests.js'
import { ScanInputError } from '../../src/scan/scan-error.js'
import { scanFixture } from './scan-fixtures.js'

function read(paths: string[], stdin = ''): { objects: ManifestObject[]; warnings: string[] } {
  const warnings: string[] = []
  const objects = readManifests(paths, { readStdin: () => stdin, warn: (message) => warnings.push(message) })
  return { objects, warnings }
}

function refs(paths: string[], stdin?: string): unknown[] {
  return read(paths, stdin).objects.map(objectRef)
}

function readError(paths: string[], stdin?: string): ManifestError {
  try {
    read(paths, stdin)
  } catch (error) {
    if (error instanceof ManifestError) return error
    throw error
  }
  throw new Error('the read did not fail')
}

describe('readManifests', () => {
  const workloads = scanFixture('manifests/workloads.yaml')

  it('reads every document of multi-document YAML at the line its mapping starts, skipping empty ones and warning of non-objects', () => {
    const { objects, warnings } = read([workloads])
    expect(objects.map(objectRef)).toEqual([
      { file: workloads, line: 2, apiVersion: 'v1', kind: 'Pod', namespace: 'shop', name: 'good' },
      { file: workloads, line: 13, apiVersion: 'v1', kind: 'Pod', namespace: 'shop', name: 'bad' },
      { file: workloads, line: 27, apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'settings' },
    ])
    expect(objects[1]?.value).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'bad', namespace: 'shop' },
      spec: { containers: [{ name: 'web', image: 'nginx:latest' }] },
    })
    expect(warnings).toEqual([`${workloads}:25: not a Kubernetes object (no apiVersion or kind), skipped`])
  })

  it('puts the items of a kubectl List in its place, each at its own line', () => {
    const list = scanFixture('manifests/pods-list.yaml')
    expect(refs([list])).toEqual([
      { file: list, line: 3, apiVersion: 'v1', kind: 'Pod', namespace: 'prod', name: 'api-1' },
      { file: list, line: 14, apiVersion: 'v1', kind: 'Pod', namespace: 'prod', name: 'api-2' },
    ])
  })

  it('locates the items of a JSON List (kubectl get -o json) too', () => {
    const json = scanFixture('manifests/deployments.json')
    expect(refs([json])).toEqual([{ file: json, line: 4, apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'prod', name: 'billing' }])
  })

  it('reads helm template output: the # Source: template of each document, empty templates passed over', () => {
    const helm = scanFixture('manifests/helm-output.yaml')
    const { objects, warnings } = read([helm])
    expect(objects.map(objectRef)).toEqual([
      { file: helm, line: 3, template: 'shop/templates/service.yaml', apiVersion: 'v1', kind: 'Service', namespace: null, name: 'shop-web' },
      { file: helm, line: 17, template: 'shop/templates/deployment.yaml', apiVersion: 'apps/v1', kind: 'Deployment', namespace: null, name: 'shop-web' },
    ])
    expect(warnings).toEqual([])
  })

  it('walks directories for *.yaml, *.yml and *.json in sorted order', () => {
    const files = read([scanFixture('manifests')]).objects.map((object) => `${relative(scanFixture(''), object.file)}:${object.line}`)
    expect(files).toEqual([
      'manifests/deployments.json:4',
      'manifests/helm-output.yaml:3',
      'manifests/helm-output.yaml:17',
      'manifests/pods-list.yaml:3',
      'manifests/pods-list.yaml:14',
      'manifests/workloads.yaml:2',
      'manifests/workloads.yaml:13',
      'manifests/workloads.yaml:27',
    ])
  })

  it('reads standard input for - and when no path is given, as YAML or JSON by its first character', () => {
    const yaml = 'apiVersion: v1\nkind: Namespace\nmetadata: {name: shop}\n'
    expect(refs(['-'], yaml)).toEqual([{ file: 'stdin', line: 1, apiVersion: 'v1', kind: 'Namespace', namespace: null, name: 'shop' }])
    expect(refs([], `\n\n${JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'json' } })}`)).toEqual([
      { file: 'stdin', line: 3, apiVersion: 'v1', kind: 'Namespace', namespace: null, name: 'json' },
    ])
  })

  it('counts lines past a byte order mark, CRLF line ends, anchors, tags and a List whose items are an alias', () => {
    const text = '\uFEFF# header\r\napiVersion: v1\r\nkind: Pod\r\nmetadata: {name: a}\r\n---\r\n&pod\r\n!!map\r\napiVersion: v1\r\nkind: Pod\r\nmetadata: {name: b}\r\n'
    expect(refs(['-'], text).map((ref) => (ref as { line: number }).line)).toEqual([2, 6])
    const aliased = '---\napiVersion: v1\nkind: List\npods: &pods\n- {apiVersion: v1, kind: Pod, metadata: {name: c}}\nitems: *pods\n'
    expect(refs(['-'], aliased)).toEqual([{ file: 'stdin', line: 2, apiVersion: 'v1', kind: 'Pod', namespace: null, name: 'c' }])
  })

  it('warns of List items and documents that are not objects, at their own lines', () => {
    const text = 'apiVersion: v1\nkind: List\nitems:\n- just text\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: a}\n- {kind: Pod}\n---\n- a sequence\n'
    const { objects, warnings } = read(['-'], text)
    expect(objects.map((object) => [object.name, object.line])).toEqual([['a', 5]])
    expect(warnings).toEqual([
      'stdin:4: not a Kubernetes object (no apiVersion or kind), skipped',
      'stdin:8: not a Kubernetes object (no apiVersion or kind), skipped',
      'stdin:10: not a Kubernetes object (no apiVersion or kind), skipped',
    ])
  })

  it('refuses bad YAML naming the file, line and column, and returns nothing of the other files', () => {
    const broken = scanFixture('bad/broken.yaml')
    const error = readError([workloads, broken])
    expect(error.message).toBe(`${broken}:10:2: invalid YAML: bad indentation of a mapping entry`)
    expect({ file: error.file, line: error.line }).toEqual({ file: broken, line: 10 })
    expect(error).toBeInstanceOf(ScanInputError)
  })

  it('refuses bad JSON naming the file and line, where JSON.parse names no position', () => {
    const broken = scanFixture('bad/broken.json')
    expect(readError([broken]).message).toBe(`${broken}:4:33: invalid JSON: unexpected "}", expected a property name in double quotes`)
    expect(readError(['-'], '{"kind": "Pod",\n "metadata": {"name": tru}}').message).toBe('stdin:2:23: invalid JSON: unexpected "t", expected a value')
  })

  it('refuses duplicate keys, as the engine does', () => {
    expect(readError(['-'], 'apiVersion: v1\nkind: Pod\nkind: Service\n').message).toMatch(/^stdin:3:1: invalid YAML: duplicated mapping key/)
  })

  describe('on the file system', () => {
    const dir = mkdtempSync(join(tmpdir(), 'verdict-scan-'))
    afterAll(() => rmSync(dir, { recursive: true, force: true }))

    it('walks nested directories, skips hidden ones and other extensions, survives a link cycle, reads a named file whatever its name', () => {
      const pod = (name: string): string => `apiVersion: v1\nkind: Pod\nmetadata: {name: ${name}}\n`
      mkdirSync(join(dir, 'tree', 'b', 'c'), { recursive: true })
      mkdirSync(join(dir, 'tree', '.git'))
      writeFileSync(join(dir, 'tree', 'b', 'c', 'deep.yml'), pod('deep'))
      writeFileSync(join(dir, 'tree', 'a.YAML'), pod('a'))
      writeFileSync(join(dir, 'tree', '.git', 'hidden.yaml'), pod('hidden'))
      writeFileSync(join(dir, 'tree', 'notes.txt'), pod('txt'))
      symlinkSync(join(dir, 'tree'), join(dir, 'tree', 'b', 'loop'))
      writeFileSync(join(dir, 'manifest'), pod('named'))
      expect(read([join(dir, 'tree'), join(dir, 'manifest')]).objects.map((object) => object.name)).toEqual(['a', 'deep', 'named'])
    })

    it('names a path that does not exist', () => {
      expect(() => read([join(dir, 'nope')])).toThrow(new ScanInputError(`${join(dir, 'nope')}: cannot read: ENOENT`))
    })
  })
})
