import { describe, expect, it } from 'vitest'
import { CATALOG } from '../../../src/authoring/catalog/index.js'
import { CATALOG_ENTRIES } from '../../../src/authoring/catalog/entries/index.js'
import { pathSegments, templateOf } from '../../../src/authoring/catalog/entry-template.js'
import { textsFor } from '../../../src/authoring/catalog/entry-texts.js'
import type { NamedRequirement } from '../../../src/authoring/catalog/named-requirement.js'
import { VOCABULARY_OF_ENTRIES } from '../../../src/authoring/catalog/vocabulary/index.js'
import { prepareClause } from '../../../src/authoring/text/clause.js'

describe('catalog entries', () => {
  it('are data: each survives a JSON round trip unchanged (no functions, no regular expressions)', () => {
    expect(CATALOG_ENTRIES.length).toBeGreaterThan(0)
    for (const entry of CATALOG_ENTRIES) expect(JSON.parse(JSON.stringify(entry)), entry.id).toEqual(entry)
  })

  it('are the catalog: every entry is a template of it, under its own id', () => {
    const ids = new Set(CATALOG.map((template) => template.id))
    for (const entry of CATALOG_ENTRIES) expect(ids.has(entry.id), entry.id).toBe(true)
  })

  it('refuses an entry naming a piece the vocabulary lacks, when the catalog loads', () => {
    const [first] = CATALOG_ENTRIES as NamedRequirement[]
    if (!first) throw new Error('no entries')
    expect(() => templateOf({ ...first, rule: { use: 'no-such-rule' } }, VOCABULARY_OF_ENTRIES)).toThrow('names rules "no-such-rule", which the vocabulary does not define')
  })

  it('reads words, tests and scores as data', () => {
    const entry: NamedRequirement = {
      id: 'test-entry',
      title: 'test',
      platform: 'kubernetes',
      category: 'workload',
      kinds: ['Pod'],
      phrasings: [],
      parameters: [],
      recognize: { when: { all: [{ mentions: ['host path'] }, { not: { mentions: [{ re: 'volume types?' }] } }] }, score: [{ when: { negated: true }, score: 4 }, { score: 1 }] },
      rule: { use: 'pod-security-check', with: { check: 'host-path', name: 'n', description: 'd', severity: 'high', remediation: 'r' } },
      samples: { bad: [{ description: 'b', edit: { at: 'document', set: { 'metadata.annotations["a.b/c"]': 'x' }, remove: ['spec'] } }] },
    }
    const template = templateOf(entry, VOCABULARY_OF_ENTRIES)
    const clause = (text: string) => prepareClause(text, { platform: 'kubernetes', inheritedKinds: [], vocabulary: new Set() })
    expect(template.recognize(clause('no host path mounts')).score).toBe(4)
    expect(template.recognize(clause('host path mounts need review')).score).toBe(1)
    expect(template.recognize(clause('host path is one of the volume types')).score).toBe(0)
    const document: Record<string, unknown> = { kind: 'Pod', spec: {} }
    const [bad] = template.samples({}).bad
    bad?.edit(document)
    expect(document).toEqual({ kind: 'Pod', metadata: { annotations: { 'a.b/c': 'x' } } })
  })

  it('reads tests with options, readers as tests, parameters asked again, and sample descriptions naming parameters', () => {
    const lowest = { use: 'lower-bound', with: { subject: 'replicas?' } }
    const entry: NamedRequirement = {
      id: 'test-bounds',
      title: 'test',
      platform: 'kubernetes',
      category: 'scaling',
      kinds: ['Deployment'],
      phrasings: [],
      parameters: [{ name: 'minimum', question: 'at least how many?', required: false, example: 2 }],
      recognize: {
        when: { all: [{ mentions: ['replicas'] }, { test: 'names-kinds', with: { kinds: ['Deployment'] } }] },
        score: [{ when: { reads: lowest }, score: 2 }, { score: 1 }],
        parameters: { minimum: lowest },
        missing: [{ parameter: 'minimum', when: { not: { reads: lowest } } }],
      },
      rule: { use: 'object-rule', with: { parameters: { minimum: { as: 'number' } }, name: 'at-least-{minimum}', description: 'd', severity: 'low', kinds: ['Deployment'], cel: [{ expression: 'object.spec.replicas >= {minimum}', message: 'm' }], message: 'm', remediation: 'r' } },
      samples: { bad: [{ description: 'spec.replicas below {minimum}', edit: { at: 'spec', set: { replicas: 0 } } }], texts: { parameters: { minimum: { as: 'number', otherwise: 1 } } } },
    }
    const template = templateOf(entry, VOCABULARY_OF_ENTRIES)
    const clause = (text: string) => prepareClause(text, { platform: 'kubernetes', inheritedKinds: [], vocabulary: new Set() })
    expect(template.recognize(clause('deployments need at least 3 replicas'))).toEqual({ score: 2, parameters: { minimum: 3 }, missing: [] })
    expect(template.recognize(clause('deployments need enough replicas'))).toEqual({ score: 1, parameters: {}, missing: ['minimum'] })
    expect(template.recognize(clause('services need at least 3 replicas')).score).toBe(0)
    expect(template.rule({ minimum: 3 }).validate.cel).toEqual([{ expression: 'object.spec.replicas >= 3', message: 'm' }])
    expect(template.samples({ minimum: 3 }).bad[0]?.description).toBe('spec.replicas below 3')
    expect(template.samples({}).bad[0]?.description).toBe('spec.replicas below 1')
  })

  it('writes texts naming parameters: values, joined lists, CEL lists, cases, each item', () => {
    const { say } = textsFor(
      { domains: ['Acme.io', 'b.dev'], count: 3 },
      {
        parameters: { domains: { as: 'list', lowercase: true }, count: { as: 'number' }, least: { as: 'number', otherwise: 1 }, none: { as: 'list' } },
        phrases: { others: { each: 'domains', from: 1, text: '.{item}', join: ', ' }, how: [{ when: { many: 'domains' }, text: 'several' }, { text: 'one' }], first: [{ when: { is: { domains: 'acme.io' } }, text: 'acme first' }] },
      },
    )
    expect(say('{domains|or} ({count}, {least}, {none}): {how}, {others}, {first}')).toBe('acme.io or b.dev (3, 1, ): several, .b.dev, acme first')
    expect(say('{domains|cel} {domains|first} {domains|and} {domains}')).toBe("['acme.io', 'b.dev'] acme.io acme.io and b.dev acme.io, b.dev")
    // Braces that name nothing of the entry are CEL or prose, not a parameter.
    expect(say('{type: Resource} orValue({})')).toBe('{type: Resource} orValue({})')
    expect(() => say('{missing}')).toThrow('neither a parameter nor a phrase')
  })

  it('splits a path on dots, keeping a bracketed key whole', () => {
    expect(pathSegments('metadata.annotations["container.apparmor.security.beta.kubernetes.io/app"].x')).toEqual(['metadata', 'annotations', 'container.apparmor.security.beta.kubernetes.io/app', 'x'])
  })
})
