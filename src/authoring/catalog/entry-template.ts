import { mentions, type Clause } from '../text/clause.js'
import type { BadSample, ClauseTest, EntryRecognition, EntrySamples, JsonValue, NamedRequirement, SampleEditData, Use, Words } from './named-requirement.js'
import type { Parameters, Recognition, RuleTemplate, SampleEdit, TemplateSamples } from './rule-template.js'
import type { Vocabulary } from './vocabulary.js'

type Json = Record<string, unknown>

const NOT_RECOGNIZED: Recognition = { score: 0, parameters: {}, missing: [] }

/**
 * The template an entry is: its words become tests of a clause, its named pieces are looked up
 * in the vocabulary. Every name is resolved here, when the catalog loads, so an entry naming a
 * piece nobody defined fails at start-up instead of on the first instruction that reaches it.
 */
export function templateOf(entry: NamedRequirement, vocabulary: Vocabulary): RuleTemplate {
  const lookup = <T>(kind: keyof Vocabulary, use: Use): T => {
    const table = vocabulary[kind] as Record<string, T> | undefined
    const found = table?.[use.use]
    if (found === undefined) throw new Error(`catalog entry ${entry.id} names ${kind} "${use.use}", which the vocabulary does not define`)
    return found
  }
  const options = (use: Use) => use.with ?? {}
  const pattern = (words: Words): string | RegExp => {
    if (typeof words === 'string') return words
    if ('re' in words) return new RegExp(words.re, words.flags)
    return lookup<RegExp>('words', { use: words.words })
  }
  const test = (clauseTest: ClauseTest): ((clause: Clause) => boolean) => {
    if ('mentions' in clauseTest) {
      const patterns = clauseTest.mentions.map(pattern)
      return (clause) => mentions(clause, ...patterns)
    }
    if ('all' in clauseTest) {
      const tests = clauseTest.all.map(test)
      return (clause) => tests.every((each) => each(clause))
    }
    if ('any' in clauseTest) {
      const tests = clauseTest.any.map(test)
      return (clause) => tests.some((each) => each(clause))
    }
    if ('not' in clauseTest) {
      const inner = test(clauseTest.not)
      return (clause) => !inner(clause)
    }
    if ('negated' in clauseTest) {
      const negated = clauseTest.negated
      return (clause) => clause.negated === negated
    }
    const named = lookup<(clause: Clause, options: Use['with']) => boolean>('tests', { use: clauseTest.test })
    return (clause) => named(clause, {})
  }
  const template: RuleTemplate = {
    id: entry.id,
    title: entry.title,
    platform: entry.platform,
    category: entry.category,
    kinds: entry.kinds,
    phrasings: entry.phrasings,
    parameters: entry.parameters,
    recognize: recognizerOf(entry, entry.recognize, test, lookup),
    rule: (() => {
      const build = lookup<NonNullable<Vocabulary['rules']>[string]>('rules', entry.rule)
      return (parameters) => build(parameters, options(entry.rule))
    })(),
    samples: samplesOf(entry.samples, vocabulary, lookup),
  }
  if (entry.constantsNamedBy !== undefined) {
    const words = pattern(entry.constantsNamedBy)
    template.constantsNamedBy = typeof words === 'string' ? new RegExp(`\\b${words.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`) : words
  }
  return template
}

type Lookup = <T>(kind: keyof Vocabulary, use: Use) => T

function recognizerOf(entry: NamedRequirement, recognition: EntryRecognition, test: (clauseTest: ClauseTest) => (clause: Clause) => boolean, lookup: Lookup): RuleTemplate['recognize'] {
  if ('use' in recognition) {
    const recognize = lookup<NonNullable<Vocabulary['recognizers']>[string]>('recognizers', recognition)
    const given = recognition.with ?? {}
    return (clause) => recognize(clause, given)
  }
  const about = test(recognition.when)
  const scores = typeof recognition.score === 'number' ? [{ test: () => true, score: recognition.score }] : recognition.score.map((each) => ({ test: each.when ? test(each.when) : () => true, score: each.score }))
  const readers = Object.entries(recognition.parameters ?? {}).map(([name, use]) => {
    const read = lookup<NonNullable<Vocabulary['readers']>[string]>('readers', use)
    const given = use.with ?? {}
    const applies = use.when ? test(use.when) : () => true
    return {
      name,
      read: (clause: Clause) => (applies(clause) ? read(clause, given) : undefined),
      required: entry.parameters.some((parameter) => parameter.name === name && parameter.required),
    }
  })
  return (clause) => {
    if (!about(clause)) return NOT_RECOGNIZED
    const score = scores.find((each) => each.test(clause))?.score ?? 0
    const recognition: Recognition = { score, parameters: {}, missing: [] }
    for (const reader of readers) {
      const value = reader.read(clause)
      if (value !== undefined) recognition.parameters[reader.name] = value
      else if (reader.required) recognition.missing.push(reader.name)
    }
    return recognition
  }
}

function samplesOf(samples: EntrySamples, vocabulary: Vocabulary, lookup: Lookup): RuleTemplate['samples'] {
  if ('use' in samples) {
    const make = lookup<NonNullable<Vocabulary['samples']>[string]>('samples', samples)
    const given = samples.with ?? {}
    return (parameters) => make(parameters, given)
  }
  const good = (samples.good ?? []).map((edit) => editOf(edit, vocabulary, lookup))
  // Compiled here even when values fill them in later, so a name nobody defined fails at start-up.
  const bad = samples.bad.map((sample) => ({ sample, edit: editsOf(sample.edit, vocabulary, lookup) }))
  const values = samples.values
  const valuesOf = values ? lookup<NonNullable<Vocabulary['values']>[string]>('values', values) : undefined
  const filled = (sample: BadSample, value: JsonValue | undefined, parameters: Parameters) => {
    const bindings = bindingsOf(value)
    return { description: fillText(sample.description, bindings), edit: editsOf(fill(sample.edit, bindings) as BadSample['edit'], vocabulary, lookup)(parameters) }
  }
  return (parameters): TemplateSamples => {
    const listed = valuesOf?.(parameters, values?.with ?? {})
    return {
      good: good.map((edit) => edit(parameters)),
      bad: bad.flatMap(({ sample, edit }, index) => {
        if (sample.unless !== undefined && parameters[sample.unless] === true) return []
        if (!listed) return [{ description: sample.description, edit: edit(parameters) }]
        if (sample.each) return listed.map((value) => filled(sample, value, parameters))
        return [filled(sample, listed[Math.min(index, listed.length - 1)], parameters)]
      }),
    }
  }
}

type Bindings = Readonly<Record<string, JsonValue>>

function bindingsOf(value: JsonValue | undefined): Bindings {
  if (value === undefined) return {}
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Bindings) : { value }
}

/** `{name}` in a text replaced by its bound value; unbound names are left as written. */
export function fillText(text: string, bindings: Readonly<Record<string, JsonValue>>): string {
  return text.replace(/\{([\w-]+)\}/g, (placeholder, name: string) => (Object.hasOwn(bindings, name) ? String(bindings[name]) : placeholder))
}

/** JSON data with its placeholders filled, keys included: a string that is one placeholder alone takes the bound value itself. */
function fill(value: unknown, bindings: Bindings): unknown {
  if (typeof value === 'string') {
    const whole = /^\{([\w-]+)\}$/.exec(value)?.[1]
    return whole !== undefined && Object.hasOwn(bindings, whole) ? bindings[whole] : fillText(value, bindings)
  }
  if (Array.isArray(value)) return value.map((item: unknown) => fill(item, bindings))
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [fillText(key, bindings), fill(item, bindings)]))
  return value
}

function editsOf(data: SampleEditData | readonly SampleEditData[], vocabulary: Vocabulary, lookup: Lookup): (parameters: Record<string, unknown>) => SampleEdit {
  const edits = (Array.isArray(data) ? (data as readonly SampleEditData[]) : [data as SampleEditData]).map((each) => editOf(each, vocabulary, lookup))
  if (edits.length === 1 && edits[0]) return edits[0]
  return (parameters) => {
    const made = edits.map((edit) => edit(parameters))
    return (document) => {
      for (const edit of made) edit(document)
    }
  }
}

function editOf(data: SampleEditData, vocabulary: Vocabulary, lookup: Lookup): (parameters: Record<string, unknown>) => SampleEdit {
  if ('use' in data) {
    const make = lookup<NonNullable<Vocabulary['edits']>[string]>('edits', data)
    const given = data.with ?? {}
    return (parameters) => make(parameters as never, given)
  }
  const place = lookup<NonNullable<Vocabulary['places']>[string]>('places', { use: data.at })
  return () => (document) => {
    const found = place(document)
    for (const target of Array.isArray(found) ? found : [found]) editAt(target, data)
  }
}

function editAt(target: Json, data: Exclude<SampleEditData, Use>): void {
  for (const [path, value] of Object.entries(data.set ?? {})) setPath(target, path, structuredClone(value))
  if (data.append) {
    const [parent, key] = parentOf(target, data.append.to)
    const existing = parent[key]
    parent[key] = [...(Array.isArray(existing) ? (existing as unknown[]) : []), structuredClone(data.append.item)]
  }
  for (const path of data.remove ?? []) {
    const [parent, key] = parentOf(target, path)
    delete parent[key]
  }
}

/**
 * The segments of a dotted path. A key holding dots or slashes (an annotation key) is written in
 * brackets and quotes: `metadata.annotations["seccomp.security.alpha.kubernetes.io/pod"]`.
 */
export function pathSegments(path: string): string[] {
  const segments: string[] = []
  const pattern = /\["((?:[^"\\]|\\.)*)"\]|([^.[\]]+)/g
  for (const match of path.matchAll(pattern)) segments.push(match[1] !== undefined ? JSON.parse(`"${match[1]}"`) as string : (match[2] ?? ''))
  return segments
}

function parentOf(target: Json, path: string): [Json, string] {
  const segments = pathSegments(path)
  const key = segments.pop()
  if (key === undefined) throw new Error(`an empty path in a catalog sample edit`)
  let parent = target
  for (const segment of segments) {
    const child = parent[segment]
    if (child === null || typeof child !== 'object' || Array.isArray(child)) parent[segment] = {}
    parent = parent[segment] as Json
  }
  return [parent, key]
}

function setPath(target: Json, path: string, value: unknown): void {
  const [parent, key] = parentOf(target, path)
  parent[key] = value
}
