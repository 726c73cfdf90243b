import { mentions, type Clause } from '../text/clause.js'
import type { ClauseTest, EntryRecognition, EntrySamples, JsonValue, NamedRequirement, ParameterCondition, ParameterReading, RuleChoice, SampleEditData, Use, Words } from './named-requirement.js'
import type { ParameterValue, Parameters, Recognition, RuleTemplate, SampleEdit, TemplateSamples } from './rule-template.js'
import type { Options, Vocabulary } from './vocabulary.js'

type Json = Record<string, unknown>

/** The values an entry computed from the parameters, which its `{name}` placeholders stand for. */
type Values = Readonly<Record<string, JsonValue>>

type Piece<K extends keyof Vocabulary> = NonNullable<Vocabulary[K]>[string]

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
      const read = lookup<Piece<'readers'>>('readers', clauseTest.reads)
      const given = clauseTest.reads.with ?? {}
      return (clause) => isGiven(read(clause, given))
    }
    const named = lookup<Piece<'tests'>>('tests', { use: clauseTest.test })
    return (clause) => named(clause, {})
  }
  const valuesOf = valuesOfEntry(entry, lookup)
  const template: RuleTemplate = {
    id: entry.id,
    title: entry.title,
    platform: entry.platform,
    category: entry.category,
    kinds: entry.kinds,
    phrasings: entry.phrasings,
    parameters: entry.parameters,
    recognize: recognizerOf(entry, entry.recognize, test, lookup),
    rule: ruleOf(entry, lookup, valuesOf),
    samples: samplesOf(entry.samples, lookup, valuesOf),
  }
  if (entry.constantsNamedBy !== undefined) {
    const words = pattern(entry.constantsNamedBy)
    template.constantsNamedBy = typeof words === 'string' ? new RegExp(`\\b${words.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`) : words
  }
  return template
}

type Lookup = <T>(kind: keyof Vocabulary, use: Use) => T
type ClauseTestOf = (clauseTest: ClauseTest) => (clause: Clause) => boolean
type ValuesOf = (parameters: Parameters) => Values

/** Whether a reader found something: a value, not an empty list. */
function isGiven(value: ParameterValue | undefined): boolean {
  return value !== undefined && !(Array.isArray(value) && value.length === 0)
}

function recognizerOf(entry: NamedRequirement, recognition: EntryRecognition, test: ClauseTestOf, lookup: Lookup): RuleTemplate['recognize'] {
  if ('use' in recognition) {
    const recognize = lookup<Piece<'recognizers'>>('recognizers', recognition)
    const given = recognition.with ?? {}
    return (clause) => recognize(clause, given)
  }
  const about = test(recognition.when)
  const scores = typeof recognition.score === 'number' ? [{ test: () => true, score: recognition.score }] : recognition.score.map((each) => ({ test: each.when ? test(each.when) : () => true, score: each.score }))
  const readers = Object.entries(recognition.parameters ?? {}).map(([name, reading]) => ({
    name,
    read: readingOf(reading, test, lookup),
    emptyIsMissing: 'use' in reading && reading.emptyIsMissing === true,
    required: entry.parameters.some((parameter) => parameter.name === name && parameter.required),
  }))
  return (clause) => {
    if (!about(clause)) return NOT_RECOGNIZED
    const score = scores.find((each) => each.test(clause))?.score ?? 0
    const recognition: Recognition = { score, parameters: {}, missing: [] }
    for (const reader of readers) {
      const value = reader.read(clause)
      if (value !== undefined) recognition.parameters[reader.name] = value
      if (reader.required && (value === undefined || (reader.emptyIsMissing && !isGiven(value)))) recognition.missing.push(reader.name)
    }
    return recognition
  }
}

function readingOf(reading: ParameterReading, test: ClauseTestOf, lookup: Lookup): (clause: Clause) => ParameterValue | undefined {
  if ('use' in reading) {
    const read = lookup<Piece<'readers'>>('readers', reading)
    const given = reading.with ?? {}
    const when = reading.when ? test(reading.when) : () => true
    return (clause) => (when(clause) ? read(clause, given) : undefined)
  }
  if ('value' in reading) {
    const when = test(reading.when)
    const value = reading.value
    return (clause) => (when(clause) ? parameterValue(value) : undefined)
  }
  const cases = reading.collect.map((item) => {
    if ('use' in item) {
      const read = lookup<Piece<'readers'>>('readers', item)
      const given = item.with ?? {}
      return (clause: Clause): readonly unknown[] => {
        const found = read(clause, given)
        return found === undefined ? [] : Array.isArray(found) ? found : [found]
      }
    }
    const when = test(item.when)
    return (clause: Clause): readonly unknown[] => (when(clause) ? item.values : [])
  })
  const otherwise = reading.otherwise
  return (clause) => {
    const found = [...new Set(cases.flatMap((each) => each(clause)))]
    if (found.length > 0) return parameterValue(found as JsonValue)
    return otherwise === undefined ? undefined : parameterValue(otherwise)
  }
}

/** An entry's value as a parameter: a copy, since parameters are the reader's to change. */
function parameterValue(value: JsonValue): ParameterValue {
  return structuredClone(value) as ParameterValue
}

/** Whether a condition on the parameters holds (see ParameterCondition). */
export function holds(condition: ParameterCondition, parameters: Parameters): boolean {
  return Object.entries(condition).every(([name, expected]) => {
    const actual = parameters[name]
    if (expected === false) return actual !== true
    if (Array.isArray(actual)) return (actual as readonly unknown[]).includes(expected)
    return actual === expected
  })
}

function valuesOfEntry(entry: NamedRequirement, lookup: Lookup): ValuesOf {
  if (entry.values === undefined) return () => ({})
  const compute = lookup<Piece<'values'>>('values', entry.values)
  const given = entry.values.with ?? {}
  return (parameters) => compute(parameters, given)
}

function ruleOf(entry: NamedRequirement, lookup: Lookup, valuesOf: ValuesOf): RuleTemplate['rule'] {
  const choices: readonly RuleChoice[] = 'use' in entry.rule ? [entry.rule] : entry.rule
  if (choices.length === 0 || choices[choices.length - 1]?.if !== undefined) throw new Error(`catalog entry ${entry.id}: its last rule must take any parameters (no "if")`)
  const built = choices.map((choice) => ({ condition: choice.if, build: lookup<Piece<'rules'>>('rules', choice), given: choice.with ?? {} }))
  return (parameters) => {
    const choice = built.find((each) => each.condition === undefined || holds(each.condition, parameters))
    if (!choice) throw new Error(`catalog entry ${entry.id} has no rule for these parameters`)
    return choice.build(parameters, filled(choice.given, valuesOf(parameters)))
  }
}

function samplesOf(samples: EntrySamples, lookup: Lookup, valuesOf: ValuesOf): RuleTemplate['samples'] {
  if ('use' in samples) {
    const make = lookup<Piece<'samples'>>('samples', samples)
    const given = samples.with ?? {}
    return (parameters) => make(parameters, filled(given, valuesOf(parameters)))
  }
  const good = (samples.good ?? []).map((item) => ('edit' in item ? { condition: item.if, edit: editOf(item.edit, lookup) } : { condition: undefined, edit: editOf(item, lookup) }))
  const bad = samples.bad.map((sample) => ({ condition: sample.if, description: sample.description, edit: editOf(sample.edit, lookup) }))
  return (parameters): TemplateSamples => {
    const values = valuesOf(parameters)
    const applies = (condition: ParameterCondition | undefined): boolean => condition === undefined || holds(condition, parameters)
    return {
      good: good.filter((sample) => applies(sample.condition)).map((sample) => sample.edit(parameters, values)),
      bad: bad.filter((sample) => applies(sample.condition)).map((sample) => ({ description: fillText(sample.description, values), edit: sample.edit(parameters, values) })),
    }
  }
}

function isEditList(data: SampleEditData): data is readonly SampleEditData[] {
  return Array.isArray(data)
}

function editOf(data: SampleEditData, lookup: Lookup): (parameters: Parameters, values: Values) => SampleEdit {
  if (isEditList(data)) {
    const edits = data.map((each) => editOf(each, lookup))
    return (parameters, values) => {
      const made = edits.map((edit) => edit(parameters, values))
      return (document) => {
        for (const edit of made) edit(document)
      }
    }
  }
  if ('use' in data) {
    const make = lookup<Piece<'edits'>>('edits', data)
    const given = data.with ?? {}
    return (parameters, values) => make(parameters, filled(given, values))
  }
  const at: Use = typeof data.at === 'string' ? { use: data.at } : data.at
  const place = lookup<Piece<'places'>>('places', at)
  return (_parameters, values) => {
    const where = filled(at.with ?? {}, values)
    const set = Object.entries(data.set ?? {}).map(([path, value]) => [path, fill(value, values)] as const)
    const merge = Object.entries(data.merge ?? {}).map(([path, value]) => [path, fill(value, values)] as const)
    const append = data.append ? { to: data.append.to, item: fill(data.append.item, values) } : undefined
    return (document) => {
      const found = place(document, where)
      for (const target of Array.isArray(found) ? found : [found]) {
        for (const [path, value] of set) setPath(target, path, structuredClone(value))
        for (const [path, value] of merge) {
          if (!isObject(value)) throw new Error(`a catalog sample edit merges ${JSON.stringify(value)} into ${path}: not an object`)
          const [parent, key] = parentOf(target, path)
          const existing = parent[key]
          parent[key] = { ...(isObject(existing) ? existing : {}), ...structuredClone(value) }
        }
        if (append) {
          const [parent, key] = parentOf(target, append.to)
          const existing = parent[key]
          parent[key] = [...(Array.isArray(existing) ? (existing as unknown[]) : []), structuredClone(append.item)]
        }
        for (const path of data.remove ?? []) {
          const [parent, key] = parentOf(target, path)
          delete parent[key]
        }
      }
    }
  }
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

const PLACEHOLDER = /\{([A-Za-z][\w-]*)\}/g
const WHOLE_PLACEHOLDER = /^\{([A-Za-z][\w-]*)\}$/

/**
 * A JSON value with its `{name}` placeholders filled from the values (see NamedRequirement.values):
 * a string that is one placeholder becomes the value itself, other strings get its text.
 */
export function fill(value: JsonValue, values: Values): JsonValue {
  if (typeof value === 'string') {
    const name = WHOLE_PLACEHOLDER.exec(value)?.[1]
    if (name !== undefined && Object.hasOwn(values, name)) return values[name] ?? null
    return fillText(value, values)
  }
  if (Array.isArray(value)) return (value as readonly JsonValue[]).map((item) => fill(item, values))
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fill(item, values)]))
  return value
}

function filled(options: Options, values: Values): Options {
  return Object.keys(values).length === 0 ? options : (fill(options, values) as Options)
}

/** Text with each `{name}` of the values replaced by the value's text; other braces stay. */
export function fillText(text: string, values: Values): string {
  return text.replace(PLACEHOLDER, (written, name: string) => (Object.hasOwn(values, name) ? textOf(values[name] ?? null) : written))
}

function textOf(value: JsonValue): string {
  if (value === null) return ''
  if (Array.isArray(value)) return (value as readonly JsonValue[]).map(textOf).join(', ')
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
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
