import { describe, expect, it } from 'vitest'
import { CATALOG } from '../../../src/authoring/catalog/index.js'
import { CATALOG_ENTRIES } from '../../../src/authoring/catalog/entries/index.js'
import { fill, pathSegments, templateOf } from '../../../src/authoring/catalog/entry-template.js'
import type { NamedRequirement } from '../../../src/authoring/catalog/named-requirement.js'
import type { Vocabulary } from '../../../src/authoring/catalog/vocabulary.js'
import { VOCABULARY_OF_ENTRIES, joinVocabularies } from '../../../src/authoring/catalog/vocabulary/index.js'
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

  it('splits a path on dots, keeping a bracketed key whole', () => {
    expect(pathSegments('metadata.annotations["container.apparmor.security.beta.kubernetes.io/app"].x')).toEqual(['metadata', 'annotations', 'container.apparmor.security.beta.kubernetes.io/app', 'x'])
  })

  it('reads parameters as data: a reader when words hold, a value, a list collected, an empty list that is missing', () => {
    const vocabulary: Vocabulary = joinVocabularies(VOCABULARY_OF_ENTRIES, {
      readers: { numbers: (clause) => clause.text.match(/\d+/g) ?? undefined, names: (clause) => clause.text.match(/\b[A-Z]\w*/g) ?? [] },
      rules: { 'test-rule': (_parameters, options) => ({ name: String(options.name), validate: { cel: [{ expression: 'true' }] } }) },
    })
    const entry: NamedRequirement = {
      id: 'test-readings',
      title: 'test',
      platform: 'generic',
      category: 'generic',
      kinds: ['*'],
      phrasings: [],
      parameters: [
        { name: 'names', question: 'q', required: true, example: [] },
        { name: 'ports', question: 'q', required: false, example: [] },
        { name: 'allowed', question: 'q', required: false, example: [] },
        { name: 'strict', question: 'q', required: false, example: false },
        { name: 'checks', question: 'q', required: true, example: [] },
      ],
      recognize: {
        when: { mentions: ['ports'] },
        score: [{ when: { reads: { use: 'numbers' } }, score: 2 }, { score: 1 }],
        parameters: {
          names: { use: 'names', emptyIsMissing: true },
          ports: { use: 'numbers', when: { not: { mentions: ['only'] } } },
          allowed: { use: 'numbers', when: { mentions: ['only'] } },
          strict: { value: true, when: { mentions: ['strictly'] } },
          checks: { collect: [{ when: { mentions: ['open'] }, values: ['open'] }, { use: 'numbers' }, { when: { mentions: ['wide'] }, values: ['open', 'wide'] }], otherwise: ['all'] },
        },
      },
      rule: { use: 'test-rule', with: { name: 'n' } },
      samples: { bad: [] },
    }
    const template = templateOf(entry, vocabulary)
    const clause = (text: string) => prepareClause(text, { platform: 'generic', inheritedKinds: [], vocabulary: new Set() })
    expect(template.recognize(clause('Web ports 80 and 443 strictly open and wide'))).toEqual({
      score: 2,
      parameters: { names: ['Web'], ports: ['80', '443'], strict: true, checks: ['open', '80', '443', 'wide'] },
      missing: [],
    })
    expect(template.recognize(clause('only ports 22'))).toEqual({ score: 2, parameters: { names: [], allowed: ['22'], checks: ['22'] }, missing: ['names'] })
    expect(template.recognize(clause('ports closed'))).toEqual({ score: 1, parameters: { names: [], checks: ['all'] }, missing: ['names'] })
    expect(template.recognize(clause('nothing here')).score).toBe(0)
  })

  it('picks the rule by the parameters, and fills {name} placeholders with values computed from them', () => {
    const vocabulary: Vocabulary = joinVocabularies(VOCABULARY_OF_ENTRIES, {
      values: { 'test-values': (parameters) => ({ list: parameters.items ?? [], count: Array.isArray(parameters.items) ? parameters.items.length : 0 }) },
      rules: { 'test-rule': (_parameters, options) => ({ name: JSON.stringify(options.name), description: String(options.description), validate: { cel: [{ expression: 'true' }] } }) },
      places: { 'test-items': (document, options) => (Array.isArray(document.items) ? (document.items as Array<Record<string, unknown>>) : []).filter((item) => item.kind === options.kind) },
    })
    const entry: NamedRequirement = {
      id: 'test-choices',
      title: 'test',
      platform: 'generic',
      category: 'generic',
      kinds: ['*'],
      phrasings: [],
      parameters: [],
      recognize: { when: { mentions: ['x'] }, score: 1 },
      values: { use: 'test-values' },
      rule: [
        { if: { deny: true }, use: 'test-rule', with: { name: ['deny', '{list}'], description: '{count} denied: {list} {unknown} {}' } },
        { use: 'test-rule', with: { name: '{count}', description: 'allowed: {list}' } },
      ],
      samples: {
        good: [
          { if: { deny: false }, edit: [{ at: { use: 'test-items', with: { kind: 'a' } }, set: { n: '{count}' }, merge: { labels: { team: '{list}' } } }, { at: 'document', set: { seen: true } }] },
        ],
        bad: [
          { if: { deny: true }, description: 'deny {count}', edit: { at: 'document', remove: ['items'] } },
          { description: 'items {list}', edit: { at: 'document', append: { to: 'items', item: { kind: 'a', tags: '{list}' } } } },
        ],
      },
    }
    const template = templateOf(entry, vocabulary)
    expect(template.rule({ items: ['p', 'q'], deny: true })).toMatchObject({ name: '["deny",["p","q"]]', description: '2 denied: p, q {unknown} {}' })
    expect(template.rule({ items: ['p'] })).toMatchObject({ name: '1', description: 'allowed: p' })
    const allowed = template.samples({ items: ['p'] })
    expect(allowed.bad.map((sample) => sample.description)).toEqual(['items p'])
    const document: Record<string, unknown> = { items: [{ kind: 'a', labels: { app: 'x' } }, { kind: 'b' }, { kind: 'a', labels: 'none' }] }
    for (const edit of allowed.good) edit(document)
    expect(document).toEqual({ seen: true, items: [{ kind: 'a', labels: { app: 'x', team: ['p'] }, n: 1 }, { kind: 'b' }, { kind: 'a', labels: { team: ['p'] }, n: 1 }] })
    allowed.bad[0]?.edit(document)
    expect((document.items as unknown[]).at(-1)).toEqual({ kind: 'a', tags: ['p'] })
    expect(template.samples({ items: [], deny: true }).bad.map((sample) => sample.description)).toEqual(['deny 0', 'items '])
    expect(template.samples({ deny: true }).good).toEqual([])
  })

  it('fills a placeholder alone with the value itself, inside text with its text', () => {
    expect(fill({ a: '{n}', b: 'n={n}', c: ['{list}', 'x {list}'], d: '{missing}' }, { n: 3, list: ['a', 'b'] })).toEqual({ a: 3, b: 'n=3', c: [['a', 'b'], 'x a, b'], d: '{missing}' })
  })
})
