import type { Rule } from '../../engine/index.js'
import type { RuleTemplate } from '../catalog/rule-template.js'
import { fieldGround, type FieldGround } from './field-grounds.js'
import { boundGround, scalarGround, valueGrounds, type ValueGround } from './value-grounds.js'
import { writtenSpan, type WhereWritten } from './written-words.js'
import type { Condition, Requirement } from './requirement.js'

/**
 * Per rule, the words of the text that grounded it, as issue 32's reading shows them: a rule may
 * only say what the text says, so next to each rule stand the words that named its field (and
 * how they name it) and the words that gave each value (and how they are written), for its
 * conditions and exemptions too; for a rule of the catalog, the named requirement it is. Words
 * are quoted from the text exactly as written; where the reader derived something no words
 * spell (a registry normalized, a switch a verb turned on), `words` is left out rather than
 * made up.
 */
export interface RuleGrounds {
  rule: string
  /** The fields the rule judges, each with the words that named it. */
  fields?: FieldGround[]
  /** The values it compares them with, each with the words that gave it. */
  values?: ValueGround[]
  /** The other field a field is compared with ("maxReplicas greater than minReplicas"). */
  comparedWith?: FieldGround
  /** Where it applies: each condition with its field and values. */
  conditions?: ConditionGround[]
  /** Where it does not apply. */
  exemptions?: ConditionGround[]
  /** A rule of the catalog: the named requirement the sentence asked for, and the words that gave its parameters. */
  named?: NamedGround
}

export interface NamedGround {
  id: string
  title: string
  /** Each parameter value the sentence wrote (a label key, a registry, a bound), with its words; those it did not write are left out. */
  parameters?: Array<ValueGround & { parameter: string }>
}

export interface ConditionGround {
  /** The condition as the author put it ("except in the kube-system namespace"). */
  words?: string
  field: FieldGround
  values: ValueGround[]
}

/** The grounds of the rule a requirement compiled to. */
export function requirementGrounds(rule: string, requirement: Requirement, written: { sentence: string; instruction: string }): RuleGrounds {
  const where: WhereWritten = { near: [written.sentence], instruction: written.instruction }
  const grounds: RuleGrounds = { rule }
  const fields = requirement.values.map((ref) => fieldGround(ref, requirement.predicate, where))
  if (fields.length > 0) grounds.fields = fields
  // A value is looked for after the words of the fields first: "replicas of 2 ... at least 3" compares 3.
  const after = Math.max(0, ...fields.map((field) => (field.words === undefined ? 0 : (writtenSpan(field.words, written.sentence)?.index ?? 0) + field.words.length)))
  const values = valueGrounds(requirement.values[0], requirement.predicate, where, after)
  if (values.length > 0) grounds.values = values
  if (requirement.predicate.op === 'compareField') grounds.comparedWith = fieldGround(requirement.predicate.other, { op: 'set' }, where, after)
  if (requirement.conditions.length > 0) grounds.conditions = requirement.conditions.map((condition) => conditionGround(condition, where))
  if (requirement.exemptions.length > 0) grounds.exemptions = requirement.exemptions.map((condition) => conditionGround(condition, where))
  return grounds
}

/**
 * The grounds of a catalog rule: the named requirement it came from (found by the id the rule
 * records), and the parameter values written in the sentence, each with its words.
 */
export function namedRuleGrounds(rule: Rule, catalog: readonly RuleTemplate[], written: { sentence: string; instruction: string }): RuleGrounds {
  const id = rule.template?.id
  if (id === undefined) return { rule: rule.name }
  const named: NamedGround = { id, title: catalog.find((entry) => entry.id === id)?.title ?? id }
  const where: WhereWritten = { near: [written.sentence], instruction: written.instruction }
  const parameters = parameterValues(rule.template?.parameters ?? {})
    // "2Gi", "500m": a quantity is a number with its unit.
    .map(({ parameter, value }) => ({ parameter, ...(typeof value === 'number' || /^\d+(?:\.\d+)?(?:[A-Za-z]{1,3}|%)?$/.test(value) ? boundGround(value, undefined, where, 0) : scalarGround(value, undefined, where, 0)) }))
    // Only what the sentence wrote: a default the template filled in is no words of the author's.
    .filter((ground) => ground.words !== undefined && writtenSpan(ground.words, written.sentence) !== undefined)
  if (parameters.length > 0) named.parameters = parameters
  return { rule: rule.name, named }
}

/** The text and numbers of a template's parameters, each named by its path (`bounds.limits.memory.max`). */
function parameterValues(parameters: Readonly<Record<string, unknown>>, prefix = ''): Array<{ parameter: string; value: string | number }> {
  return Object.entries(parameters).flatMap(([name, value]) => {
    const parameter = `${prefix}${name}`
    const items: unknown[] = Array.isArray(value) ? value : [value]
    return items.flatMap((item) => {
      if (typeof item === 'string' || typeof item === 'number') return [{ parameter, value: item }]
      return typeof item === 'object' && item !== null && !Array.isArray(item) ? parameterValues(item as Record<string, unknown>, `${parameter}.`) : []
    })
  })
}

function conditionGround(condition: Condition, where: WhereWritten): ConditionGround {
  // The condition's own words first: a scope said in another sentence ("kube-system is exempt") is found there.
  // The reader may tag what it read ("only-in:in the dns namespace"): the words are what follows.
  const said = condition.text.replace(/^[a-z]+(?:-[a-z]+)*:(?=\S)/, '')
  const words = [...where.near, where.instruction].map((text) => writtenSpan(said, text)).find((found) => found !== undefined)?.words
  const own: WhereWritten = { near: [words ?? said, ...where.near], instruction: where.instruction }
  return { ...(words !== undefined ? { words } : {}), field: fieldGround(condition.value, condition.predicate, own), values: valueGrounds(condition.value, condition.predicate, own, 0) }
}

