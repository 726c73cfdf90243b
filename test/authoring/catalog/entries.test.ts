import { describe, expect, it } from 'vitest'
import { CATALOG } from '../../../src/authoring/catalog/index.js'
import { CATALOG_ENTRIES } from '../../../src/authoring/catalog/entries/index.js'
import { pathSegments, templateOf } from '../../../src/authoring/catalog/entry-template.js'
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
          use: 'pod-rule',
          with: { name: 'no-port-{{ports}}', description: 'no {{word}} {{ports|or}}', severity: 'high', expression: 'object.spec.port in {{ports|cel}}', message: 'not {{ports.0}}', remediation: 'r' },
        },
        { use: 'pod-rule', with: { name: 'any-port', description: '{{word}}', severity: 'low', expression: 'true', message: 'm', remediation: 'r' } },
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
        parameters: { allowed: { use: 'port-ranges', when: { mentions: ['only'] } }, forbidden: { use: 'port-ranges', when: { not: { mentions: ['only'] } } }},
      },
      rule: { use: 'pod-security-check', with: { check: 'host-path', name: 'n', description: 'd', severity: 'high', remediation: 'r' } },
      samples: { bad: [] },
    }
    const template = templateOf(entry, VOCABULARY_OF_ENTRIES)
    const clause = (text: string) => prepareClause(text, { platform: 'kubernetes', inheritedKinds: [], vocabulary: new Set() })
    expect(template.recognize(clause('host port only 80')).parameters).toEqual({ allowed: ['80'] })
    expect(template.recognize(clause('no host port 22')).parameters).toEqual({ forbidden: ['22'] })
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

  it('reads tests with options, readers as tests, parameters asked again, and values written by a piece', () => {
    const lowest = { subject: 'replicas?' }
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
        score: [{ when: { reads: 'lower-bound', with: lowest }, score: 2 }, { score: 1 }],
        parameters: { minimum: { use: 'lower-bound', with: lowest } },
        missing: [{ parameter: 'minimum', when: { not: { reads: 'lower-bound', with: lowest } } }],
      },
      rule: { use: 'object-rule', with: { name: 'at-least-{{minimum}}', description: 'd', severity: 'low', kinds: ['Deployment'], cel: [{ expression: 'object.spec.replicas >= {{minimum}}', message: 'm' }], message: 'm', remediation: 'r' } },
      values: [{ use: 'parameters-as', with: { minimum: { as: 'number', otherwise: 1 } } }, { use: 'texts', with: { least: [{ text: '{{minimum}}' }] } }],
      samples: { bad: [{ description: 'spec.replicas below {{least}}', edit: { at: 'spec', set: { replicas: 0 } } }] },
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

  it('reads parameters as numbers and lists, chooses texts and items by tests on the values, joins each item of a list', () => {
    const entry: NamedRequirement = {
      id: 'test-texts',
      title: 'test',
      platform: 'kubernetes',
      category: 'networking',
      kinds: ['Ingress'],
      phrasings: [],
      parameters: [
        { name: 'domains', question: 'which domains?', required: true, example: ['example.com'] },
        { name: 'count', question: 'how many?', required: false, example: 1 },
      ],
      recognize: { when: { mentions: ['domains'] }, score: 1 },
      values: [
        { use: 'parameters-as', with: { domains: { as: 'list', lowercase: true }, count: { as: 'number' }, least: { as: 'number', otherwise: 1 }, none: { as: 'list' }, kinds: { as: 'list', only: ['Ingress'], otherwise: ['Ingress'] } } },
        { use: 'joined', with: { others: { each: 'domains', from: 1, prefix: '.', join: ', ' }, checks: { each: 'domains', prefix: 'has(', suffix: ')', join: ' || ' } } },
        { use: 'texts', with: { how: [{ when: { given: 'domains.1' }, text: 'several' }, { text: 'one' }], first: [{ when: { is: { domains: 'acme.io' } }, text: 'acme among them' }], nothing: [{ when: { given: 'none' }, text: 'x' }] } },
        { use: 'items', with: { said: [{ when: { given: 'count' }, item: 'counted' }, { when: { is: { domains: 'zzz' } }, item: 'never' }, { item: 'at least {{least}}' }] } },
      ],
      rule: {
        use: 'object-rule',
        with: {
          name: 'under-{{domains}}',
          description: '{{domains|or}} ({{count}}, {{least}}, {{none}}): {{how}}, {{others}}, {{first}}{{nothing}}',
          severity: 'low',
          kinds: '{{kinds}}',
          cel: [{ expression: '{{checks}} && {{domains|cel}}', message: '{{domains.0}} {{domains|and}} {{domains}}' }],
          message: '{type: Resource} orValue({})',
          remediation: 'r: {{said|and}}',
        },
      },
      samples: { bad: [] },
    }
    const rule = templateOf(entry, VOCABULARY_OF_ENTRIES).rule({ domains: ['Acme.io', 'b.dev'], count: 3, kinds: ['Service'] })
    expect(rule.name).toBe('under-acme-io-b-dev')
    expect(rule.description).toBe('acme.io or b.dev (3, 1, ): several, .b.dev, acme among them')
    expect(rule.match?.kinds).toEqual(['Ingress'])
    expect(rule.validate.cel).toEqual([{ expression: "has(acme.io) || has(b.dev) && ['acme.io', 'b.dev']", message: 'acme.io acme.io and b.dev acme.io, b.dev' }])
    // Braces that name nothing are CEL or prose, not a placeholder.
    expect(rule.message).toBe('{type: Resource} orValue({})')
    expect(rule.remediation).toBe('r: counted and at least 1')
    const one = templateOf(entry, VOCABULARY_OF_ENTRIES).rule({ domains: 'B.dev', count: 'many' })
    expect(one.description).toBe('b.dev (, 1, ): one, , ')
    expect(one.remediation).toBe('r: at least 1')
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
        score: [{ when: { reads: 'numbers' }, score: 2 }, { score: 1 }],
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

  it('edits at a place given options, merges keys into an object, and keeps a good edit to the parameters its test takes', () => {
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
      parameters: [
        { name: 'items', question: 'q', required: false, example: [] },
        { name: 'deny', question: 'q', required: false, example: false },
      ],
      recognize: { when: { mentions: ['x'] }, score: 1 },
      values: [{ use: 'test-values' }],
      rule: { use: 'test-rule', with: { name: ['deny', '{{list}}'], description: '{{count}} denied: {{list}} {unknown} {}' } },
      samples: {
        good: [
          { when: { is: { deny: false } }, edit: [{ at: { use: 'test-items', with: { kind: 'a' } }, set: { n: '{{count}}' }, merge: { labels: { team: '{{list}}' } } }, { at: 'document', set: { seen: true } }] },
        ],
        bad: [
          { when: { is: { deny: true } }, description: 'deny {{count}}', edit: { at: 'document', remove: ['items'] } },
          { description: 'items {{list}}', edit: { at: 'document', append: { to: 'items', item: { kind: 'a', tags: '{{list}}' } } } },
        ],
      },
    }
    const template = templateOf(entry, vocabulary)
    // Single braces are not placeholders: they stay as written.
    expect(template.rule({ items: ['p', 'q'], deny: true })).toMatchObject({ name: '["deny",["p","q"]]', description: '2 denied: p, q {unknown} {}' })
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
})
