import { mentions, type Clause } from '../text/clause.js'
import { textsFor } from './entry-texts.js'
import type { ClauseTest, EntryRecognition, EntrySamples, NamedRequirement, SampleEditData, Use, Words } from './named-requirement.js'
import type { Recognition, RuleTemplate, SampleEdit, TemplateSamples } from './rule-template.js'
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
    if ('re' in words) return new RegExp(words.re)
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
    if ('reads' in clauseTest) {
      const read = lookup<NonNullable<Vocabulary['readers']>[string]>('readers', clauseTest.reads)
      const given = clauseTest.reads.with ?? {}
      return (clause) => read(clause, given) !== undefined
    }
    const named = lookup<NonNullable<Vocabulary['tests']>[string]>('tests', { use: clauseTest.test })
    const given = clauseTest.with ?? {}
    return (clause) => named(clause, given)
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
    return { name, read: (clause: Clause) => read(clause, given), required: entry.parameters.some((parameter) => parameter.name === name && parameter.required) }
  })
  const askedAgain = (recognition.missing ?? []).map((each) => ({ parameter: each.parameter, test: test(each.when) }))
  return (clause) => {
    if (!about(clause)) return NOT_RECOGNIZED
    const score = scores.find((each) => each.test(clause))?.score ?? 0
    const recognition: Recognition = { score, parameters: {}, missing: [] }
    for (const reader of readers) {
      const value = reader.read(clause)
      if (value !== undefined) recognition.parameters[reader.name] = value
      else if (reader.required) recognition.missing.push(reader.name)
    }
    for (const each of askedAgain) if (!recognition.missing.includes(each.parameter) && each.test(clause)) recognition.missing.push(each.parameter)
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
  const bad = samples.bad.map((sample) => ({ description: sample.description, edit: editOf(sample.edit, vocabulary, lookup) }))
  const texts = samples.texts
  return (parameters): TemplateSamples => {
    const describe = texts ? textsFor(parameters, texts).say : (description: string) => description
    return {
      good: good.map((edit) => edit(parameters)),
      bad: bad.map((sample) => ({ description: describe(sample.description), edit: sample.edit(parameters) })),
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
    const target = place(document)
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
