import { describe, expect, it } from 'vitest'
import { LoadError } from '../../../src/engine/load/load-error.js'
import { loadDefinitions } from '../../../src/engine/load/load-definitions.js'
import { parseDocuments } from '../../../src/engine/load/parse-documents.js'

const manifests = `
apiVersion: verdict.dev/v1alpha1
kind: Ruleset
metadata:
  name: pods
  labels: {platform: kubernetes}
spec:
  rules:
  - name: no-latest
    match: {kinds: [Pod]}
    validate:
      cel:
      - expression: "object.spec.containers.all(c, !c.image.endsWith(':latest'))"
---
# an empty document between two is allowed
---
apiVersion: verdict.dev/v1alpha1
kind: Policy
metadata: {name: prod}
spec:
  rulesets: [pods]
  action: Deny
`

function loadError(run: () => unknown): LoadError {
  try {
    run()
  } catch (error) {
    if (error instanceof LoadError) return error
    throw error
  }
  throw new Error('expected a LoadError')
}

describe('loadDefinitions', () => {
  it('reads manifests from a multi-document YAML file, metadata labels included', () => {
    const loaded = loadDefinitions(parseDocuments(manifests, 'defs.yaml'))
    expect(loaded.rulesets).toEqual([
      {
        name: 'pods',
        labels: { platform: 'kubernetes' },
        rules: [
          {
            name: 'no-latest',
            match: { kinds: ['Pod'] },
            validate: { cel: [{ expression: "object.spec.containers.all(c, !c.image.endsWith(':latest'))" }] },
          },
        ],
      },
    ])
    expect(loaded.policies).toEqual([{ name: 'prod', rulesets: ['pods'], action: 'Deny' }])
  })

  it('reads the plain form from JSON', () => {
    const text = JSON.stringify({ name: 'plain', description: 'd', rules: [{ name: 'r', validate: { cel: [{ expression: 'true' }] } }] })
    expect(loadDefinitions(parseDocuments(text, 'plain.json')).rulesets).toEqual([
      { name: 'plain', description: 'd', rules: [{ name: 'r', validate: { cel: [{ expression: 'true' }] } }] },
    ])
  })

  it('names file, document and field of every problem', () => {
    const text = `${manifests}---
apiVersion: verdict.dev/v1alpha1
kind: Ruleset
metadata: {name: broken}
spec:
  rules:
  - name: a
    validate: {cel: [{expression: "true"}]}
    sevrity: high
`
    const error = loadError(() => loadDefinitions(parseDocuments(text, 'defs.yaml')))
    expect(error.problems).toEqual([{ source: 'defs.yaml', document: 4, path: 'spec.rules[0].sevrity', message: 'unknown field "sevrity"' }])
    expect(error.message).toBe('defs.yaml, document 4: spec.rules[0].sevrity: unknown field "sevrity"')
  })

  it('reports malformed YAML with its document and line', () => {
    const text = 'name: a\nrules: []\n---\nname: b\nrules: [\n'
    const error = loadError(() => parseDocuments(text, 'bad.yaml'))
    expect(error.problems).toHaveLength(1)
    expect(error.problems[0]).toMatchObject({ source: 'bad.yaml', document: 2 })
    expect(error.problems[0]?.message).toMatch(/^invalid YAML at line \d+, column \d+: /)
  })

  it('reports malformed JSON', () => {
    const error = loadError(() => parseDocuments('{"name": ', 'bad.json'))
    expect(error.problems[0]).toMatchObject({ source: 'bad.json', document: 1 })
    expect(error.problems[0]?.message).toMatch(/^invalid JSON: /)
  })

  it('refuses a wrong apiVersion or kind, and a document of neither form', () => {
    const error = loadError(() =>
      loadDefinitions(
        parseDocuments('apiVersion: verdict.dev/v2\nkind: Ruleset\n---\napiVersion: verdict.dev/v1alpha1\nkind: Rule\n---\nfoo: 1\n', 'x.yaml'),
      ),
    )
    expect(error.problems).toEqual([
      { source: 'x.yaml', document: 1, path: 'apiVersion', message: 'must be verdict.dev/v1alpha1 (got "verdict.dev/v2")' },
      { source: 'x.yaml', document: 2, path: 'kind', message: 'must be Ruleset or Policy (got "Rule")' },
      { source: 'x.yaml', document: 3, path: '', message: 'is neither a ruleset (needs rules) nor a policy (needs rulesets or rulesetSelector)' },
    ])
  })

  it('expands a kind: List', () => {
    const text = JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [{ name: 'a', rules: [{ name: 'r', validate: { cel: [{ expression: 'true' }] } }] }] })
    expect(loadDefinitions(parseDocuments(text, 'list.json')).rulesets.map((r) => r.name)).toEqual(['a'])
  })
})
