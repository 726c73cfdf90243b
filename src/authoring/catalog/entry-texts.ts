import { celStringList } from './pod-rule.js'
import type { ParameterValue, Parameters } from './rule-template.js'

/**
 * Texts of entries that name parameters (see EntryText): a rule's name and messages, its CEL, a
 * sample's description. The words stay in the entry; only how a value is written is here.
 */

/**
 * A text naming parameters, for texts that depend on them (a rule's name, messages, CEL; sample
 * descriptions): `{name}` is a parameter, read as EntryTexts says, or a phrase; `{name|or}` a list
 * joined with "or" (also `and`, `first`, and `cel` for a CEL list of strings; a list alone is
 * joined with commas). Or the first of several cases whose condition holds (none: empty), or each
 * item of a list parameter (`{item}` in `text`), joined.
 */
export type EntryText = string | ReadonlyArray<{ when?: TextCondition; text: string }> | { each: string; from?: number; text: string; join: string }

/** A condition on read parameters, every part of which holds: given (a number, a non-empty list), with several items, a first item. */
export type TextCondition = { given?: string | readonly string[]; many?: string; is?: Readonly<Record<string, string>> }

/**
 * How texts read parameters: as a `number` (`otherwise` when the value is none), or as a `list` of
 * strings (kept to `only` these, lowercased, `otherwise` when empty); and phrases by name.
 */
export type EntryTexts = {
  parameters?: Readonly<Record<string, { as: 'number' | 'list'; otherwise?: number | readonly string[]; only?: readonly string[]; lowercase?: boolean }>>
  phrases?: Readonly<Record<string, EntryText>>
}

type Read = Record<string, number | string[] | undefined>

/** A parameter as a list of strings: a string alone is a list of one. */
export function stringList(value: ParameterValue | undefined): string[] {
  return Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : []
}

function read(parameters: Parameters, declared: NonNullable<EntryTexts['parameters']>): Read {
  const values: Read = {}
  for (const [name, how] of Object.entries(declared)) {
    const value = parameters[name]
    if (how.as === 'number') {
      values[name] = typeof value === 'number' && Number.isFinite(value) ? value : typeof how.otherwise === 'number' ? how.otherwise : undefined
      continue
    }
    let list = stringList(value)
    if (how.only) list = list.filter((item) => how.only?.includes(item))
    if (how.lowercase) list = list.map((item) => item.toLowerCase())
    if (list.length === 0 && Array.isArray(how.otherwise)) list = [...(how.otherwise as readonly string[])]
    values[name] = list
  }
  return values
}

function given(value: number | string[] | undefined): boolean {
  return typeof value === 'number' || (Array.isArray(value) && value.length > 0)
}

function holds(condition: TextCondition | undefined, values: Read): boolean {
  if (!condition) return true
  const names = condition.given === undefined ? [] : typeof condition.given === 'string' ? [condition.given] : condition.given
  if (!names.every((name) => given(values[name]))) return false
  if (condition.many !== undefined) {
    const list = values[condition.many]
    if (!Array.isArray(list) || list.length < 2) return false
  }
  for (const [name, expected] of Object.entries(condition.is ?? {})) {
    const value = values[name]
    if ((Array.isArray(value) ? value[0] : value?.toString()) !== expected) return false
  }
  return true
}

const PLACEHOLDER = /\{([A-Za-z][\w-]*)(?:\|(\w+))?\}/g

function written(value: number | string[] | undefined, filter: string | undefined): string {
  if (value === undefined) return ''
  if (typeof value === 'number') return String(value)
  switch (filter) {
    case undefined:
      return value.join(', ')
    case 'or':
      return value.join(' or ')
    case 'and':
      return value.join(' and ')
    case 'first':
      return value[0] ?? ''
    case 'cel':
      return celStringList(value)
    default:
      throw new Error(`no text filter "${filter}"`)
  }
}

function render(text: EntryText, values: Read, phrases: Readonly<Record<string, EntryText>>, item?: string): string {
  if (typeof text === 'string') {
    // One pass: a parameter's value is written as it is, never read as a text itself.
    return text.replace(PLACEHOLDER, (_whole, name: string, filter: string | undefined) => {
      if (name === 'item' && item !== undefined) return item
      if (name in values) return written(values[name], filter)
      const phrase = phrases[name]
      if (phrase !== undefined) return render(phrase, values, phrases, item)
      throw new Error(`a catalog text names {${name}}, which is neither a parameter nor a phrase of its entry`)
    })
  }
  if ('each' in text) {
    const list = values[text.each]
    return (Array.isArray(list) ? list.slice(text.from ?? 0) : []).map((each) => render(text.text, values, phrases, each)).join(text.join)
  }
  const chosen = text.find((each) => holds(each.when, values))
  return chosen ? render(chosen.text, values, phrases, item) : ''
}

/** The entry's texts for these parameters: `say` writes a text, `holds` tests a condition, `values` are the parameters as read. */
export function textsFor(parameters: Parameters, texts: EntryTexts): { values: Read; say: (text: EntryText) => string; holds: (condition: TextCondition | undefined) => boolean } {
  const values = read(parameters, texts.parameters ?? {})
  const phrases = texts.phrases ?? {}
  return { values, say: (text) => render(text, values, phrases), holds: (condition) => holds(condition, values) }
}
