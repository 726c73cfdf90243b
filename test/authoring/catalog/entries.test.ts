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

  it('fills parameters and values into texts, and chooses rules and samples by them', () => {
    const entry: NamedRequirement = {
      id: 'test-values',
      title: 'test',
      platform: 'kubernetes',
      category: 'workload',
      kinds: ['Pod'],
      phrasings: [],
      parameters: [
        { name: 'ports', question: 'which ports?', required: true, example: ['22'] },
        { name: 'strict', question: 'strict?', required: false, example: false },
      ],
      recognize: {
        when: { mentions: ['port', 'ports'] },
        score: [{ when: { reads: 'ports' }, score: 3 }, { score: 2 }],
        parameters: { ports: { use: 'ports' }, strict: { holds: { negated: true } } },
      },
      values: [{ use: 'choose', with: { by: 'ports', cases: { 1: { word: 'port' } }, otherwise: { word: 'ports' } } }],
      rule: [
        {
          when: { given: ['strict', 'ports'] },
          rule: { use: 'pod-rule', with: { name: 'no-port-{{ports}}', description: 'no {{word}} {{ports|or}}', severity: 'high', expression: 'object.spec.port in {{ports|cel}}', message: 'not {{ports.0}}', remediation: 'r' } },
        },
        { rule: { use: 'pod-rule', with: { name: 'any-port', description: '{{word}}', severity: 'low', expression: 'true', message: 'm', remediation: 'r' } } },
      ],
      samples: {
        good: [{ at: 'every-container', change: { use: 'fill-missing', with: { set: { 'x.ports': '{{ports}}' } } } }],
        bad: [
          { each: 'ports', description: 'port {{item}}', edit: { at: 'pod-spec', set: { port: '{{item}}' } } },
          { when: { given: 'strict' }, description: 'strict, no port', edit: { at: 'pod-spec', remove: ['port'] } },
        ],
      },
    }
    const template = templateOf(entry, VOCABULARY_OF_ENTRIES)
    const clause = (text: string) => prepareClause(text, { platform: 'kubernetes', inheritedKinds: [], vocabulary: new Set() })
    expect(template.recognize(clause('no containers on port 22 or 8080'))).toEqual({ score: 3, parameters: { ports: ['22', '8080'], strict: true }, missing: [] })
    expect(template.recognize(clause('ports matter'))).toEqual({ score: 2, parameters: { strict: false }, missing: ['ports'] })
    expect(template.rule({ ports: ['22', '80'], strict: true })).toMatchObject({ name: 'no-port-22-80', description: 'no ports 22 or 80', validate: { cel: [{ expression: "object.spec.port in ['22', '80']", message: 'not 22' }] } })
    expect(template.rule({ ports: ['22'] })).toMatchObject({ name: 'any-port', description: 'port' })
    const samples = template.samples({ ports: ['22', '80'], strict: true })
    expect(samples.bad.map((bad) => bad.description)).toEqual(['port 22', 'port 80', 'strict, no port'])
    expect(template.samples({ ports: ['22'] }).bad.map((bad) => bad.description)).toEqual(['port 22'])
    const document: Record<string, unknown> = { kind: 'Pod', spec: { containers: [{ name: 'a' }, { name: 'b', x: { ports: ['1'] } }] } }
    for (const edit of samples.good) edit(document)
    samples.bad[1]?.edit(document)
    expect(document).toEqual({ kind: 'Pod', spec: { port: '80', containers: [{ name: 'a', x: { ports: ['22', '80'] } }, { name: 'b', x: { ports: ['1'] } }] } })
    expect(() => templateOf({ ...entry, rule: { use: 'pod-rule', with: { name: '{{nope}}' } } }, VOCABULARY_OF_ENTRIES).rule({ ports: ['22'] })).toThrow('names "{{nope}}"')
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

  it('tests values by what they are, makes several changes as one edit, and changes each object of a place', () => {
    const entry: NamedRequirement = {
      id: 'test-entry',
      title: 'test',
      platform: 'kubernetes',
      category: 'workload',
      kinds: ['Pod'],
      phrasings: [],
      parameters: [],
      recognize: { when: { mentions: ['x'] }, score: 1, parameters: { skip: { holds: { negated: true } } } },
      values: [{ use: 'rejected-values', with: { allowed: 'allowed', candidates: ['a', 'b'], atLeast: 3 } }],
      rule: { use: 'pod-security-check', with: { check: 'host-path', name: 'n', description: 'd', severity: 'high', remediation: 'r' } },
      samples: {
        bad: [
          { description: 'first {{rejected.0}}, third {{rejected.2}}', edit: { at: 'pod-spec', set: { 'first.{{rejected.0}}': '{{rejected}}' } } },
          { description: 'second', edit: [{ at: 'pod-spec', set: { second: '{{rejected.1}}' } }, { at: 'every-container', remove: ['image'] }], when: { is: { skip: false } } },
        ],
      },
    }
    const template = templateOf(entry, VOCABULARY_OF_ENTRIES)
    const samples = template.samples({ allowed: ['a'] })
    expect(samples.bad.map((sample) => sample.description)).toEqual(['first b, third b', 'second'])
    const document: Record<string, unknown> = { kind: 'Pod', spec: { containers: [{ name: 'app', image: 'app:1' }], initContainers: [{ name: 'init', image: 'init:1' }] } }
    for (const sample of samples.bad) sample.edit(document)
    expect(document).toEqual({ kind: 'Pod', spec: { containers: [{ name: 'app' }], initContainers: [{ name: 'init' }], first: { b: ['b', 'b', 'b'] }, second: 'b' } })
    expect(template.samples({ allowed: ['a'], skip: true }).bad.map((sample) => sample.description)).toEqual(['first b, third b'])
  })

  it('splits a path on dots, keeping a bracketed key whole', () => {
    expect(pathSegments('metadata.annotations["container.apparmor.security.beta.kubernetes.io/app"].x')).toEqual(['metadata', 'annotations', 'container.apparmor.security.beta.kubernetes.io/app', 'x'])
  })
})
