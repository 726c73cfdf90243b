import { mentions, type Clause } from '../text/clause.js'
import type { ClauseTest, EntryRecognition, EntrySamples, JsonValue, NamedRequirement, ParameterReading, SampleEditData, Use, ValueTest, Words } from './named-requirement.js'
import { celString, celStringList } from './pod-rule.js'
import type { ParameterValue, Parameters, Recognition, RuleTemplate, SampleEdit, TemplateSamples } from './rule-template.js'
import type { Options, Values, Vocabulary } from './vocabulary.js'

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
    if ('reads' in clauseTest) {
      const read = lookup<NonNullable<Vocabulary['readers']>[string]>('readers', { use: clauseTest.reads })
      const given = clauseTest.with ?? {}
      return (clause) => {
        const value = read(clause, given)
        return value !== undefined && !(Array.isArray(value) && value.length === 0)
      }
    }
    const named = lookup<NonNullable<Vocabulary['tests']>[string]>('tests', { use: clauseTest.test })
    const given = clauseTest.with ?? {}
    return (clause) => named(clause, given)
  }
  const fill = filler(entry)
  const makers = (entry.values ?? []).map((use) => ({ make: lookup<NonNullable<Vocabulary['values']>[string]>('values', use), with: options(use) }))
  const valuesOf = (parameters: Parameters): Values => {
    const values: Record<string, JsonValue> = { ...parameters }
    for (const maker of makers) Object.assign(values, maker.make(values, fill.options(maker.with, values)))
    return values
  }
  const ruleCases = (isRuleList(entry.rule) ? entry.rule : [entry.rule as Use & { when?: ValueTest }]).map((each) => ({
    when: each.when ? valueTestOf(each.when, fill) : () => true,
    build: lookup<NonNullable<Vocabulary['rules']>[string]>('rules', each),
    with: options(each),
  }))
  const samples = samplesOf(entry.samples, { vocabulary, lookup, fill })
  const template: RuleTemplate = {
    id: entry.id,
    title: entry.title,
    platform: entry.platform,
    category: entry.category,
    kinds: entry.kinds,
    phrasings: entry.phrasings,
    parameters: entry.parameters,
    recognize: recognizerOf(entry, entry.recognize, test, lookup),
    rule: (parameters) => {
      const values = valuesOf(parameters)
      const chosen = ruleCases.find((each) => each.when(values))
      if (!chosen) throw new Error(`catalog entry ${entry.id} has no rule for parameters ${JSON.stringify(parameters)}`)
      return chosen.build(parameters, fill.options(chosen.with, values))
    },
    samples: (parameters) => samples(parameters, valuesOf(parameters)),
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
  const readers = Object.entries(recognition.parameters ?? {}).map(([name, reading]) => ({
    name,
    read: readingOf(reading, test, lookup),
    emptyIsMissing: 'use' in reading && reading.emptyIsMissing === true,
    required: !('holds' in reading) && entry.parameters.some((parameter) => parameter.name === name && parameter.required),
  }))
  const askedAgain = (recognition.missing ?? []).map((each) => ({ parameter: each.parameter, test: test(each.when) }))
  return (clause) => {
    if (!about(clause)) return NOT_RECOGNIZED
    const score = scores.find((each) => each.test(clause))?.score ?? 0
    const recognition: Recognition = { score, parameters: {}, missing: [] }
    for (const reader of readers) {
      const value = reader.read(clause)
      if (value !== undefined) recognition.parameters[reader.name] = value
      if (reader.required && (value === undefined || (reader.emptyIsMissing && Array.isArray(value) && value.length === 0))) recognition.missing.push(reader.name)
    }
    for (const each of askedAgain) if (!recognition.missing.includes(each.parameter) && each.test(clause)) recognition.missing.push(each.parameter)
    return recognition
  }
}

function readingOf(reading: ParameterReading, test: (clauseTest: ClauseTest) => (clause: Clause) => boolean, lookup: Lookup): (clause: Clause) => ParameterValue | undefined {
  if ('holds' in reading) {
    const holds = test(reading.holds)
    return (clause) => holds(clause)
  }
  if ('use' in reading) {
    const read = lookup<NonNullable<Vocabulary['readers']>[string]>('readers', reading)
    const given = reading.with ?? {}
    const applies = reading.when ? test(reading.when) : () => true
    return (clause) => (applies(clause) ? read(clause, given) : undefined)
  }
  if ('value' in reading) {
    const applies = test(reading.when)
    const value = reading.value
    return (clause) => (applies(clause) ? parameterValue(value) : undefined)
  }
  const cases = reading.collect.map((item) => {
    if ('use' in item) {
      const read = lookup<NonNullable<Vocabulary['readers']>[string]>('readers', item)
      const given = item.with ?? {}
      return (clause: Clause): readonly unknown[] => {
        const found = read(clause, given)
        return found === undefined ? [] : Array.isArray(found) ? found : [found]
      }
    }
    const applies = test(item.when)
    return (clause: Clause): readonly unknown[] => (applies(clause) ? item.values : [])
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

interface Context {
  vocabulary: Vocabulary
  lookup: Lookup
  fill: Filler
}

type MakeSamples = (parameters: Parameters, values: Values) => TemplateSamples

function samplesOf(samples: EntrySamples, context: Context): MakeSamples {
  if (isCases(samples)) {
    const cases = samples.map((each) => ({ when: each.when ? valueTestOf(each.when, context.fill) : () => true, make: samplesOf(each.samples, context) }))
    return (parameters, values) => {
      const chosen = cases.find((each) => each.when(values))
      if (!chosen) throw new Error(`no samples for parameters ${JSON.stringify(parameters)}`)
      return chosen.make(parameters, values)
    }
  }
  if ('use' in samples) {
    const make = context.lookup<NonNullable<Vocabulary['samples']>[string]>('samples', samples)
    const given = samples.with ?? {}
    return (parameters, values) => make(parameters, context.fill.options(given, values))
  }
  const good = (samples.good ?? []).map((item) =>
    'edit' in item ? { when: valueTestOf(item.when, context.fill), edit: editOf(item.edit, context) } : { when: () => true, edit: editOf(item, context) },
  )
  const bad = samples.bad.map((sample) => ({
    ...sample,
    when: sample.when ? valueTestOf(sample.when, context.fill) : () => true,
    edit: editOf(sample.edit, context),
  }))
  return (parameters, values): TemplateSamples => ({
    good: good.filter((sample) => sample.when(values)).map((sample) => sample.edit(parameters, values)),
    bad: bad.flatMap((sample) => {
      if (!sample.when(values)) return []
      const each = sample.each === undefined ? [values] : context.fill.items(values, sample.each).map((item) => ({ ...values, item }))
      return each.map((itemValues) => ({ description: context.fill.text(sample.description, itemValues), edit: sample.edit(parameters, itemValues) }))
    }),
  })
}

function isCases(samples: EntrySamples): samples is ReadonlyArray<{ when?: ValueTest; samples: EntrySamples }> {
  return Array.isArray(samples)
}

function editOf(data: SampleEditData, context: Context): (parameters: Parameters, values: Values) => SampleEdit {
  const { lookup, fill } = context
  if (isEditList(data)) {
    const edits = data.map((each) => editOf(each, context))
    return (parameters, values) => {
      const made = edits.map((edit) => edit(parameters, values))
      return (document) => {
        for (const edit of made) edit(document)
      }
    }
  }
  if ('use' in data) {
    const make = lookup<NonNullable<Vocabulary['edits']>[string]>('edits', data)
    const given = data.with ?? {}
    return (parameters, values) => make(parameters, fill.options(given, values))
  }
  const at: Use = typeof data.at === 'string' ? { use: data.at } : data.at
  const place = lookup<NonNullable<Vocabulary['places']>[string]>('places', at)
  const change = data.change && { make: lookup<NonNullable<Vocabulary['changes']>[string]>('changes', data.change), with: data.change.with ?? {} }
  return (_parameters, values) => {
    const where = fill.options(at.with ?? {}, values)
    const changeOptions = change && fill.options(change.with, values)
    const set = Object.entries(data.set ?? {}).map(([path, value]) => [fill.text(path, values), fill.json(value, values)] as const)
    const merge = Object.entries(data.merge ?? {}).map(([path, value]) => [fill.text(path, values), fill.json(value, values)] as const)
    const append = data.append && { to: fill.text(data.append.to, values), item: fill.json(data.append.item, values) }
    const remove = (data.remove ?? []).map((path) => fill.text(path, values))
    return (document) => {
      // A place that is several objects (every container) is changed object by object.
      const found = place(document, where)
      for (const target of Array.isArray(found) ? found : [found]) {
        if (change && changeOptions) change.make(target, changeOptions)
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
        for (const path of remove) {
          const [parent, key] = parentOf(target, path)
          delete parent[key]
        }
      }
    }
  }
}

function isRuleList(rule: NamedRequirement['rule']): rule is ReadonlyArray<Use & { when?: ValueTest }> {
  return Array.isArray(rule)
}

function isEditList(data: SampleEditData): data is readonly SampleEditData[] {
  return Array.isArray(data)
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Whether a test on values holds, for pieces of the vocabulary that choose by one (see ValueTest). */
export function holds(test: ValueTest, values: Values): boolean {
  const names = test.given === undefined ? [] : typeof test.given === 'string' ? [test.given] : test.given
  return names.every((name) => isGiven(valueAt(values, name))) && Object.entries(test.is ?? {}).every(([name, value]) => isValue(valueAt(values, name), value))
}

/** The value of a name, an item or key of it after a dot (`allowed.0`): undefined when there is none. */
function valueAt(values: Values, name: string): JsonValue | undefined {
  const [first = '', ...rest] = name.split('.')
  let current: JsonValue | undefined = values[first]
  for (const segment of rest) {
    current = Array.isArray(current) ? current[Number(segment)] : typeof current === 'object' && current !== null ? (current as Record<string, JsonValue>)[segment] : undefined
  }
  return current
}

function valueTestOf(test: ValueTest, fill: Filler): (values: Values) => boolean {
  const names = test.given === undefined ? [] : typeof test.given === 'string' ? [test.given] : test.given
  const expected = Object.entries(test.is ?? {})
  return (values) => names.every((name) => isGiven(fill.value(values, name))) && expected.every(([name, value]) => isValue(fill.value(values, name), value))
}

/** The value, or a list holding it; `false` is anything but `true` (a flag left out is off). */
function isValue(actual: JsonValue | undefined, expected: JsonValue): boolean {
  if (expected === false) return actual !== true
  if (Array.isArray(actual)) return actual.includes(expected)
  return actual === expected
}

/** Given: true, a number, a string, list or object that is not empty. */
function isGiven(value: JsonValue | undefined): boolean {
  if (value === true || typeof value === 'number') return true
  if (typeof value === 'string' || Array.isArray(value)) return value.length > 0
  return typeof value === 'object' && value !== null && Object.keys(value).length > 0
}

// ---------------------------------------------------------------------------------------------
// Parameters and values named in texts (NamedRequirement's Text)

interface Filler {
  /** The value of a name (`registries`, `allowed.0`): undefined for a parameter not given; an error for an unknown name. */
  value(values: Values, name: string): JsonValue | undefined
  text(text: string, values: Values): string
  json(json: JsonValue, values: Values): JsonValue
  options(options: Options, values: Values): Options
  /** The items of a list value (none when it is not given). */
  items(values: Values, name: string): JsonValue[]
}

const PLACEHOLDER = /\{\{([\w-]+(?:\.[\w-]+)*)(?:\|(or|and|cel))?\}\}/g
const WHOLE_PLACEHOLDER = /^\{\{([\w-]+(?:\.[\w-]+)*)\}\}$/

function filler(entry: NamedRequirement): Filler {
  // The parameters declared, and those the entry reads without asking for them (a flag).
  const read = 'use' in entry.recognize ? [] : Object.keys(entry.recognize.parameters ?? {})
  const declared = new Set([...entry.parameters.map((parameter) => parameter.name), ...read])
  const value = (values: Values, name: string): JsonValue | undefined => {
    const first = name.split('.')[0] ?? ''
    const known = Object.hasOwn(values, first)
    if (!known && !declared.has(first)) throw new Error(`catalog entry ${entry.id} names "{{${name}}}", which is no parameter or value of it`)
    return known ? valueAt(values, name) : undefined
  }
  const text = (template: string, values: Values): string =>
    template.includes('{{') ? template.replace(PLACEHOLDER, (_match, name: string, format: string | undefined) => textOf(entry, value(values, name), format)) : template
  const json = (template: JsonValue, values: Values): JsonValue => {
    if (typeof template === 'string') {
      const whole = WHOLE_PLACEHOLDER.exec(template)
      return whole ? (value(values, whole[1] ?? '') ?? null) : text(template, values)
    }
    if (Array.isArray(template)) return template.map((item) => json(item, values))
    if (typeof template === 'object' && template !== null) return Object.fromEntries(Object.entries(template).map(([key, item]) => [text(key, values), json(item, values)]))
    return template
  }
  return {
    value,
    text,
    json,
    options: (options, values) => json(options, values) as Options,
    items: (values, name) => {
      const list = value(values, name)
      if (list === undefined || list === null) return []
      if (!Array.isArray(list)) throw new Error(`catalog entry ${entry.id} takes each item of "${name}", which is not a list`)
      return [...list]
    },
  }
}

function textOf(entry: NamedRequirement, value: JsonValue | undefined, format: string | undefined): string {
  if (format === 'cel') {
    if (typeof value === 'string') return celString(value)
    if (typeof value === 'number' || typeof value === 'boolean') return String(value)
    return celStringList(Array.isArray(value) ? value.map((item) => String(item)) : [])
  }
  if (value === undefined || value === null) return ''
  if (Array.isArray(value)) return value.map((item) => textOf(entry, item, undefined)).join(format === 'or' ? ' or ' : format === 'and' ? ' and ' : ', ')
  if (typeof value === 'object') throw new Error(`catalog entry ${entry.id} writes an object in a text`)
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
