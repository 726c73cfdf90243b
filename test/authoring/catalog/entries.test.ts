import { describe, expect, it } from 'vitest'
import { CATALOG } from '../../../src/authoring/catalog/index.js'
import { CATALOG_ENTRIES } from '../../../src/authoring/catalog/entries/index.js'
import { pathSegments, templateOf } from '../../../src/authoring/catalog/entry-template.js'
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

  it('reads a parameter only when its test holds; keeps the flags of a regular expression', () => {
    const entry: NamedRequirement = {
      id: 'test-entry',
      title: 'test',
      platform: 'kubernetes',
      category: 'workload',
      kinds: ['Pod'],
      phrasings: [],
      parameters: [],
      constantsNamedBy: { re: '\\bsafe\\b', flags: 'i' },
      recognize: {
        when: { mentions: ['host port'] },
        score: 3,
        parameters: { allowed: { use: 'port-ranges', when: { mentions: ['only'] } }, forbidden: { use: 'port-ranges', when: { not: { mentions: ['only'] } } }, flag: { use: 'value', with: { value: true }, when: { negated: true } } },
      },
      rule: { use: 'pod-security-check', with: { check: 'host-path', name: 'n', description: 'd', severity: 'high', remediation: 'r' } },
      samples: { bad: [] },
    }
    const template = templateOf(entry, VOCABULARY_OF_ENTRIES)
    const clause = (text: string) => prepareClause(text, { platform: 'kubernetes', inheritedKinds: [], vocabulary: new Set() })
    expect(template.recognize(clause('host port only 80')).parameters).toEqual({ allowed: ['80'] })
    expect(template.recognize(clause('no host port 22')).parameters).toEqual({ forbidden: ['22'], flag: true })
    expect(template.constantsNamedBy?.test('only SAFE sysctls')).toBe(true)
  })

  it('fills bad samples with values computed from the parameters: by position, once per value, or left out by a flag', () => {
    const entry: NamedRequirement = {
      id: 'test-entry',
      title: 'test',
      platform: 'kubernetes',
      category: 'workload',
      kinds: ['Pod'],
      phrasings: [],
      parameters: [],
      recognize: { when: { mentions: ['x'] }, score: 1 },
      rule: { use: 'pod-security-check', with: { check: 'host-path', name: 'n', description: 'd', severity: 'high', remediation: 'r' } },
      samples: {
        values: { use: 'rejected-values', with: { allowed: 'allowed', candidates: [{ value: 'a', item: { a: 1 } }, { value: 'b', item: { b: 2 } }, { value: 'c', item: { c: 3 } }] } },
        bad: [
          { description: 'first {value}', edit: { at: 'pod-spec', set: { 'first.{value}': '{item}' } } },
          { description: 'second {value}', edit: [{ at: 'pod-spec', set: { second: '{value}' } }, { at: 'every-container', remove: ['image'] }], unless: 'skip' },
          { description: 'each {value}', edit: { at: 'pod-spec', append: { to: 'each', item: '{item}' } }, each: true },
        ],
      },
    }
    const template = templateOf(entry, VOCABULARY_OF_ENTRIES)
    const samples = template.samples({ allowed: ['a'] })
    expect(samples.bad.map((sample) => sample.description)).toEqual(['first b', 'second c', 'each b', 'each c'])
    const document: Record<string, unknown> = { kind: 'Pod', spec: { containers: [{ name: 'app', image: 'app:1' }], initContainers: [{ name: 'init', image: 'init:1' }] } }
    for (const sample of samples.bad) sample.edit(document)
    expect(document).toEqual({ kind: 'Pod', spec: { containers: [{ name: 'app' }], initContainers: [{ name: 'init' }], first: { b: { b: 2 } }, second: 'c', each: [{ b: 2 }, { c: 3 }] } })
    expect(template.samples({ allowed: ['a', 'b', 'c'], skip: true }).bad.map((sample) => sample.description)).toEqual(['first {value}'])
  })

  it('splits a path on dots, keeping a bracketed key whole', () => {
    expect(pathSegments('metadata.annotations["container.apparmor.security.beta.kubernetes.io/app"].x')).toEqual(['metadata', 'annotations', 'container.apparmor.security.beta.kubernetes.io/app', 'x'])
  })
})
