import { Ajv, type ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as yaml from 'js-yaml'
import { CustomResourceDefinition } from 'kubernetes-models/apiextensions.k8s.io/v1'
import { describe, expect, it } from 'vitest'
import { CRD_DIRECTORIES, crdFiles } from '../../src/k8s/crd-files.js'
import { policyCrd, policyExceptionCrd, rulesetCrd } from '../../src/k8s/crd-manifests.js'
import { toStructuralSchema, UnsupportedSchemaError } from '../../src/k8s/structural-schema.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')

type Schema = Record<string, unknown>

describe('the CRDs', () => {
  it.each(CRD_DIRECTORIES.flatMap((directory) => crdFiles().map((file) => [directory, file.name, file.content] as const)))(
    '%s/%s is what `npm run generate:crds` writes from the model now',
    (directory, name, content) => {
      let committed: string
      try {
        committed = readFileSync(join(root, directory, name), 'utf8')
      } catch {
        committed = '(missing)'
      }
      expect(committed, `${directory}/${name} is stale: run npm run generate:crds`).toBe(content)
    },
  )

  it.each([
    ['rulesets.verdict.dev', rulesetCrd()],
    ['policies.verdict.dev', policyCrd()],
  ])('%s is a valid apiextensions.k8s.io/v1 CustomResourceDefinition with a structural schema', (_name, crd) => {
    expect(() => new CustomResourceDefinition(crd as ConstructorParameters<typeof CustomResourceDefinition>[0]).validate()).not.toThrow()
    const version = crd.spec.versions[0]
    expect(version).toMatchObject({ name: 'v1alpha1', served: true, storage: true, subresources: { status: {} } })
    expect(crd.spec.scope).toBe('Cluster')
    expect(structuralProblems(version?.schema.openAPIV3Schema as unknown as Schema, '')).toEqual([])
    expect(version?.additionalPrinterColumns.map((column) => [column.name, column.jsonPath])).toEqual(
      expect.arrayContaining([
        ['Rules', '.status.rules'],
        ['Ready', '.status.conditions[?(@.type=="Ready")].status'],
        ['Age', '.metadata.creationTimestamp'],
      ]),
    )
  })

  it('policyexceptions.verdict.dev is a valid CustomResourceDefinition with a structural schema, Ready and Expired columns', () => {
    const crd = policyExceptionCrd()
    expect(() => new CustomResourceDefinition(crd as ConstructorParameters<typeof CustomResourceDefinition>[0]).validate()).not.toThrow()
    const version = crd.spec.versions[0]
    expect(version).toMatchObject({ name: 'v1alpha1', served: true, storage: true, subresources: { status: {} } })
    expect(crd.spec.scope).toBe('Cluster')
    expect(crd.spec.names).toMatchObject({ kind: 'PolicyException', plural: 'policyexceptions' })
    expect(structuralProblems(version?.schema.openAPIV3Schema as unknown as Schema, '')).toEqual([])
    expect(version?.additionalPrinterColumns.map((column) => column.name)).toEqual(['Expires', 'Ready', 'Expired', 'Reason', 'Age'])
    const validate = validatorFor(crd)
    const manifest = {
      apiVersion: 'verdict.dev/v1alpha1',
      kind: 'PolicyException',
      metadata: { name: 'log-shipper' },
      spec: { policies: ['baseline-*'], rules: [{ ruleset: 'pod-hardening', rule: 'no-privileged' }], match: { kinds: ['Pod'], namespaces: ['logging'] }, reason: 'host logs', expiresAt: '2027-01-01T00:00:00Z' },
    }
    expect(validate(manifest)).toBe(true)
    expect(validate({ ...manifest, spec: { ...manifest.spec, reason: undefined } })).toBe(false)
  })

  it('keeps any JSON where the model does (patterns, autogen, template parameters) and maps labels', () => {
    const spec = specSchemaOf(rulesetCrd())
    const rule = ['properties', 'rules', 'items', 'properties']
    expect(at(spec, ...rule, 'validate', 'properties', 'pattern')).toEqual({ 'x-kubernetes-preserve-unknown-fields': true })
    expect(at(spec, ...rule, 'validate', 'properties', 'anyPattern', 'items')).toEqual({ 'x-kubernetes-preserve-unknown-fields': true })
    expect(at(spec, ...rule, 'autogen')['x-kubernetes-preserve-unknown-fields']).toBe(true)
    expect(at(spec, ...rule, 'template', 'properties', 'parameters')).toEqual({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true })
    expect(at(spec, 'properties', 'labels')).toEqual({ type: 'object', additionalProperties: { type: 'string' } })
    expect(at(spec, ...rule, 'severity')).toEqual({ type: 'string', enum: ['info', 'low', 'medium', 'high', 'critical'] })
  })

  it('stops the generator at a schema construct it cannot express', () => {
    expect(() => toStructuralSchema({ $ref: '#/definitions/x' })).toThrow(UnsupportedSchemaError)
    expect(() => toStructuralSchema({ type: 'object', properties: { a: { allOf: [] } } })).toThrow(/a: keyword "allOf"/)
    expect(() => toStructuralSchema({ type: 'object', patternProperties: { '^x-': { type: 'string' } } })).toThrow(UnsupportedSchemaError)
  })

  describe('validating manifests like the API server', () => {
    const validators = { Ruleset: validatorFor(rulesetCrd()), Policy: validatorFor(policyCrd()) }
    const validate = (document: Schema): string[] => {
      const validator = validators[document.kind as 'Ruleset' | 'Policy']
      return validator(document) ? [] : (validator.errors ?? []).map((error) => `${error.instancePath} ${error.message ?? ''}`)
    }

    it('accepts the example manifests of the README and docs/', () => {
      const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => join('docs', name))]
      const text = pages.map((page) => readFileSync(join(root, page), 'utf8')).join('\n')
      const documents = [...text.matchAll(/```yaml\n([\s\S]*?)```/g)]
        .flatMap((block) => yaml.loadAll(block[1] ?? ''))
        .filter((document): document is Schema => {
          const candidate = document as Schema | null
          return candidate?.apiVersion === 'verdict.dev/v1alpha1' && (candidate.kind === 'Ruleset' || candidate.kind === 'Policy')
        })
      expect(documents.map((document) => document.kind)).toEqual(expect.arrayContaining(['Ruleset', 'Policy']))
      for (const document of documents) expect(validate(document), JSON.stringify(document)).toEqual([])
    })

    const ruleset = (spec: unknown): Schema => ({ apiVersion: 'verdict.dev/v1alpha1', kind: 'Ruleset', metadata: { name: 'r' }, spec })
    const policy = (spec: unknown): Schema => ({ apiVersion: 'verdict.dev/v1alpha1', kind: 'Policy', metadata: { name: 'p' }, spec })
    const rule = { name: 'r1', validate: { cel: [{ expression: 'true' }] } }

    it.each([
      ['a ruleset without spec', { apiVersion: 'verdict.dev/v1alpha1', kind: 'Ruleset', metadata: { name: 'r' } }, /must have required property 'spec'/],
      ['a ruleset without rules', ruleset({ description: 'x' }), /rules/],
      ['an empty rule list', ruleset({ rules: [] }), /must NOT have fewer than 1 items/],
      ['a rule without a name', ruleset({ rules: [{ validate: { cel: [{ expression: 'true' }] } }] }), /name/],
      ['a rule without validate', ruleset({ rules: [{ name: 'x' }] }), /validate/],
      ['an unknown severity', ruleset({ rules: [{ ...rule, severity: 'urgent' }] }), /allowed values/],
      ['an unknown operation', ruleset({ rules: [{ ...rule, match: { operations: ['PATCH'] } }] }), /allowed values/],
      ['an empty CEL expression', ruleset({ rules: [{ name: 'x', validate: { cel: [{ expression: '' }] } }] }), /fewer than 1 characters/],
      ['a label that is not a string', ruleset({ labels: { tier: 1 }, rules: [rule] }), /must be string/],
      ['a misspelt field (strict field validation)', ruleset({ rules: [{ ...rule, severty: 'high' }] }), /additional properties/],
      ['an unknown action', policy({ rulesets: ['a'], action: 'Block' }), /allowed values/],
      ['a ruleset name that is not a DNS name', policy({ rulesets: ['Pod_Hygiene'] }), /pattern/],
      ['admission that is not a boolean', policy({ rulesets: ['a'], admission: 'yes' }), /must be boolean/],
    ])('rejects %s', (_what, document, message) => {
      expect(validate(document).join('\n')).toMatch(message)
    })

    it('leaves to the controller what a schema cannot say (one validate kind, CEL syntax)', () => {
      expect(validate(ruleset({ rules: [{ name: 'x', validate: { cel: [{ expression: 'object.(' }] } }] }))).toEqual([])
      expect(validate(ruleset({ rules: [{ name: 'x', autogen: { controllers: ['Deployment'] }, validate: { pattern: { spec: { x: '?*' } } } }] }))).toEqual([])
    })
  })
})

function specSchemaOf(crd: ReturnType<typeof rulesetCrd>): Schema {
  return at(crd.spec.versions[0]?.schema.openAPIV3Schema, 'properties', 'spec')
}

/** The schema node at a path of keys; fails the test when there is none. */
function at(node: unknown, ...path: string[]): Schema {
  let current = node
  for (const key of path) {
    current = (current as Schema | undefined)?.[key]
    if (current === undefined) throw new Error(`no schema at ${path.join('.')}`)
  }
  return current as Schema
}

/**
 * The structural-schema rules of apiextensions.k8s.io/v1 the generator must keep: a type on every
 * node unless it preserves unknown fields, no types or descriptions inside anyOf/allOf/oneOf/not,
 * no additionalProperties beside properties, no $ref, no const.
 */
function structuralProblems(node: Schema, path: string): string[] {
  const problems: string[] = []
  if (node.type === undefined && node['x-kubernetes-preserve-unknown-fields'] !== true) problems.push(`${path}: no type`)
  if (node.properties !== undefined && node.additionalProperties !== undefined) problems.push(`${path}: properties and additionalProperties`)
  for (const keyword of ['$ref', 'const', 'allOf', 'oneOf', 'not', 'patternProperties', 'definitions', '$defs']) {
    if (node[keyword] !== undefined) problems.push(`${path}: ${keyword}`)
  }
  for (const branch of (node.anyOf as Schema[] | undefined) ?? []) {
    for (const keyword of ['type', 'description', 'default', 'additionalProperties', 'nullable']) if (branch[keyword] !== undefined) problems.push(`${path}: anyOf with ${keyword}`)
  }
  for (const [name, child] of Object.entries((node.properties as Record<string, Schema> | undefined) ?? {})) problems.push(...structuralProblems(child, `${path}.${name}`))
  if (node.items) problems.push(...structuralProblems(node.items as Schema, `${path}[]`))
  if (typeof node.additionalProperties === 'object') problems.push(...structuralProblems(node.additionalProperties as Schema, `${path}{}`))
  return problems
}

/**
 * ajv on the generated openAPIV3Schema. Unknown fields fail, as under kubectl's default strict
 * field validation (the API server would otherwise prune them): every object with properties gets
 * additionalProperties: false, except metadata.
 */
function validatorFor(crd: ReturnType<typeof rulesetCrd>): ValidateFunction {
  const ajv = new Ajv({ strict: false, allErrors: true })
  const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv
  addFormats(ajv)
  ajv.addFormat('int64', true)
  const schema = strict(structuredClone(crd.spec.versions[0]?.schema.openAPIV3Schema) as unknown as Schema, '')
  return ajv.compile(schema)
}

function strict(node: Schema, path: string): Schema {
  if (node.properties && path !== '.metadata') node.additionalProperties = false
  for (const [name, child] of Object.entries((node.properties as Record<string, Schema> | undefined) ?? {})) strict(child, `${path}.${name}`)
  if (node.items) strict(node.items as Schema, `${path}[]`)
  if (typeof node.additionalProperties === 'object' && node.additionalProperties) strict(node.additionalProperties as Schema, `${path}{}`)
  return node
}
